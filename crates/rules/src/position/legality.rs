//! Attack tests, check, and the cheap legality filter of generated moves.
//!
//! Legality is decided per node, not per move: before filtering, [`Position::safety`] looks
//! once along the four lines from the mover's general and at its four diagonal neighbours
//! (the horse legs and elephant eyes through which it can be reached). A move that neither
//! starts nor ends on a point found dangerous, made by a piece other than the general while
//! not in check, cannot expose the general, and is legal without further work. Only the
//! other moves are tried on a scratch board with a targeted attack test from the general.

use crate::attacks::{
    ADVISOR_FREE, ADVISOR_PALACE, ELEPHANT_FREE, ELEPHANT_HOME, GENERAL_MOVES, HORSE_ATTACKERS,
    HORSE_MOVES, Jumps, RAY_MASKS, RAYS, SOLDIER_ATTACKERS, SOLDIER_MOVES,
};
use crate::types::{Piece, Side, Square, Variant};

use super::Position;
use super::board::{
    ADVISOR, ADVISOR_FREE as ADVISOR_FREE_KIND, CANNON, CHARIOT, ELEPHANT,
    ELEPHANT_FREE as ELEPHANT_FREE_KIND, GENERAL, HORSE, KIND, SOLDIER, code_side, kind_role,
    side_bit,
};
use super::movelist::SQUARES;

/// What one look around the mover's general found: whether it is in check, and the points
/// a move must not start or end on to be legal without a full test.
#[derive(Clone, Copy, Debug)]
pub(super) struct Safety {
    pub(super) in_check: bool,
    pub(super) danger: u128,
}

impl Safety {
    /// Whether the moves of a piece of kind `kind` on `from` need a full test only when
    /// they end on a dangerous point.
    #[inline]
    pub(super) fn piece_is_free(&self, kind: u8, from: usize) -> bool {
        !self.in_check && kind != GENERAL && self.danger & (1u128 << from) == 0
    }

    /// Whether a move of a piece of kind `kind` from `from` to `to` is legal without a full
    /// test (it is pseudo-legal by assumption).
    #[inline]
    pub(super) fn is_safe(&self, kind: u8, from: usize, to: usize) -> bool {
        !self.in_check && kind != GENERAL && self.danger & ((1u128 << from) | (1u128 << to)) == 0
    }
}

/// Whether a general on `g` is attacked by `them` on board `b`. Only the pieces that can
/// ever reach a general are looked at: chariots, cannons, horses, soldiers, the facing
/// general, and in Jieqi face-up advisors and elephants (covered or Xiangqi ones never leave
/// their own side).
#[inline]
pub(super) fn general_attacked_on(
    b: &[u8; Square::COUNT],
    g: usize,
    them: Side,
    jieqi: bool,
) -> bool {
    let t = side_bit(them);
    let chariot = CHARIOT | t;
    let cannon = CANNON | t;
    let general = GENERAL | t;
    for (d, ray) in RAYS[g].iter().enumerate() {
        let mut squares = ray.squares().iter();
        let mut first = 0;
        for &s in squares.by_ref() {
            let c = b[usize::from(s)];
            if c != 0 {
                first = c;
                break;
            }
        }
        if first == 0 {
            continue;
        }
        if first == chariot || (d < 2 && first == general) {
            return true;
        }
        for &s in squares {
            let c = b[usize::from(s)];
            if c != 0 {
                if c == cannon {
                    return true;
                }
                break;
            }
        }
    }
    let horse = HORSE | t;
    for (from, leg) in HORSE_ATTACKERS[g].pairs() {
        if b[from] == horse && b[leg] == 0 {
            return true;
        }
    }
    let soldier = SOLDIER | t;
    for &s in SOLDIER_ATTACKERS[them.index()][g].targets() {
        if b[usize::from(s)] == soldier {
            return true;
        }
    }
    if jieqi {
        let advisor = ADVISOR_FREE_KIND | t;
        for &s in ADVISOR_FREE[g].targets() {
            if b[usize::from(s)] == advisor {
                return true;
            }
        }
        let elephant = ELEPHANT_FREE_KIND | t;
        for (from, eye) in ELEPHANT_FREE[g].pairs() {
            if b[from] == elephant && b[eye] == 0 {
                return true;
            }
        }
    }
    false
}

