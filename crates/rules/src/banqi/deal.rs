//! The deal: which piece lies under each face-down square. It is the only secret of a Banqi
//! game, chosen before the first flip and never changed, so a flip is a lookup.
//!
//! A face-down piece never moves and cannot be captured, so the piece under a face-down
//! square is always the piece the deal put there at the start. A [`BanqiDeal`] therefore
//! always names all 32 squares; for a position in the middle of a game only the entries of
//! the squares still face down matter (the others are filled with the rest of the material
//! in a fixed order, so that every deal is a complete, valid arrangement).

use thiserror::Error;

use super::position::BanqiPosition;
use super::square::BanqiSquare;
use crate::types::{BySide, Cell, Piece, Role, Side};

/// The 32 pieces of a Banqi game in their canonical order: Red K A A E E R R C C H H P P P P P,
/// then Black in the same order.
fn canonical_pieces() -> impl Iterator<Item = Piece> {
    Side::ALL.into_iter().flat_map(|side| {
        Role::ALL.into_iter().flat_map(move |role| {
            std::iter::repeat_n(Piece::new(side, role), usize::from(role.start_count()))
        })
    })
}

/// The letters of [`BanqiDeal::fixed`], in FEN reading order (rank 4 to rank 1, `a` to `h`).
const FIXED_LETTERS: &[u8; 32] = b"KpAaErRcChHpPkPeaAeErRcChHpPpPpP";

/// Decodes [`FIXED_LETTERS`] at compile time (a bad letter fails the build, not a game).
const fn decode_fixed() -> [Piece; 32] {
    let mut out = [Piece::new(Side::Red, Role::Soldier); 32];
    let mut i = 0;
    while i < 32 {
        let rank = 3 - i / 8;
        let file = i % 8;
        match Piece::from_char(FIXED_LETTERS[i] as char) {
            Some(p) => out[rank * 8 + file] = p,
            None => panic!("FIXED_LETTERS holds a non-piece letter"),
        }
        i += 1;
    }
    out
}

const FIXED: [Piece; 32] = decode_fixed();

/// The piece under every square at the start of a Banqi game: the game's only secret.
///
/// Build one with [`BanqiDeal::shuffled`] for real play (the caller brings the randomness),
/// [`BanqiDeal::fixed`] for analysis and tests, or [`BanqiDeal::from_letters`] to read a
/// stored one.
///
/// ```
/// use jieqi_rules::banqi::BanqiDeal;
///
/// let deal = BanqiDeal::fixed();
/// assert_eq!(deal.letters(), "KpAaErRcChHpPkPeaAeErRcChHpPpPpP");
/// assert_eq!(BanqiDeal::from_letters(&deal.letters()), Ok(deal));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BanqiDeal {
    /// Indexed by [`BanqiSquare::index`].
    pieces: [Piece; 32],
}

/// A deal that could not be read or does not fit a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BanqiDealError {
    /// The wrong number of letters.
    #[error(
        "the deal lists {found} pieces but there are {expected} face-down squares: give one \
         piece letter per face-down square, in reading order (rank 4 to 1, a to h)"
    )]
    WrongLength {
        /// Face-down squares to fill.
        expected: usize,
        /// Letters given.
        found: usize,
    },
    /// A character that is not a piece letter.
    #[error(
        "`{0}` is not a piece letter: use K A E R C H P, upper case for Red and lower case \
         for Black"
    )]
    BadLetter(char),
    /// More pieces of one kind than a side owns.
    #[error(
        "the deal makes {count} {side} {role}s (face up, face down and captured together) but \
         each side has only {start}",
        side = piece.side,
        role = piece.role,
        start = piece.role.start_count()
    )]
    TooMany {
        /// The piece there are too many of.
        piece: Piece,
        /// How many there would be.
        count: u8,
    },
    /// The deal's face-down pieces are not the pieces the position has not shown yet.
    #[error(
        "the deal does not fit this position: the pieces under the face-down squares must be \
         exactly the pieces that are neither face up nor captured"
    )]
    DoesNotFit,
}

