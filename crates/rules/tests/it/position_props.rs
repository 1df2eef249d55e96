//! Properties of positions under random play, checked against a naive, independent model
//! of the rules written here from `rules.md` (no tables, no shortcuts).

use jieqi_rules::deal::Deal;
use jieqi_rules::position::{MoveList, Reach};
use jieqi_rules::setup::start_role;
use jieqi_rules::{Cell, Move, MoveOptions, Position, Role, Setup, Side, Square, Variant};
use proptest::prelude::*;

/// A small seeded generator: `pick(n)` is uniform enough in `0..n` for tests.
fn seeded_pick(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 32) % u64::from(n.max(1))) as u32
    }
}

/// The naive model's board: cells by square index, plus the rules in force.
#[derive(Clone)]
struct Naive {
    cells: Vec<Cell>,
    jieqi: bool,
    covered_advisor_may_leave_palace: bool,
}

fn coords(i: usize) -> (i32, i32) {
    ((i % 9) as i32, (i / 9) as i32)
}

fn index(file: i32, rank: i32) -> usize {
    (rank * 9 + file) as usize
}

fn square(i: usize) -> Square {
    Square::from_index(i).expect("index on the board")
}

fn in_palace(side: Side, i: usize) -> bool {
    let (f, r) = coords(i);
    (3..=5).contains(&f) && if side == Side::Red { r <= 2 } else { r >= 7 }
}

fn on_home_half(side: Side, i: usize) -> bool {
    let (_, r) = coords(i);
    if side == Side::Red { r <= 4 } else { r >= 5 }
}

impl Naive {
    fn of(pos: &Position) -> Naive {
        Naive {
            cells: Square::all().map(|sq| pos.cell(sq)).collect(),
            jieqi: pos.variant() == Variant::Jieqi,
            covered_advisor_may_leave_palace: pos.options().covered_advisor_may_leave_palace,
        }
    }

    /// Side, role it moves as, and whether covered.
    fn mover(&self, i: usize) -> Option<(Side, Role, bool)> {
        match self.cells[i] {
            Cell::Piece(p) => Some((p.side, p.role, false)),
            Cell::Covered(Some(side)) => start_role(side, square(i)).map(|r| (side, r, true)),
            _ => None,
        }
    }

    fn side_at(&self, i: usize) -> Option<Side> {
        match self.cells[i] {
            Cell::Piece(p) => Some(p.side),
            Cell::Covered(side) => side,
            Cell::Empty => None,
        }
    }

    fn pieces_between(&self, a: usize, b: usize) -> usize {
        let (fa, ra) = coords(a);
        let (fb, rb) = coords(b);
        let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
        let mut count = 0;
        let (mut f, mut r) = (fa + df, ra + dr);
        while (f, r) != (fb, rb) {
            if self.cells[index(f, r)] != Cell::Empty {
                count += 1;
            }
            f += df;
            r += dr;
        }
        count
    }

    /// Whether the piece on `from` may go to `to` by its movement rules alone.
    fn can_reach(&self, from: usize, to: usize) -> bool {
        let Some((side, role, covered)) = self.mover(from) else {
            return false;
        };
        if from == to || self.side_at(to) == Some(side) {
            return false;
        }
        let (ff, fr) = coords(from);
        let (tf, tr) = coords(to);
        let (df, dr) = (tf - ff, tr - fr);
        let empty = |f: i32, r: i32| self.cells[index(f, r)] == Cell::Empty;
        match role {
            Role::General => df.abs() + dr.abs() == 1 && in_palace(side, to),
            Role::Advisor => {
                let free = self.jieqi && (!covered || self.covered_advisor_may_leave_palace);
                df.abs() == 1 && dr.abs() == 1 && (free || in_palace(side, to))
            }
            Role::Elephant => {
                let free = self.jieqi && !covered;
                df.abs() == 2
                    && dr.abs() == 2
                    && empty(ff + df / 2, fr + dr / 2)
                    && (free || on_home_half(side, to))
            }
            Role::Horse => {
                (df.abs() == 1 && dr.abs() == 2 && empty(ff, fr + dr / 2))
                    || (df.abs() == 2 && dr.abs() == 1 && empty(ff + df / 2, fr))
            }
            Role::Chariot => (df == 0 || dr == 0) && self.pieces_between(from, to) == 0,
            Role::Cannon => {
                (df == 0 || dr == 0)
                    && self.pieces_between(from, to) == usize::from(self.cells[to] != Cell::Empty)
            }
            Role::Soldier => {
                let forward = if side == Side::Red { 1 } else { -1 };
                (df == 0 && dr == forward)
                    || (dr == 0 && df.abs() == 1 && !on_home_half(side, from))
            }
        }
    }

