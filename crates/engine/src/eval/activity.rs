//! Activity: what a piece's point alone does not say. The tables value a horse on a good
//! point even when its legs are blocked and a chariot on an open file even when its own pieces
//! wall it in; this part counts where each chariot, cannon and horse can actually go
//! ([`Position::attacker_reaches`]) and how much of the enemy palace they bear on. It reads
//! the board afresh at each evaluation (a piece's reach changes when any piece on its lines
//! moves), so it is kept small: one walk along the lines of each face-up attacker, and the
//! search caches it by board and skips it where the rest of the value already decides.
//!
//! It counts only once no covered piece is left: in Xiangqi always, in Jieqi from the last
//! reveal on. Measured in self-play (300 games a variant, 30,000 nodes a move, equal nodes):
//! +75 Elo in Xiangqi, +1 in Jieqi, where covered pieces stand on most lines and what they
//! turn out to be outweighs where the face-up pieces can go; at the quarter of the speed the
//! term costs, it lost in Jieqi.
//!
//! The weights are set by hand. `examples/texel.rs` fits them with the tables (the term is
//! linear in them but for its clamp): a fit on 3,000 Xiangqi and 3,000 Jieqi games of 4,000
//! nodes a move lowered the held-out error (0.1040 to 0.1014) but not the games: -8 Elo (-44,
//! +28) in Xiangqi over 300 self-play games and +3 (-24, +31) in Jieqi over 600, at 30,000
//! nodes a move, so neither its weights nor its tables were kept.
//!
//! It also counts a cannon facing the enemy general down an empty file (the "empty-headed
//! cannon", [`EMPTY_HEADED_CANNON`], opening only), which the counts above miss: such a
//! cannon attacks no palace point until a piece comes between. Against the term without it,
//! at 30,000 nodes a move: +24 Elo (+9, +40) in Xiangqi over 1,500 games, +5 (-15, +24) in
//! Jieqi over 1,200 (where, like the rest of the term, it counts only once every piece is face
//! up), at about 2 % of the speed. The tuner fits its weight with the others. A neighbour of
//! it did not gain: palace pressure weighted up by the defender's lost advisors and
//! elephants, -12 (-47, +24) in Xiangqi over 300.
//!
//! Last, it counts what the side to move stands to lose to threats ([`Threats`]): a chariot,
//! cannon or horse attacked and undefended, or attacked by a cheaper piece. The quiescence
//! search stands pat on the side to move's value without asking what the other side
//! threatens; a fork costs a piece all the same. The walk above already finds what each
//! officer attacks, so this costs about 8 % of the speed (30.6 against 28.1 ms a move at
//! equal nodes). Against the term without it, at 30,000 nodes a move: +42 Elo (+18, +67)
//! in Xiangqi over 600 games (+66 and +20 on two seeds), +6 (-21, +33) in Jieqi over 600,
//! where it counts only once every piece is face up. Versions that asked the rules for every
//! attacker of each point: counting every piece threatened (soldiers, advisors and
//! elephants too), -9 (-45, +27) in Xiangqi over 300 at a third of the speed; chariots,
//! cannons and horses only, +41 (+6, +77) over 300 at a sixth. Weights of 3 and 11
//! sixteenths instead of 1 and 8: -19 (-54, +17) over 300, on the openings where these
//! scored +66.

use jieqi_rules::position::{Points, Position};
use jieqi_rules::{Cell, Piece, Role, Side, Square};

use super::tables::{OPENING_PHASE, VALUES};