impl BanqiDeal {
    /// A fixed deal for analysis, perft and tests, the same in every build. In FEN reading
    /// order (rank 4 first, files `a` to `h`):
    ///
    /// ```text
    /// rank 4: K p A a E r R c
    /// rank 3: C h H p P k P e
    /// rank 2: a A e E r R c C
    /// rank 1: h H p P p P p P
    /// ```
    ///
    /// that is `KpAaErRc/ChHpPkPe/aAeErRcC/hHpPpPpP`, or the letters
    /// `KpAaErRcChHpPkPeaAeErRcChHpPpPpP`. Red and Black are mixed on every rank, so the
    /// first flips already make captures possible.
    pub fn fixed() -> BanqiDeal {
        BanqiDeal { pieces: FIXED }
    }

    /// A deal shuffled with `pick`, where `pick(n)` returns a uniform number in `0..n`
    /// (a value `>= n` is reduced modulo `n`). Fisher–Yates over the 32 pieces in canonical
    /// order, placed on the squares `a1`, `b1`, ... `h4`.
    ///
    /// ```
    /// use jieqi_rules::banqi::BanqiDeal;
    ///
    /// let mut state = 7u32;
    /// let mut pick = |n: u32| { state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345); (state >> 8) % n };
    /// let deal = BanqiDeal::shuffled(&mut pick);
    /// assert_eq!(deal.letters().chars().filter(|c| *c == 'K').count(), 1);
    /// ```
    pub fn shuffled(pick: &mut impl FnMut(u32) -> u32) -> BanqiDeal {
        let mut pieces = [Piece::new(Side::Red, Role::Soldier); 32];
        for (slot, piece) in pieces.iter_mut().zip(canonical_pieces()) {
            *slot = piece;
        }
        shuffle(&mut pieces, pick);
        BanqiDeal { pieces }
    }

    /// Reads the 32 letters of a start deal in FEN reading order (rank 4 to rank 1, `a` to
    /// `h`), as written by [`BanqiDeal::letters`]. Surrounding whitespace and `/` between
    /// ranks are ignored. Each side must have exactly its 16 pieces.
    pub fn from_letters(letters: &str) -> Result<BanqiDeal, BanqiDealError> {
        let pieces = parse_letters(letters)?;
        if pieces.len() != BanqiSquare::COUNT {
            return Err(BanqiDealError::WrongLength {
                expected: BanqiSquare::COUNT,
                found: pieces.len(),
            });
        }
        check_counts(&pieces, &BySide::default())?;
        let mut out = [Piece::new(Side::Red, Role::Soldier); 32];
        for (sq, piece) in BanqiSquare::reading_order().zip(pieces) {
            out[sq.index()] = piece;
        }
        Ok(BanqiDeal { pieces: out })
    }

    /// The 32 letters in FEN reading order (rank 4 to rank 1, `a` to `h`), case by colour:
    /// what a commitment hashes and what [`BanqiDeal::from_letters`] reads.
    pub fn letters(&self) -> String {
        BanqiSquare::reading_order()
            .map(|sq| self.piece_at(sq).char())
            .collect()
    }

    /// The piece the deal put under `square`.
    #[inline]
    pub fn piece_at(&self, square: BanqiSquare) -> Piece {
        self.pieces[square.index()]
    }

    /// Every square with its piece, in FEN reading order.
    pub fn pieces(&self) -> Vec<(BanqiSquare, Piece)> {
        BanqiSquare::reading_order()
            .map(|sq| (sq, self.piece_at(sq)))
            .collect()
    }

    /// The deal of a position read from a full FEN: `letters` names the piece under each
    /// face-down square of `position` in reading order (`-` or nothing when none is face
    /// down). Together with the face-up and captured pieces they must make exactly both
    /// armies. Squares not face down get the remaining pieces in canonical order (they are
    /// never looked at).
    pub fn for_position(
        position: &BanqiPosition,
        letters: &str,
    ) -> Result<BanqiDeal, BanqiDealError> {
        let pieces = if letters.trim() == "-" {
            Vec::new()
        } else {
            parse_letters(letters)?
        };
        let face_down: Vec<BanqiSquare> = position.face_down_squares().collect();
        if pieces.len() != face_down.len() {
            return Err(BanqiDealError::WrongLength {
                expected: face_down.len(),
                found: pieces.len(),
            });
        }
        check_counts(&pieces, &position.seen())?;
        let mut partial = [None; 32];
        for (sq, piece) in face_down.into_iter().zip(pieces) {
            partial[sq.index()] = Some(piece);
        }
        Ok(complete(&partial))
    }