    /// What the piece on `from` reaches, by the movement rules alone: see `Position::reach`.
    fn reach(&self, from: usize) -> Reach {
        let Some(side) = self.side_at(from) else {
            return Reach::default();
        };
        let enemy_palace = (0..90).filter(|&i| in_palace(!side, i));
        let attacks = |point: usize| self.with_enemy_on(point, side).can_reach(from, point);
        Reach {
            free: (0..90).filter(|&to| self.can_reach(from, to)).count() as u32,
            palace: enemy_palace.filter(|&point| attacks(point)).count() as u32,
            hits: (0..90)
                .filter(|&point| self.cells[point] != Cell::Empty && attacks(point))
                .filter_map(Square::from_index)
                .collect(),
        }
    }

    fn general(&self, side: Side) -> Option<usize> {
        (0..90)
            .find(|&i| self.cells[i] == Cell::Piece(jieqi_rules::Piece::new(side, Role::General)))
    }

    /// Whether `side`'s general could be taken by `!side`, or faces the other general.
    fn general_attacked(&self, side: Side) -> bool {
        let (Some(g), Some(other)) = (self.general(side), self.general(!side)) else {
            return true;
        };
        if g % 9 == other % 9 && self.pieces_between(g, other) == 0 {
            return true;
        }
        (0..90).any(|i| self.side_at(i) == Some(!side) && self.can_reach(i, g))
    }

    /// The board with a piece of `!side` on `point` (replacing what stands there).
    fn with_enemy_on(&self, point: usize, side: Side) -> Naive {
        let mut next = self.clone();
        next.cells[point] = Cell::Piece(jieqi_rules::Piece::new(!side, Role::Chariot));
        next
    }

    /// Whether some piece of `by` could capture a piece of the other side standing on `point`.
    fn attacked_as_enemy_point(&self, point: usize, by: Side) -> bool {
        let board = self.with_enemy_on(point, by);
        (0..90).any(|i| i != point && board.side_at(i) == Some(by) && board.can_reach(i, point))
    }

    fn after(&self, from: usize, to: usize) -> Naive {
        let mut next = self.clone();
        // The mover's true type does not matter to its own general's safety: put its fake type.
        next.cells[to] = match self.mover(from) {
            Some((side, role, _)) => Cell::Piece(jieqi_rules::Piece::new(side, role)),
            None => Cell::Empty,
        };
        next.cells[from] = Cell::Empty;
        next
    }

    fn legal_moves(&self, side: Side) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in (0..90).filter(|&i| self.side_at(i) == Some(side)) {
            for to in 0..90 {
                if self.can_reach(from, to) && !self.after(from, to).general_attacked(side) {
                    moves.push(Move::new(square(from), square(to)));
                }
            }
        }
        moves.sort_unstable();
        moves
    }
}

fn start(variant: Variant, leave_palace: bool) -> Position {
    let setup = match variant {
        Variant::Jieqi => Setup::jieqi_start(),
        _ => Setup::xiangqi_start(),
    };
    let options = MoveOptions {
        covered_advisor_may_leave_palace: leave_palace,
    };
    Position::from_setup(setup, variant, options).expect("start positions are valid")
}

fn rebuilt(pos: &Position) -> Position {
    Position::from_setup(pos.to_setup(), pos.variant(), pos.options())
        .expect("a position reached by legal play is valid")
}