/// Opening and endgame value of each step a chariot can make, around `CHARIOT_USUAL` steps.
pub(crate) const CHARIOT_STEP: (i32, i32) = (5, 7);
pub(crate) const CHARIOT_USUAL: i32 = 8;
/// Opening and endgame value of each step a cannon can make, around `CANNON_USUAL` steps.
pub(crate) const CANNON_STEP: (i32, i32) = (3, 2);
pub(crate) const CANNON_USUAL: i32 = 7;
/// Opening and endgame value of a horse with each number of moves (at most eight): a horse
/// hobbled at the legs is worth far less than its material, one in the open a little more.
pub(crate) const HORSE_MOVES: [(i32, i32); 9] = [
    (-60, -70),
    (-30, -35),
    (-12, -14),
    (0, 0),
    (8, 10),
    (14, 18),
    (18, 23),
    (21, 27),
    (23, 30),
];
/// The most the activity term may add or take away: it is held within this so that a value
/// without it, this far past a bound, is past it with it too (the search's lazy evaluation).
pub(crate) const ACTIVITY_BOUND: i32 = 200;
/// What each attacked point of the enemy palace weighs, by attacker.
pub(crate) const PRESSURE_CHARIOT: i32 = 8;
pub(crate) const PRESSURE_CANNON: i32 = 8;
pub(crate) const PRESSURE_HORSE: i32 = 10;
/// What a cannon facing the enemy general down an empty file is worth in the opening; it
/// fades to nothing by the endgame, where the general has room and few pieces to fear it.
pub(crate) const EMPTY_HEADED_CANNON: i32 = 60;
/// What the side to move stands to lose to threats counts in sixteenths of the material:
/// of the dearest piece threatened, little (the move saves it); of the others, half (a fork
/// saves only one).
pub(crate) const THREAT_DEAREST: i32 = 1;
pub(crate) const THREAT_OTHERS: i32 = 8;
/// Pressure on a palace counts by how many pieces bear on it, in quarters: one piece alone
/// rarely mates, three together often do.
pub(crate) const PRESSURE_SCALE: [i32; 5] = [0, 2, 4, 6, 7];

/// The activity of both sides' face-up attackers, for `us`, blended by `phase` (out of
/// [`OPENING_PHASE`]) between its opening and endgame weights.
pub(crate) fn activity(pos: &Position, us: Side, phase: i32) -> i32 {
    let mut opening = [0i32; 2];
    let mut endgame = [0i32; 2];
    let mut pressure = [0i32; 2];
    let mut attackers = [0usize; 2];
    let mut threats = Threats::new();
    for (sq, piece, reach) in pos.attacker_reaches() {
        threats.add(sq, piece, reach.hits);
        let side = piece.side.index();
        let free = reach.free as i32;
        let palace = reach.palace as i32;
        // A chariot or cannon gains or loses a step's value for each point above or below
        // the usual count.
        let line = |(o, e): (i32, i32), usual: i32| (o * (free - usual), e * (free - usual));
        let ((o, e), weight) = match piece.role {
            Role::Chariot => (line(CHARIOT_STEP, CHARIOT_USUAL), PRESSURE_CHARIOT),
            Role::Cannon => (line(CANNON_STEP, CANNON_USUAL), PRESSURE_CANNON),
            _ => (HORSE_MOVES[(free as usize).min(8)], PRESSURE_HORSE),
        };
        opening[side] += o;
        endgame[side] += e;
        if palace > 0 {
            pressure[side] += palace * weight;
            attackers[side] += 1;
        }
    }
    let facing = [Side::Red, Side::Black].map(|side| {
        if empty_headed_cannon(pos, side) {
            EMPTY_HEADED_CANNON
        } else {
            0
        }
    });
    let score = |side: usize| {
        (opening[side] * phase + endgame[side] * (OPENING_PHASE - phase)) / OPENING_PHASE
            + pressure[side] * PRESSURE_SCALE[attackers[side].min(4)] / 4
            + facing[side] * phase / OPENING_PHASE
    };
    let mover = pos.side_to_move();
    let losses = threats.losses(pos, mover);
    let threatened = losses.dearest * THREAT_DEAREST / 16 + losses.others * THREAT_OTHERS / 16;
    let threatened = if us == mover { threatened } else { -threatened };
    let us = us.index();
    (score(us) - score(1 - us) - threatened).clamp(-ACTIVITY_BOUND, ACTIVITY_BOUND)
}

/// What the side to move stands to lose to the threats against its chariots, cannons and
/// horses (see [`Threats::losses`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Losses {
    /// The dearest loss threatened: the move saves it, unless the threat is a check's too.
    pub(crate) dearest: i32,
    /// All the others together: a fork saves only one piece.
    pub(crate) others: i32,
}

/// The chariots, cannons and horses of both sides, and the occupied points each kind
/// attacks ([`Reach::hits`](jieqi_rules::position::Reach)): read along the lines the
/// activity walks anyway, so telling which officers stand to be lost costs little more.
pub(crate) struct Threats {
    /// Officers by side, at most [`Threats::MAX`] each (two of each kind in any real game).
    officers: [[(Square, Role); Threats::MAX]; 2],
    count: [usize; 2],
    /// Points attacked by each side's chariots, cannons and horses, by [`Threats::kind`].
    hits: [[Points; 3]; 2],
}