    /// The deal [`crate::banqi::perft_position`] and [`crate::banqi::BanqiGame::from_fen`]
    /// use for a position given without one: the pieces of [`BanqiDeal::fixed`] that the
    /// position has not shown yet, kept in their reading order, laid on the face-down
    /// squares in reading order. For the start position this is exactly the fixed deal.
    pub fn fixed_for(position: &BanqiPosition) -> BanqiDeal {
        let mut unseen = position.unseen();
        let mut hidden = Vec::with_capacity(32);
        for sq in BanqiSquare::reading_order() {
            let piece = FIXED[sq.index()];
            let left = &mut unseen[piece.side][piece.role.index()];
            if *left > 0 {
                *left -= 1;
                hidden.push(piece);
            }
        }
        place_on_face_down(position, hidden)
    }

    /// A random deal consistent with everything `position` shows: the pieces not yet seen,
    /// shuffled with `pick` (as in [`BanqiDeal::shuffled`]) onto its face-down squares. An
    /// engine samples these to search without knowing the real deal.
    pub fn shuffled_for(position: &BanqiPosition, pick: &mut impl FnMut(u32) -> u32) -> BanqiDeal {
        let unseen = position.unseen();
        let mut hidden = Vec::with_capacity(32);
        for side in Side::ALL {
            for role in Role::ALL {
                let n = usize::from(unseen[side][role.index()]);
                hidden.extend(std::iter::repeat_n(Piece::new(side, role), n));
            }
        }
        shuffle(&mut hidden, pick);
        place_on_face_down(position, hidden)
    }

    /// Whether the pieces under `position`'s face-down squares are exactly the pieces it has
    /// not shown yet (so flipping can never make a third chariot).
    pub fn fits(&self, position: &BanqiPosition) -> bool {
        let mut under = BySide::<[u8; 7]>::default();
        for sq in position.face_down_squares() {
            let p = self.piece_at(sq);
            under[p.side][p.role.index()] += 1;
        }
        under == position.unseen()
    }

    /// The letters under `position`'s face-down squares in reading order, `-` when none is
    /// face down: the deal field of a full FEN.
    pub fn face_down_letters(&self, position: &BanqiPosition) -> String {
        let letters: String = BanqiSquare::reading_order()
            .filter(|sq| position.cell(*sq) == Cell::Covered(None))
            .map(|sq| self.piece_at(sq).char())
            .collect();
        if letters.is_empty() {
            "-".to_owned()
        } else {
            letters
        }
    }
}

/// Fisher–Yates with a caller's `pick`, tolerant of a `pick` that returns out of range.
fn shuffle<T>(items: &mut [T], pick: &mut impl FnMut(u32) -> u32) {
    for i in (1..items.len()).rev() {
        let bound = i as u32 + 1;
        let j = (pick(bound) % bound) as usize;
        items.swap(i, j);
    }
}

/// Piece letters, ignoring whitespace and `/`.
fn parse_letters(letters: &str) -> Result<Vec<Piece>, BanqiDealError> {
    letters
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '/')
        .map(|c| Piece::from_char(c).ok_or(BanqiDealError::BadLetter(c)))
        .collect()
}

/// Fails if `pieces` plus the pieces already `seen` hold more of a kind than a side owns.
fn check_counts(pieces: &[Piece], seen: &BySide<[u8; 7]>) -> Result<(), BanqiDealError> {
    let mut counts = *seen;
    for p in pieces {
        let count = &mut counts[p.side][p.role.index()];
        *count = count.saturating_add(1);
    }
    for side in Side::ALL {
        for role in Role::ALL {
            let count = counts[side][role.index()];
            if count > role.start_count() {
                return Err(BanqiDealError::TooMany {
                    piece: Piece::new(side, role),
                    count,
                });
            }
        }
    }
    Ok(())
}