/// A random valid position: generals in their palaces and a handful of other pieces thrown
/// around them (covered ones on their own start points in Jieqi), each kept only if the
/// position stays valid. `None` if even the generals alone are not.
fn random_position(
    pick: &mut impl FnMut(u32) -> u32,
    variant: Variant,
    leave_palace: bool,
) -> Option<Position> {
    let options = MoveOptions {
        covered_advisor_may_leave_palace: leave_palace,
    };
    let valid = |setup: &Setup| Position::from_setup(setup.clone(), variant, options).ok();
    let mut setup = Setup::empty();
    setup.side_to_move = if pick(2) == 0 { Side::Red } else { Side::Black };
    let palace = |side: Side, k: u32| {
        let (file, rank) = (3 + (k % 3) as i32, (k / 3) as i32);
        let rank = if side == Side::Red { rank } else { 9 - rank };
        index(file, rank)
    };
    for side in Side::ALL {
        setup.board[palace(side, pick(9))] =
            Cell::Piece(jieqi_rules::Piece::new(side, Role::General));
    }
    let mut pos = valid(&setup)?;
    // Mostly the pieces that pin and check: chariots, cannons, horses.
    let roles = [
        Role::Chariot,
        Role::Cannon,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Horse,
        Role::Soldier,
        Role::Advisor,
        Role::Elephant,
    ];
    let generals: Vec<(i32, i32)> = Side::ALL
        .iter()
        .filter_map(|&s| pos.general(s))
        .map(|g| coords(g.index()))
        .collect();
    for _ in 0..3 + pick(16) {
        // Half the pieces crowd around a general, where pins and discovered checks happen.
        let i = if pick(2) == 0 {
            pick(90) as usize
        } else {
            let (f, r) = generals[pick(2) as usize];
            let (f, r) = (f + pick(5) as i32 - 2, r + pick(5) as i32 - 2);
            if !(0..9).contains(&f) || !(0..10).contains(&r) {
                continue;
            }
            index(f, r)
        };
        if setup.board[i] != Cell::Empty {
            continue;
        }
        let side = if pick(2) == 0 { Side::Red } else { Side::Black };
        setup.board[i] = if variant == Variant::Jieqi && pick(3) == 0 {
            Cell::Covered(Some(side))
        } else {
            Cell::Piece(jieqi_rules::Piece::new(
                side,
                roles[pick(roles.len() as u32) as usize],
            ))
        };
        match valid(&setup) {
            Some(next) => pos = next,
            None => setup.board[i] = Cell::Empty,
        }
    }
    Some(pos)
}

/// Every point of `pos` that is not empty, read one point at a time.
fn occupied_cells(pos: &Position) -> Vec<(Square, Cell)> {
    Square::all()
        .map(|sq| (sq, pos.cell(sq)))
        .filter(|&(_, cell)| cell != Cell::Empty)
        .collect()
}

/// `pos.legal_captures`, sorted as `legal_move_vec` is.
fn legal_captures(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_captures(&mut list);
    let mut captures = list.to_vec();
    captures.sort_unstable();
    captures
}

/// The moves of `legal` that land on a piece, by the naive model.
fn captures_of(naive: &Naive, legal: &[Move]) -> Vec<Move> {
    legal
        .iter()
        .copied()
        .filter(|mv| naive.side_at(mv.to.index()).is_some())
        .collect()
}