impl Threats {
    const MAX: usize = 8;

    pub(crate) fn new() -> Threats {
        let nowhere = (
            Square::from_coords(0, 0).expect("a0 is on the board"),
            Role::Soldier,
        );
        Threats {
            officers: [[nowhere; Threats::MAX]; 2],
            count: [0; 2],
            hits: [[Points::EMPTY; 3]; 2],
        }
    }

    fn kind(role: Role) -> usize {
        match role {
            Role::Chariot => 0,
            Role::Cannon => 1,
            _ => 2,
        }
    }

    /// Counts the chariot, cannon or horse `piece` on `sq`, attacking `hits`.
    pub(crate) fn add(&mut self, sq: Square, piece: Piece, hits: Points) {
        let side = piece.side.index();
        let kind = Threats::kind(piece.role);
        self.hits[side][kind] = self.hits[side][kind].union(hits);
        if self.count[side] < Threats::MAX {
            self.officers[side][self.count[side]] = (sq, piece.role);
            self.count[side] += 1;
        }
    }

    /// What `mover` stands to lose: an officer attacked and undefended, its value; one
    /// attacked by a cheaper piece (a soldier; a horse or cannon against a chariot), its value
    /// less the attacker's, which is what the exchange costs. Only soldiers and the officers
    /// are looked at as attackers: an advisor, elephant or general rarely threatens one.
    pub(crate) fn losses(&self, pos: &Position, mover: Side) -> Losses {
        let (ours, theirs) = (mover.index(), (!mover).index());
        let mut losses = Losses::default();
        for &(sq, role) in &self.officers[ours][..self.count[ours]] {
            let by = &self.hits[theirs];
            let cheapest = if pos.attacked_by_soldier(sq, !mover) {
                Role::Soldier
            } else if by[Threats::kind(Role::Horse)].contains(sq) {
                Role::Horse
            } else if by[Threats::kind(Role::Cannon)].contains(sq) {
                Role::Cannon
            } else if by[Threats::kind(Role::Chariot)].contains(sq) {
                Role::Chariot
            } else {
                continue;
            };
            let value = VALUES[role.index()];
            let defended =
                self.hits[ours].iter().any(|hits| hits.contains(sq)) || pos.is_attacked(sq, mover);
            let loss = if defended {
                (value - VALUES[cheapest.index()]).max(0)
            } else {
                value
            };
            losses.others += loss.min(losses.dearest);
            losses.dearest = losses.dearest.max(loss);
        }
        losses
    }
}