/// Lays `hidden` on the face-down squares of `position` in reading order.
fn place_on_face_down(position: &BanqiPosition, hidden: Vec<Piece>) -> BanqiDeal {
    let mut partial = [None; 32];
    for (sq, piece) in position.face_down_squares().zip(hidden) {
        partial[sq.index()] = Some(piece);
    }
    complete(&partial)
}

/// Fills the squares without a piece with the material `partial` does not use, in canonical
/// order, so the result is always both whole armies.
fn complete(partial: &[Option<Piece>; 32]) -> BanqiDeal {
    let mut used = BySide::<[u8; 7]>::default();
    for p in partial.iter().flatten() {
        let n = &mut used[p.side][p.role.index()];
        *n = n.saturating_add(1);
    }
    let mut rest = canonical_pieces().filter(|p| {
        let n = &mut used[p.side][p.role.index()];
        if *n > 0 {
            *n -= 1;
            false
        } else {
            true
        }
    });
    let mut pieces = [Piece::new(Side::Red, Role::Soldier); 32];
    for (slot, given) in pieces.iter_mut().zip(partial) {
        // `rest` has exactly as many pieces as there are gaps when `partial` is within the
        // material; otherwise the leftover slots keep a soldier, which a caller never reads.
        if let Some(piece) = given.or_else(|| rest.next()) {
            *slot = piece;
        }
    }
    BanqiDeal { pieces }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(deal: &BanqiDeal) -> BySide<[u8; 7]> {
        let mut counts = BySide::<[u8; 7]>::default();
        for sq in BanqiSquare::all() {
            let p = deal.piece_at(sq);
            counts[p.side][p.role.index()] += 1;
        }
        counts
    }

    fn start_material() -> [u8; 7] {
        Role::ALL.map(Role::start_count)
    }

    #[test]
    fn fixed_deal_holds_both_whole_armies() {
        let counts = count(&BanqiDeal::fixed());
        assert_eq!(counts.red, start_material());
        assert_eq!(counts.black, start_material());
        let first = BanqiDeal::fixed().pieces().first().copied();
        assert_eq!(
            first.map(|(sq, p)| (sq.to_string(), p.char())),
            Some(("a4".to_owned(), 'K'))
        );
    }

    #[test]
    fn shuffled_deal_is_a_permutation_of_the_armies() {
        let mut x = 1u64;
        let mut pick = |n: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % u64::from(n)) as u32
        };
        for _ in 0..20 {
            let deal = BanqiDeal::shuffled(&mut pick);
            let counts = count(&deal);
            assert_eq!(counts.red, start_material());
            assert_eq!(counts.black, start_material());
        }
    }

    #[test]
    fn out_of_range_pick_does_not_panic() {
        let deal = BanqiDeal::shuffled(&mut |_| u32::MAX);
        assert_eq!(count(&deal).red, start_material());
    }

    #[test]
    fn from_letters_rejects_wrong_material() {
        let letters = BanqiDeal::fixed().letters().replacen('K', "R", 1);
        assert_eq!(
            BanqiDeal::from_letters(&letters),
            Err(BanqiDealError::TooMany {
                piece: Piece::new(Side::Red, Role::Chariot),
                count: 3
            })
        );
        assert!(matches!(
            BanqiDeal::from_letters("KpA"),
            Err(BanqiDealError::WrongLength {
                expected: 32,
                found: 3
            })
        ));
        assert_eq!(
            BanqiDeal::from_letters(&BanqiDeal::fixed().letters().replacen('K', "X", 1)),
            Err(BanqiDealError::BadLetter('X'))
        );
    }

    #[test]
    fn fixed_for_the_start_is_the_fixed_deal() {
        assert_eq!(
            BanqiDeal::fixed_for(&BanqiPosition::start()),
            BanqiDeal::fixed()
        );
    }
}
