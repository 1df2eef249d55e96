//! The vocabulary every format shares: colours, what a player scored in one round, points.

use std::fmt;

/// A side of the board. Xiangqi's red moves first and is written `w` in TRF-16, as chess's
/// white is; black is `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The side that moves first (red in xiangqi and jieqi).
    White,
    /// The side that moves second.
    Black,
}

impl Colour {
    /// The other side.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Points counted in half points, so that a draw is a whole number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points(pub u16);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// A draw's half point.
    pub const HALF: Points = Points(1);
    /// A win's point.
    pub const ONE: Points = Points(2);
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0.saturating_add(other.0))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Points {
    /// `3`, `3.5`: as TRF-16 and every standings table write a score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// A round without a game, as TRF-16 writes it after `0000 -`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByeKind {
    /// `U`: the pairing-allocated bye of an odd round, a win's point.
    PairingAllocated,
    /// `H`: a half-point bye the player asked for (or a late entry's missed round, once).
    Half,
    /// `F`: a full-point bye given by the organiser.
    Full,
    /// `Z`: a zero-point bye: absent, not yet entered, or withdrawn.
    Zero,
}

impl ByeKind {
    /// What the bye is worth.
    pub fn points(self) -> Points {
        match self {
            ByeKind::PairingAllocated | ByeKind::Full => Points::ONE,
            ByeKind::Half => Points::HALF,
            ByeKind::Zero => Points::ZERO,
        }
    }

    /// TRF-16's letter.
    pub fn letter(self) -> char {
        match self {
            ByeKind::PairingAllocated => 'U',
            ByeKind::Half => 'H',
            ByeKind::Full => 'F',
            ByeKind::Zero => 'Z',
        }
    }
}

/// How one player's game of a round ended, from that player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Won over the board.
    Win,
    /// Drawn.
    Draw,
    /// Lost over the board.
    Loss,
    /// Won because the opponent did not play (`+`).
    ForfeitWin,
    /// Lost because this player did not play (`-`).
    ForfeitLoss,
}

impl Score {
    /// The points it gives.
    pub fn points(self) -> Points {
        match self {
            Score::Win | Score::ForfeitWin => Points::ONE,
            Score::Draw => Points::HALF,
            Score::Loss | Score::ForfeitLoss => Points::ZERO,
        }
    }

    /// Whether the game was played over the board (a forfeit was not): only played games
    /// count for colours and for the rule that two players meet once.
    pub fn was_played(self) -> bool {
        matches!(self, Score::Win | Score::Draw | Score::Loss)
    }

    /// The opponent's score of the same game.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::ForfeitWin => Score::ForfeitLoss,
            Score::ForfeitLoss => Score::ForfeitWin,
        }
    }

    /// TRF-16's letter.
    pub fn letter(self) -> char {
        match self {
            Score::Win => '1',
            Score::Draw => '=',
            Score::Loss => '0',
            Score::ForfeitWin => '+',
            Score::ForfeitLoss => '-',
        }
    }
}

/// What one player had in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// A game against `opponent` (an index into the event's players) with `colour`;
    /// `score` is `None` while it is being played.
    Game {
        /// The opponent's index.
        opponent: usize,
        /// This player's colour.
        colour: Colour,
        /// The outcome once known.
        score: Option<Score>,
    },
    /// No game this round.
    Bye(ByeKind),
}

impl Entry {
    /// The points this round gave (none while a game is being played).
    pub fn points(self) -> Points {
        match self {
            Entry::Game { score, .. } => score.map_or(Points::ZERO, Score::points),
            Entry::Bye(kind) => kind.points(),
        }
    }

    /// The entry's game score, if it was a game with a known outcome.
    pub fn score(self) -> Option<Score> {
        match self {
            Entry::Game { score, .. } => score,
            Entry::Bye(_) => None,
        }
    }
}