impl Position {
    /// Whether the position is Jieqi (face-up advisors and elephants roam free).
    #[inline]
    pub(super) fn jieqi(&self) -> bool {
        self.variant == Variant::Jieqi
    }

    /// Whether `side`'s general is attacked.
    #[inline]
    pub(super) fn general_attacked(&self, side: Side) -> bool {
        general_attacked_on(
            &self.board,
            usize::from(self.generals[side.index()]),
            !side,
            self.jieqi(),
        )
    }

    /// Whether the two generals stand on one file with nothing between them.
    pub(super) fn generals_face(&self) -> bool {
        generals_face_on(
            &self.board,
            usize::from(self.generals[0]),
            usize::from(self.generals[1]),
        )
    }

    /// Whether the side to move's general is attacked (by covered pieces as their fake type).
    ///
    /// ```
    /// use jieqi_rules::{Cell, Piece, Role, Setup, Side, Variant, position::{MoveOptions, Position}};
    ///
    /// let mut setup = Setup::empty();
    /// setup.board["e0".parse::<jieqi_rules::Square>().unwrap().index()] = Cell::Piece(Piece::new(Side::Red, Role::General));
    /// setup.board["d9".parse::<jieqi_rules::Square>().unwrap().index()] = Cell::Piece(Piece::new(Side::Black, Role::General));
    /// setup.board["e5".parse::<jieqi_rules::Square>().unwrap().index()] = Cell::Piece(Piece::new(Side::Black, Role::Chariot));
    /// let pos = Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default()).unwrap();
    /// assert!(pos.is_check());
    /// ```
    pub fn is_check(&self) -> bool {
        self.general_attacked(self.side_to_move)
    }

    /// Looks once around the side to move's general (see the module documentation).
    #[inline]
    pub(super) fn safety(&self) -> Safety {
        let us = self.side_to_move;
        let them = !us;
        let t = side_bit(them);
        let g = usize::from(self.generals[us.index()]);
        let b = &self.board;
        let chariot = CHARIOT | t;
        let cannon = CANNON | t;
        let general = GENERAL | t;
        let mut in_check = false;
        let mut danger = 0u128;
        for (d, ray) in RAYS[g].iter().enumerate() {
            let mut seen = 0;
            let mut dangerous = false;
            for &s in ray.squares() {
                let c = b[usize::from(s)];
                if c == 0 {
                    continue;
                }
                seen += 1;
                let line_piece = c == chariot || (d < 2 && c == general);
                match seen {
                    1 => {
                        in_check |= line_piece;
                        // A piece put between would screen this cannon.
                        dangerous |= c == cannon;
                    }
                    2 => {
                        // The first piece is pinned to this chariot or general.
                        dangerous |= line_piece;
                        in_check |= c == cannon;
                    }
                    _ => {
                        // Moving one of the two screens away would open this cannon.
                        dangerous |= c == cannon;
                        break;
                    }
                }
            }
            if dangerous {
                danger |= RAY_MASKS[g][d];
            }
        }
        let horse = HORSE | t;
        for (from, leg) in HORSE_ATTACKERS[g].pairs() {
            if b[from] == horse {
                if b[leg] == 0 {
                    in_check = true;
                } else {
                    danger |= 1u128 << leg;
                }
            }
        }
        let soldier = SOLDIER | t;
        for &s in SOLDIER_ATTACKERS[them.index()][g].targets() {
            in_check |= b[usize::from(s)] == soldier;
        }
        if self.jieqi() {
            let advisor = ADVISOR_FREE_KIND | t;
            for &s in ADVISOR_FREE[g].targets() {
                in_check |= b[usize::from(s)] == advisor;
            }
            let elephant = ELEPHANT_FREE_KIND | t;
            for (from, eye) in ELEPHANT_FREE[g].pairs() {
                if b[from] == elephant {
                    if b[eye] == 0 {
                        in_check = true;
                    } else {
                        danger |= 1u128 << eye;
                    }
                }
            }
        }
        Safety { in_check, danger }
    }

