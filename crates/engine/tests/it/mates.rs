//! Every level above novice finds a mate in one, in Xiangqi and in Jieqi.
//!
//! Some of these positions also have a move that leaves the opponent without any legal move
//! and not in check; the rules score that as the same win, so either answer passes.

use crate::common;

use common::{player_view, small_budget};
use jieqi_engine::{Engine, Level};
use jieqi_rules::{GameMove, Variant};

/// Positions with a mate in one for the side to move (some have more than one mate).
const MATES: [(&str, Variant); 4] = [
    // Smothered general: Hh6-g8 or Hh6-f7.
    ("3aka3/4h4/9/p6H1/9/9/9/9/9/4K4 w - - 0 1", Variant::Xiangqi),
    // Back-rank chariot, the horse on c7 guarding e8: Rb1-b9.
    ("4k4/9/2H6/9/9/9/9/9/1R7/3K5 w - - 0 1", Variant::Xiangqi),
    // Jieqi: double cannons on the e file, Cb4-e4, while Black's covered pieces crowd the
    // palace and cannot interpose for good.
    (
        "xxxxkxxxx/9/1x5x1/x1x3x1x/4C4/1C7/9/9/9/3K5 w - - 0 1",
        Variant::Jieqi,
    ),
    // The same turned round for Black: Ch5-e5.
    (
        "5k3/9/9/9/7c1/4c4/X1X3X1X/1X5X1/9/XXXXKXXXX b - - 0 1",
        Variant::Jieqi,
    ),
];

#[test]
fn every_level_above_novice_mates_in_one() {
    for (fen, variant) in MATES {
        for level in [Level::Casual, Level::Club, Level::Master] {
            let (view, legal, pos) = player_view(fen, variant);
            let mut engine = Engine::with_budget(level, small_budget(level, 20_000), 11);
            let chosen = engine.choose(&view, &legal).expect("a move");
            let GameMove::Board(mv) = chosen else {
                panic!("a board move for {fen}");
            };
            let mut after = pos.clone();
            // Whatever a covered mover would reveal, the mates above are made by face-up pieces.
            after.play_unchecked(mv, None, None);
            // Mate, or its twin that the rules score the same: the opponent has no legal
            // move at all (a loss in Xiangqi and Jieqi, in check or not).
            assert!(
                after.legal_move_vec().is_empty(),
                "{level} played {mv} in {fen}, which does not end the game"
            );
        }
    }
}
