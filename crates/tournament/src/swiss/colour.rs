//! Colour preferences and the allocation of colours to a pair (C.04.3 A.6 and E; in the
//! 2025 text articles 1.7 and 5).

use crate::model::Colour;

/// How much a player wants a colour (A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet.
    None,
    /// Colour difference 0: alternate from the last game.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two games.
    Absolute,
}

/// A player's colour preference, from the colours of their played games (forfeits and
/// byes have no colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    /// The wanted colour (`None` with [`Strength::None`]).
    pub colour: Option<Colour>,
    /// How much.
    pub strength: Strength,
}

/// White games minus black games.
pub fn difference(colours: &[Colour]) -> i32 {
    colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum()
}

impl Preference {
    /// The preference after the played games' `colours`, oldest first.
    pub fn of(colours: &[Colour]) -> Preference {
        let diff = difference(colours);
        let Some(&last) = colours.last() else {
            return Preference {
                colour: None,
                strength: Strength::None,
            };
        };
        let two_alike = colours.len() >= 2 && colours[colours.len() - 2] == last;
        let (colour, strength) = if two_alike {
            (last.opposite(), Strength::Absolute)
        } else if diff > 1 {
            (Colour::Black, Strength::Absolute)
        } else if diff < -1 {
            (Colour::White, Strength::Absolute)
        } else if diff == 1 {
            (Colour::Black, Strength::Strong)
        } else if diff == -1 {
            (Colour::White, Strength::Strong)
        } else {
            (last.opposite(), Strength::Mild)
        };
        Preference {
            colour: Some(colour),
            strength,
        }
    }
}

/// Whether playing `colour` next would give a colour difference beyond ±2 or the same
/// colour three times in a row: what C.8 and C.9 count for topscorers.
pub fn breaks_absolute(colours: &[Colour], colour: Colour) -> (bool, bool) {
    let diff = difference(colours) + if colour == Colour::White { 1 } else { -1 };
    let three = colours.len() >= 2 && colours[colours.len() - 2..].iter().all(|c| *c == colour);
    (diff.abs() > 2, three)
}

/// One side of a pair, as the allocation sees it.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// Played games' colours, oldest first.
    pub colours: &'a [Colour],
    /// Pairing number (odd numbers take the first colour in E.5).
    pub pairing_number: u16,
}

/// Which of two players takes white (E.1–E.5): `true` for `higher`, the higher-ranked one
/// (by score, then pairing number: A.2).
pub fn higher_takes_white(higher: Side<'_>, lower: Side<'_>, first_colour: Colour) -> bool {
    let ph = Preference::of(higher.colours);
    let pl = Preference::of(lower.colours);
    // E.1: both preferences granted.
    if let (Some(ch), Some(cl)) = (ph.colour, pl.colour)
        && ch != cl
    {
        return ch == Colour::White;
    }
    // E.2: the stronger preference; between two absolute ones, the wider difference.
    if ph.strength != pl.strength {
        return if ph.strength > pl.strength {
            ph.colour == Some(Colour::White)
        } else {
            pl.colour == Some(Colour::Black)
        };
    }
    if ph.strength == Strength::Absolute {
        let (dh, dl) = (
            difference(higher.colours).abs(),
            difference(lower.colours).abs(),
        );
        if dh != dl {
            return if dh > dl {
                ph.colour == Some(Colour::White)
            } else {
                pl.colour == Some(Colour::Black)
            };
        }
    }
    // E.3: alternate from the latest game in which they had different colours.
    for (ch, cl) in higher.colours.iter().rev().zip(lower.colours.iter().rev()) {
        if ch != cl {
            return *ch == Colour::Black;
        }
    }
    // E.4: the higher-ranked player's preference.
    if let Some(c) = ph.colour {
        return c == Colour::White;
    }
    // E.5: the higher-ranked player's pairing number's parity.
    let odd = higher.pairing_number % 2 == 1;
    (first_colour == Colour::White) == odd
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    #[test]
    fn two_games_of_one_colour_make_an_absolute_preference() {
        let p = Preference::of(&[W, B, B]);
        assert_eq!(
            p,
            Preference {
                colour: Some(W),
                strength: Strength::Absolute
            }
        );
        assert_eq!(Preference::of(&[W]).strength, Strength::Strong);
        assert_eq!(Preference::of(&[W, B]).colour, Some(W));
        assert_eq!(Preference::of(&[W, B]).strength, Strength::Mild);
    }

    #[test]
    fn both_wishes_are_granted_when_they_differ() {
        let h = Side {
            colours: &[W],
            pairing_number: 1,
        };
        let l = Side {
            colours: &[B],
            pairing_number: 2,
        };
        assert!(!higher_takes_white(h, l, W));
    }

    #[test]
    fn the_stronger_wish_wins() {
        // Higher: W,B (mild, wants W). Lower: W (strong, wants B) — no conflict, both granted.
        // Lower: B,B (absolute W) beats the higher's mild W.
        let h = Side {
            colours: &[W, B],
            pairing_number: 1,
        };
        let l = Side {
            colours: &[B, B],
            pairing_number: 2,
        };
        assert!(!higher_takes_white(h, l, W));
    }

    #[test]
    fn first_round_follows_the_pairing_number_and_first_colour() {
        let h = Side {
            colours: &[],
            pairing_number: 1,
        };
        let l = Side {
            colours: &[],
            pairing_number: 9,
        };
        assert!(higher_takes_white(h, l, W));
        assert!(!higher_takes_white(h, l, B));
        let h = Side {
            colours: &[],
            pairing_number: 2,
        };
        assert!(!higher_takes_white(h, l, W));
    }

    #[test]
    fn equal_wishes_alternate_from_the_last_difference() {
        // Both want black mildly; the higher had black when the lower had white two
        // games ago... the latest difference is the last game: h=W, l=B -> h gets B.
        let h = Side {
            colours: &[B, W],
            pairing_number: 1,
        };
        let l = Side {
            colours: &[W, B],
            pairing_number: 2,
        };
        // h wants B (mild), l wants W (mild): E.1 grants both.
        assert!(!higher_takes_white(h, l, W));
        let h = Side {
            colours: &[B, W, W, B],
            pairing_number: 1,
        };
        let l = Side {
            colours: &[W, B, W, B],
            pairing_number: 2,
        };
        // both mild wanting W; latest differing game: index 1 (h W, l B) -> h takes B.
        assert!(!higher_takes_white(h, l, W));
    }
}