    /// Whether the pseudo-legal move `from`-`to` leaves the mover's general safe, tried on
    /// the scratch board `b` (a copy of the board, restored before returning).
    #[inline]
    pub(super) fn legal_on(&self, b: &mut [u8; Square::COUNT], from: usize, to: usize) -> bool {
        self.safe_for_on(b, from, to, self.side_to_move)
    }

    /// Whether moving `side`'s piece from `from` to `to` on the scratch board `b` (restored
    /// before returning) leaves `side`'s general safe, whoever is to move: the legality of a
    /// capture that `side` threatens, or of a recapture.
    #[inline]
    pub(super) fn safe_for_on(
        &self,
        b: &mut [u8; Square::COUNT],
        from: usize,
        to: usize,
        side: Side,
    ) -> bool {
        let moved = b[from];
        let captured = b[to];
        b[from] = 0;
        b[to] = moved;
        let g = if moved & KIND == GENERAL {
            to
        } else {
            usize::from(self.generals[side.index()])
        };
        let attacked = general_attacked_on(b, g, !side, self.jieqi());
        b[from] = moved;
        b[to] = captured;
        !attacked
    }

    /// Whether `sq` is attacked by `by`: some piece of `by` could capture there if an enemy
    /// piece stood on it (whoever actually stands there), as the board is. Covered pieces
    /// attack as their fake type, with that type's limits. The flying general counts only
    /// against the other general: `by`'s general attacks `sq` along an open file only if
    /// the opposing general stands on `sq`.
    ///
    /// ```
    /// use jieqi_rules::{Side, position::Position};
    ///
    /// let pos = Position::xiangqi_start();
    /// // Red's cannon on h2 attacks Black's horse on h9 over the screen on h7.
    /// assert!(pos.is_attacked("h9".parse().unwrap(), Side::Red));
    /// assert!(!pos.is_attacked("e5".parse().unwrap(), Side::Red));
    /// ```
    pub fn is_attacked(&self, sq: Square, by: Side) -> bool {
        let target = sq.index();
        let b = &self.board;
        let t = side_bit(by);
        let other_general = GENERAL | side_bit(!by);
        for (d, ray) in RAYS[target].iter().enumerate() {
            let mut squares = ray.squares().iter();
            let mut first = 0;
            for &s in squares.by_ref() {
                let c = b[usize::from(s)];
                if c != 0 {
                    first = c;
                    break;
                }
            }
            if first == CHARIOT | t || (d < 2 && first == GENERAL | t && b[target] == other_general)
            {
                return true;
            }
            if first == 0 {
                continue;
            }
            for &s in squares {
                let c = b[usize::from(s)];
                if c != 0 {
                    if c == CANNON | t {
                        return true;
                    }
                    break;
                }
            }
        }
        HORSE_ATTACKERS[target]
            .pairs()
            .any(|(from, leg)| b[from] == HORSE | t && b[leg] == 0)
            || self.attacked_by_soldier(sq, by)
            || ADVISOR_FREE[target]
                .targets()
                .iter()
                .any(|&s| b[usize::from(s)] == ADVISOR_FREE_KIND | t)
            || ADVISOR_PALACE[target]
                .targets()
                .iter()
                .any(|&s| b[usize::from(s)] == ADVISOR | t)
            || ELEPHANT_FREE[target]
                .pairs()
                .any(|(from, eye)| b[from] == ELEPHANT_FREE_KIND | t && b[eye] == 0)
            || ELEPHANT_HOME[by.index()][target]
                .pairs()
                .any(|(from, eye)| b[from] == ELEPHANT | t && b[eye] == 0)
            || GENERAL_MOVES[target]
                .targets()
                .iter()
                .any(|&s| b[usize::from(s)] == GENERAL | t)
    }