fn variants() -> impl Strategy<Value = (Variant, bool)> {
    prop_oneof![
        Just((Variant::Xiangqi, false)),
        Just((Variant::Jieqi, false)),
        Just((Variant::Jieqi, true)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_agrees_with_the_naive_model_and_undoes_exactly(
        seed in any::<u64>(),
        plies in 0usize..70,
        (variant, leave_palace) in variants(),
    ) {
        let mut pick = seeded_pick(seed);
        let mut pos = start(variant, leave_palace);
        let deal = Deal::shuffled(&pos.to_setup(), &mut pick);
        let mut history = Vec::new();
        for _ in 0..plies {
            let naive = Naive::of(&pos);
            let legal = pos.legal_move_vec();
            prop_assert_eq!(&legal, &naive.legal_moves(pos.side_to_move()), "{:?}", pos.to_setup());
            prop_assert_eq!(legal_captures(&pos), captures_of(&naive, &legal), "{:?}", pos.to_setup());
            prop_assert_eq!(occupied_cells(&pos), pos.occupied_cells().collect::<Vec<_>>());
            for (sq, _) in occupied_cells(&pos).into_iter().filter(|&(sq, _)| Some(sq) != pos.general(Side::Red) && Some(sq) != pos.general(Side::Black)) {
                prop_assert_eq!(pos.reach(sq), naive.reach(sq.index()), "from {} in {:?}", sq, pos.to_setup());
            }
            let attackers: Vec<_> = occupied_cells(&pos)
                .into_iter()
                .filter_map(|(sq, cell)| match cell {
                    Cell::Piece(piece) if matches!(piece.role, Role::Chariot | Role::Cannon | Role::Horse) => {
                        Some((sq, piece, naive.reach(sq.index())))
                    }
                    _ => None,
                })
                .collect();
            prop_assert_eq!(pos.attacker_reaches().collect::<Vec<_>>(), attackers, "{:?}", pos.to_setup());
            prop_assert_eq!(pos.has_legal_move(), !legal.is_empty());
            prop_assert_eq!(pos.is_check(), naive.general_attacked(pos.side_to_move()));
            prop_assert_eq!(pos.zobrist(), rebuilt(&pos).zobrist());
            prop_assert_eq!(&rebuilt(&pos), &pos);
            if legal.is_empty() {
                break;
            }
            // Now and then one ply deeper too: every reply position, so pins and discovered
            // attacks that random play rarely walks into are still met often.
            let replies: &[Move] = if pick(8) == 0 { &legal } else { &[] };
            for &reply in replies {
                let (_, undo) = pos.play_with_deal(reply, &deal);
                prop_assert_eq!(pos.legal_move_vec(), Naive::of(&pos).legal_moves(pos.side_to_move()), "after {}", reply);
                pos.undo(undo);
            }
            let mv = legal[pick(legal.len() as u32) as usize];
            let before = pos.clone();
            let (record, undo) = pos.play_with_deal(mv, &deal);
            prop_assert!(!Naive::of(&pos).general_attacked(!pos.side_to_move()), "{} left its general attacked", mv);
            prop_assert_eq!(record.mv, mv);
            prop_assert_eq!(record.reveal.is_some(), before.cell(mv.from) != pos.cell(mv.to) && matches!(before.cell(mv.from), Cell::Covered(_)));
            history.push((before, undo));
        }
        while let Some((before, undo)) = history.pop() {
            pos.undo(undo);
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.zobrist(), before.zobrist());
        }
    }

    #[test]
    fn random_positions_agree_with_the_naive_model(
        seed in any::<u64>(),
        (variant, leave_palace) in variants(),
    ) {
        let mut pick = seeded_pick(seed);
        let mut checked = 0;
        for _ in 0..40 {
            let Some(pos) = random_position(&mut pick, variant, leave_palace) else { continue };
            let naive = Naive::of(&pos);
            let legal = naive.legal_moves(pos.side_to_move());
            prop_assert_eq!(pos.legal_move_vec(), legal.clone(), "{:?}", pos.to_setup());
            prop_assert_eq!(legal_captures(&pos), captures_of(&naive, &legal), "{:?}", pos.to_setup());
            prop_assert_eq!(pos.has_legal_move(), !legal.is_empty());
            prop_assert_eq!(pos.is_check(), naive.general_attacked(pos.side_to_move()));
            for sq in Square::all() {
                let t = sq.index();
                for side in Side::ALL {
                    let expected = naive.attacked_as_enemy_point(t, side);
                    prop_assert_eq!(pos.is_attacked(sq, side), expected, "{} by {}", sq, side);
                }
                let expected: Vec<Square> = naive.side_at(t).map_or_else(Vec::new, |side| {
                    (0..90).filter(|&to| to != t && naive.with_enemy_on(to, side).can_reach(t, to)).map(square).collect()
                });
                prop_assert_eq!(pos.attacked_squares_from(sq), expected, "from {}", sq);
            }
            checked += 1;
        }
        prop_assert!(checked > 0);
    }

    #[test]
    fn legal_moves_agree_with_is_legal_and_why_illegal_on_every_pair(
        seed in any::<u64>(),
        plies in 0usize..50,
        (variant, leave_palace) in variants(),
    ) {
        let mut pick = seeded_pick(seed);
        let mut pos = start(variant, leave_palace);
        let deal = Deal::shuffled(&pos.to_setup(), &mut pick);
        for _ in 0..plies {
            let legal = pos.legal_move_vec();
            if legal.is_empty() {
                break;
            }
            let mv = legal[pick(legal.len() as u32) as usize];
            pos.play_with_deal(mv, &deal);
        }
        let legal = pos.legal_move_vec();
        for from in Square::all() {
            for to in Square::all() {
                let mv = Move::new(from, to);
                let listed = legal.binary_search(&mv).is_ok();
                prop_assert_eq!(pos.is_legal(mv), listed, "{}", mv);
                let why = pos.why_illegal(mv);
                prop_assert_eq!(why.is_none(), listed, "{} {:?}", mv, why);
            }
        }
    }
}