/// Whether a cannon of `side` faces the enemy general down its file with nothing between
/// (the "empty-headed cannon"): no piece can come between them without becoming the cannon's
/// screen and giving check, so the file's middle stays shut to the defender and the general's
/// front is open to a chariot or horse joining the attack.
pub(crate) fn empty_headed_cannon(pos: &Position, side: Side) -> bool {
    let Some(general) = pos.general(!side) else {
        return false;
    };
    let file = i32::from(general.file().index());
    // From the general towards `side`'s home ranks (Red's home is rank 0).
    let step = if side == Side::Red { -1 } else { 1 };
    let mut rank = i32::from(general.rank().index()) + step;
    while let Some(sq) = Square::from_coords(file, rank) {
        match pos.cell(sq) {
            Cell::Empty => rank += step,
            Cell::Piece(piece) => return piece == Piece::new(side, Role::Cannon),
            Cell::Covered(_) => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::position::MoveOptions;
    use jieqi_rules::{Cell, Piece, Setup, Square, Variant};

    /// A Xiangqi position with Red to move: the two generals (e0, d9) and `pieces`.
    fn with_generals(pieces: &[(&str, Side, Role)]) -> Position {
        let mut setup = Setup::empty();
        let generals = [
            ("e0", Side::Red, Role::General),
            ("d9", Side::Black, Role::General),
        ];
        for &(square, side, role) in generals.iter().chain(pieces) {
            let square: Square = square.parse().expect("a square");
            setup.board[square.index()] = Cell::Piece(Piece::new(side, role));
        }
        Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default())
            .expect("valid position")
    }

    #[test]
    fn a_horse_hobbled_at_its_legs_is_worth_less_than_a_free_one() {
        let free = with_generals(&[("e4", Side::Red, Role::Horse)]);
        let hobbled = with_generals(&[
            ("e4", Side::Red, Role::Horse),
            // Any piece on a leg hobbles: here Black's soldiers, whose activity is not
            // counted (three of them threaten the horse too).
            ("e5", Side::Black, Role::Soldier),
            ("d4", Side::Black, Role::Soldier),
            ("f4", Side::Black, Role::Soldier),
            ("e3", Side::Black, Role::Soldier),
        ]);
        let (free, hobbled) = (
            activity(&free, Side::Red, OPENING_PHASE),
            activity(&hobbled, Side::Red, OPENING_PHASE),
        );
        assert_eq!(free, HORSE_MOVES[8].0);
        let threatened = VALUES[Role::Horse.index()] * THREAT_DEAREST / 16;
        assert_eq!(hobbled, HORSE_MOVES[0].0 - threatened);
    }

    #[test]
    fn chariots_bearing_on_the_enemy_palace_press_it_and_more_so_together() {
        let lone = with_generals(&[("f5", Side::Red, Role::Chariot)]);
        let pair = with_generals(&[
            ("f5", Side::Red, Role::Chariot),
            ("a7", Side::Red, Role::Chariot),
        ]);
        let far = with_generals(&[
            ("a5", Side::Red, Role::Chariot),
            ("a4", Side::Red, Role::Chariot),
        ]);
        // f5 sees f7, f8, f9 of the palace; a7 sees d7, e7, f7.
        let mobility = |free: i32| CHARIOT_STEP.0 * (free - CHARIOT_USUAL);
        assert_eq!(
            activity(&lone, Side::Red, OPENING_PHASE),
            mobility(17) + 3 * PRESSURE_CHARIOT * PRESSURE_SCALE[1] / 4
        );
        let pressed = activity(&pair, Side::Red, OPENING_PHASE);
        let unpressed = activity(&far, Side::Red, OPENING_PHASE);
        assert!(pressed > unpressed + 6 * PRESSURE_CHARIOT * PRESSURE_SCALE[1] / 4);
    }

    #[test]
    fn the_side_to_move_sees_the_negation_of_the_other_sides_activity() {
        let pos = Position::xiangqi_start();
        for phase in [0, OPENING_PHASE / 2, OPENING_PHASE] {
            assert_eq!(
                activity(&pos, Side::Red, phase),
                -activity(&pos, Side::Black, phase)
            );
        }
    }

    #[test]
    fn a_cannon_facing_the_general_down_an_empty_file_counts_in_the_opening_only() {
        let facing = with_generals(&[("d2", Side::Red, Role::Cannon)]);
        let screened = with_generals(&[
            ("d2", Side::Red, Role::Cannon),
            // Two pieces between: the cannon neither faces the general nor gives check.
            ("d5", Side::Red, Role::Soldier),
            ("d6", Side::Red, Role::Soldier),
        ]);
        let aside = with_generals(&[("c2", Side::Red, Role::Cannon)]);
        assert!(empty_headed_cannon(&facing, Side::Red));
        assert!(!empty_headed_cannon(&facing, Side::Black));
        assert!(!empty_headed_cannon(&screened, Side::Red));
        assert!(!empty_headed_cannon(&aside, Side::Red));
        // A lone cannon's opening and endgame activity differ by its steps' weights, and by
        // the bonus where it faces the general: the bonus counts in the opening only.
        let spread = |pos: &Position, at: &str| {
            let free = pos.reach(at.parse().expect("a square")).free as i32;
            let phases = activity(pos, Side::Red, OPENING_PHASE) - activity(pos, Side::Red, 0);
            phases - (CANNON_STEP.0 - CANNON_STEP.1) * (free - CANNON_USUAL)
        };
        assert_eq!(spread(&facing, "d2"), EMPTY_HEADED_CANNON);
        assert_eq!(spread(&screened, "d2"), 0);
        assert_eq!(spread(&aside, "c2"), 0);
        // Black's cannon facing Red's general counts for Black.
        let black = with_generals(&[("e7", Side::Black, Role::Cannon)]);
        assert!(empty_headed_cannon(&black, Side::Black));
    }

    /// `pos`'s threats: its chariots, cannons and horses as the activity term reads them.
    fn threats(pos: &Position) -> Threats {
        let mut threats = Threats::new();
        for (sq, piece, reach) in pos.attacker_reaches() {
            threats.add(sq, piece, reach.hits);
        }
        threats
    }

    #[test]
    fn a_horse_forking_two_chariots_costs_the_side_to_move_one_of_them() {
        // Black's horse on e5 attacks c4 and g4 (its legs d5 and f5 are free).
        let forked = with_generals(&[
            ("c4", Side::Red, Role::Chariot),
            ("g4", Side::Red, Role::Chariot),
            ("e5", Side::Black, Role::Horse),
        ]);
        let chariot = VALUES[Role::Chariot.index()];
        let horse = VALUES[Role::Horse.index()];
        // The chariots defend each other along the fourth rank: each exchange costs a
        // chariot for a horse.
        let fork = threats(&forked).losses(&forked, Side::Red);
        assert_eq!(
            fork,
            Losses {
                dearest: chariot - horse,
                others: chariot - horse
            }
        );
        // With a piece between them neither is defended.
        let apart = with_generals(&[
            ("c4", Side::Red, Role::Chariot),
            ("g4", Side::Red, Role::Chariot),
            ("e4", Side::Red, Role::Horse),
            ("e5", Side::Black, Role::Horse),
        ]);
        let undefended = threats(&apart).losses(&apart, Side::Red);
        assert_eq!(
            undefended,
            Losses {
                dearest: chariot,
                others: chariot
            }
        );
        // Black's own pieces stand unthreatened; for Red, to move, losing a chariot
        // outweighs anything activity counts.
        assert_eq!(
            threats(&apart).losses(&apart, Side::Black),
            Losses::default()
        );
        assert_eq!(activity(&apart, Side::Red, OPENING_PHASE), -ACTIVITY_BOUND);
    }

    #[test]
    fn a_soldier_threatens_the_officer_in_front_and_across_the_river_beside_it() {
        // Red's soldier on e5 (across the river) attacks e6 ahead and d5 and f5 beside it.
        let pos = with_generals(&[
            ("e5", Side::Red, Role::Soldier),
            ("e6", Side::Black, Role::Cannon),
            ("f5", Side::Black, Role::Horse),
            // Only the horse is defended: by the chariot on f9.
            ("f9", Side::Black, Role::Chariot),
        ]);
        let red_soldier_attacks = |pos: &Position, at: &str| {
            pos.attacked_by_soldier(at.parse().expect("a square"), Side::Red)
        };
        assert!(red_soldier_attacks(&pos, "e6"));
        assert!(red_soldier_attacks(&pos, "f5"));
        assert!(!red_soldier_attacks(&pos, "e4"));
        // A soldier on its own side of the river attacks only ahead.
        let home = with_generals(&[("e3", Side::Red, Role::Soldier)]);
        assert!(red_soldier_attacks(&home, "e4"));
        assert!(!red_soldier_attacks(&home, "d3"));
        // For Black, to move: the undefended cannon is lost whole, the defended horse for
        // the soldier it costs.
        let cannon = VALUES[Role::Cannon.index()];
        let horse = VALUES[Role::Horse.index()];
        let soldier = VALUES[Role::Soldier.index()];
        assert_eq!(
            threats(&pos).losses(&pos, Side::Black),
            Losses {
                dearest: cannon,
                others: horse - soldier
            }
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// A board turned upside down with the colours swapped is the same position for the
        /// other side: its activity is the same, whatever the palace, line or leg involved.
        #[test]
        fn a_board_mirrored_with_colours_swapped_has_the_same_activity(
            seed in proptest::prelude::any::<u64>(),
            plies in 0usize..120,
        ) {
            let mut pos = Position::xiangqi_start();
            let mut state = seed;
            for _ in 0..plies {
                let moves = pos.legal_move_vec();
                if moves.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pos.play_unchecked(moves[(state >> 33) as usize % moves.len()], None, None);
            }
            let mut mirrored = Setup::empty();
            for (sq, cell) in pos.occupied_cells() {
                let Cell::Piece(piece) = cell else { continue };
                let (file, rank) = (sq.index() % 9, sq.index() / 9);
                let flipped = Square::from_index((9 - rank) * 9 + file).expect("on the board");
                mirrored.board[flipped.index()] = Cell::Piece(Piece::new(!piece.side, piece.role));
            }
            mirrored.side_to_move = !pos.side_to_move();
            let mirrored = Position::from_setup(mirrored, Variant::Xiangqi, MoveOptions::default())
                .expect("a mirrored legal position is legal");
            for phase in [0, OPENING_PHASE] {
                proptest::prop_assert_eq!(
                    activity(&pos, Side::Red, phase),
                    activity(&mirrored, Side::Black, phase)
                );
            }
        }
    }
}