    /// Whether a soldier of `by` attacks `sq`: from the point behind it (as `by` advances),
    /// or beside it once across the river. Part of [`Position::is_attacked`], and on its own
    /// what an evaluation asks to tell a piece threatened by the cheapest attacker.
    ///
    /// ```
    /// use jieqi_rules::{Side, position::Position};
    ///
    /// let pos = Position::xiangqi_start();
    /// // Red's soldier on e3 attacks e4 ahead, not d3 beside it on its own side of the river.
    /// assert!(pos.attacked_by_soldier("e4".parse().unwrap(), Side::Red));
    /// assert!(!pos.attacked_by_soldier("d3".parse().unwrap(), Side::Red));
    /// ```
    #[inline]
    pub fn attacked_by_soldier(&self, sq: Square, by: Side) -> bool {
        let soldier = SOLDIER | side_bit(by);
        SOLDIER_ATTACKERS[by.index()][sq.index()]
            .targets()
            .iter()
            .any(|&s| self.board[usize::from(s)] == soldier)
    }

    /// The points the piece on `sq` attacks, in index order: every point where it could
    /// capture an enemy piece if one stood there, as the board is, whether the point is
    /// empty or holds a piece of either side (a point of its own side is one it protects).
    /// Whether the capture would expose its own general is not considered. Covered pieces
    /// attack as their fake type. Empty for an empty point. A general attacks the opposing
    /// general when they face each other.
    ///
    /// ```
    /// use jieqi_rules::position::Position;
    ///
    /// let pos = Position::xiangqi_start();
    /// let horse: Vec<String> = pos
    ///     .attacked_squares_from("b0".parse().unwrap())
    ///     .iter()
    ///     .map(|sq| sq.to_string())
    ///     .collect();
    /// // d1 is out of reach: the elephant on c0 blocks the horse's leg.
    /// assert_eq!(horse, ["a2", "c2"]);
    /// ```
    pub fn attacked_squares_from(&self, sq: Square) -> Vec<Square> {
        let mut mask = self.attack_mask(sq.index());
        let mut points = Vec::with_capacity(mask.count_ones() as usize);
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            points.extend(SQUARES.get(i).copied());
        }
        points
    }

    /// How far the piece on `sq` reaches, as an evaluation weighs activity: the points it
    /// could move to, capturing or not, as the board is (its own general's safety aside), and
    /// the points of the other side's palace it attacks, whatever stands there (pressure on
    /// the general), and the occupied points it attacks, of either side (what it threatens
    /// and what it defends). Covered pieces reach as their fake type. Zero for an empty
    /// point.
    ///
    /// ```
    /// use jieqi_rules::position::Position;
    ///
    /// let pos = Position::xiangqi_start();
    /// let points = |reach: jieqi_rules::position::Reach| {
    ///     reach.hits.iter().map(|sq| sq.to_string()).collect::<Vec<_>>()
    /// };
    /// // The chariot on a0 can only step up to a1 and a2: the soldier on a3 is its own, and
    /// // it defends it and the horse on b0.
    /// let chariot = pos.reach("a0".parse().unwrap());
    /// assert_eq!((chariot.free, chariot.palace), (2, 0));
    /// assert_eq!(points(chariot), ["b0", "a3"]);
    /// // The cannon on b2 slides to eleven points and can take the horse on b9.
    /// let cannon = pos.reach("b2".parse().unwrap());
    /// assert_eq!((cannon.free, cannon.palace), (12, 0));
    /// assert_eq!(points(cannon), ["b9"]);
    /// ```
    #[inline]
    pub fn reach(&self, sq: Square) -> Reach {
        let from = sq.index();
        let code = self.board[from];
        match code & KIND {
            0 => Reach::default(),
            CHARIOT | CANNON | HORSE => self.reach_of(from, code),
            _ => {
                let side = code_side(code).index();
                let attacks = self.attack_mask(from);
                Reach {
                    free: (attacks & !self.occupied[side]).count_ones(),
                    palace: (attacks & PALACES[1 - side]).count_ones(),
                    hits: Points(attacks & (self.occupied[0] | self.occupied[1])),
                }
            }
        }
    }

    /// Every face-up chariot, cannon and horse with its point and [`Position::reach`], in square order:
    /// what an evaluation of activity reads at every leaf, so it walks the occupied points
    /// once and the lines from each of these pieces once, counting as it goes.
    ///
    /// ```
    /// use jieqi_rules::position::Position;
    ///
    /// let pos = Position::xiangqi_start();
    /// // Two chariots, two cannons and two horses a side.
    /// assert_eq!(pos.attacker_reaches().count(), 12);
    /// ```
    pub fn attacker_reaches(&self) -> impl Iterator<Item = (Square, Piece, Reach)> + '_ {
        let mut left = (self.occupied[0] | self.occupied[1]) & !self.covered;
        std::iter::from_fn(move || {
            while left != 0 {
                let from = left.trailing_zeros() as usize;
                left &= left - 1;
                let code = self.board[from];
                let kind = code & KIND;
                if matches!(kind, CHARIOT | CANNON | HORSE) {
                    let piece = Piece::new(code_side(code), kind_role(kind));
                    return Some((SQUARES[from], piece, self.reach_of(from, code)));
                }
            }
            None
        })
    }

    /// [`Position::reach`] of the chariot, cannon or horse `code` on `from`, counted along
    /// its lines without building masks.
    #[inline]
    fn reach_of(&self, from: usize, code: u8) -> Reach {
        let b = &self.board;
        let enemy = side_bit(!code_side(code));
        let palace = (!code_side(code)).index() as u8 + 1;
        let in_palace = |s: usize| u32::from(IN_PALACE[s] == palace);
        let mut reach = Reach::default();
        match code & KIND {
            CHARIOT => {
                for ray in &RAYS[from] {
                    for &s in ray.squares() {
                        let s = usize::from(s);
                        let c = b[s];
                        reach.palace += in_palace(s);
                        if c != 0 {
                            reach.free += u32::from(c & enemy != 0);
                            reach.hits.0 |= 1 << s;
                            break;
                        }
                        reach.free += 1;
                    }
                }
            }
            CANNON => {
                // A cannon moves where it does not attack (up to a screen) and attacks only
                // past one.
                for ray in &RAYS[from] {
                    let mut screened = false;
                    for &s in ray.squares() {
                        let s = usize::from(s);
                        let c = b[s];
                        if screened {
                            reach.palace += in_palace(s);
                            if c != 0 {
                                reach.free += u32::from(c & enemy != 0);
                                reach.hits.0 |= 1 << s;
                                break;
                            }
                        } else if c != 0 {
                            screened = true;
                        } else {
                            reach.free += 1;
                        }
                    }
                }
            }
            _ => {
                for (to, leg) in HORSE_MOVES[from].pairs() {
                    if b[leg] == 0 {
                        reach.palace += in_palace(to);
                        reach.free += u32::from(b[to] == 0 || b[to] & enemy != 0);
                        if b[to] != 0 {
                            reach.hits.0 |= 1 << to;
                        }
                    }
                }
            }
        }
        reach
    }

    /// [`Position::attacked_squares_from`] as a bit mask (bit = square index), without
    /// allocating: the hot path of chase detection.
    pub(crate) fn attack_mask(&self, from: usize) -> u128 {
        let b = &self.board;
        let code = b[from];
        if code == 0 {
            return 0;
        }
        let side = code_side(code);
        let steps = |jumps: &Jumps| jumps.targets().iter().fold(0u128, |m, &t| m | 1u128 << t);
        let blockable = |jumps: &Jumps| {
            jumps
                .pairs()
                .filter(|&(_, via)| b[via] == 0)
                .fold(0u128, |m, (t, _)| m | 1u128 << t)
        };
        match code & KIND {
            GENERAL => {
                let mut mask = steps(&GENERAL_MOVES[from]);
                let (red, black) = (usize::from(self.generals[0]), usize::from(self.generals[1]));
                if generals_face_on(b, red, black) {
                    mask |= 1u128 << self.generals[(!side).index()];
                }
                mask
            }
            ADVISOR => steps(&ADVISOR_PALACE[from]),
            ADVISOR_FREE_KIND => steps(&ADVISOR_FREE[from]),
            ELEPHANT => blockable(&ELEPHANT_HOME[side.index()][from]),
            ELEPHANT_FREE_KIND => blockable(&ELEPHANT_FREE[from]),
            HORSE => blockable(&HORSE_MOVES[from]),
            SOLDIER => steps(&SOLDIER_MOVES[side.index()][from]),
            CHARIOT => {
                let mut mask = 0u128;
                for ray in &RAYS[from] {
                    for &s in ray.squares() {
                        mask |= 1u128 << s;
                        if b[usize::from(s)] != 0 {
                            break;
                        }
                    }
                }
                mask
            }
            CANNON => {
                let mut mask = 0u128;
                for ray in &RAYS[from] {
                    let mut screened = false;
                    for &s in ray.squares() {
                        let occupied = b[usize::from(s)] != 0;
                        if screened {
                            mask |= 1u128 << s;
                            if occupied {
                                break;
                            }
                        } else if occupied {
                            screened = true;
                        }
                    }
                }
                mask
            }
            _ => 0,
        }
    }
}

/// What a piece reaches: see [`Position::reach`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Points it could move to, capturing or not.
    pub free: u32,
    /// Points of the other side's palace it attacks.
    pub palace: u32,
    /// The occupied points it attacks: enemy pieces it threatens and its own it defends.
    pub hits: Points,
}

/// A set of points of the board.
///
/// ```
/// use jieqi_rules::{Square, position::Points};
///
/// let points: Points = ["e0", "a9"].iter().map(|p| p.parse::<Square>().unwrap()).collect();
/// assert!(points.contains("a9".parse().unwrap()));
/// assert!(!points.contains("e1".parse().unwrap()));
/// assert_eq!(points.len(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points(u128);

impl FromIterator<Square> for Points {
    fn from_iter<I: IntoIterator<Item = Square>>(points: I) -> Points {
        Points(points.into_iter().fold(0, |set, sq| set | 1 << sq.index()))
    }
}

impl Points {
    /// The set of no point.
    pub const EMPTY: Points = Points(0);

    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.0 & 1 << sq.index() != 0
    }

    /// The points in either set.
    #[inline]
    pub fn union(self, other: Points) -> Points {
        Points(self.0 | other.0)
    }

    /// How many points the set holds.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no point.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The points in the set, in index order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut left = self.0;
        std::iter::from_fn(move || {
            if left == 0 {
                return None;
            }
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            Some(SQUARES[i])
        })
    }
}

/// Which side's palace each point is in ([`Square::in_palace`]): that side's
/// [`Side::index`] plus one, or 0 outside both palaces.
const IN_PALACE: [u8; Square::COUNT] = {
    let mut table = [0u8; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        if let Some(sq) = Square::from_index(i) {
            if sq.in_palace(Side::Red) {
                table[i] = Side::Red.index() as u8 + 1;
            } else if sq.in_palace(Side::Black) {
                table[i] = Side::Black.index() as u8 + 1;
            }
        }
        i += 1;
    }
    table
};
/// The points of each side's palace (bit = square index), by [`Side::index`].
const PALACES: [u128; 2] = {
    let mut masks = [0u128; 2];
    let mut i = 0;
    while i < Square::COUNT {
        if IN_PALACE[i] != 0 {
            masks[IN_PALACE[i] as usize - 1] |= 1u128 << i;
        }
        i += 1;
    }
    masks
};

/// Whether generals on `a` and `b` face each other on an open file of board `board`.
pub(super) fn generals_face_on(board: &[u8; Square::COUNT], a: usize, b: usize) -> bool {
    if a % 9 != b % 9 {
        return false;
    }
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    (low + 9..high).step_by(9).all(|s| board[s] == 0)
}
