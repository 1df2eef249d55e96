//! A live game's clock through the codec: stored with its game and read back unchanged,
//! and a record whose clock no game could reach refused with the reason.

use std::time::Duration;

use jieqi_clock::{Clock, Side, Timestamp};
use proptest::prelude::*;

fn blitz_clock() -> Clock {
    let mut clock = Clock::new("3+2".parse().unwrap());
    clock.start(Side::Red, Timestamp::from_millis(1_700_000_000_000));
    clock
}

fn live_game(clock: Clock) -> crate::GameRecord {
    use crate::ids::{Platform, User, UserId};
    crate::GameRecord {
        id: "g7k2".parse().unwrap(),
        revision: 3,
        chat: crate::ids::ChatId::new(Platform::Telegram, "room"),
        variant: jieqi_rules::Variant::Xiangqi,
        preset: jieqi_rules::game::Preset::Standard,
        first: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        second: User::new(UserId::new(Platform::Telegram, "2"), "bob"),
        deal: String::new(),
        salt: "00ff".to_owned(),
        commitment: crate::commitment("", "00ff"),
        moves: Vec::new(),
        ending: None,
        move_time: 180,
        deadline: Some(1_700_000_181),
        draw_offer: None,
        posts: Vec::new(),
        watchers: Vec::new(),
        started_at: 1_700_000_000,
        finished_at: None,
        engine: None,
        prompts: Default::default(),
        rules_revision: jieqi_rules::game::RULES_REVISION,
        secret_captures: false,
        verdict: None,
        clock: Some(clock),
    }
}

#[test]
fn a_live_game_reads_back_with_its_clock() {
    let game = live_game(blitz_clock());
    let bytes = crate::codec::encode(&game).unwrap();
    assert_eq!(crate::codec::decode::<crate::GameRecord>(&bytes), Ok(game));
}

#[test]
fn the_codec_refuses_a_game_whose_clock_runs_for_the_wrong_side() {
    let mut game = live_game(blitz_clock());
    game.moves = vec!["h2e2".to_owned()];
    let bytes = crate::codec::encode(&game).unwrap();
    let error = crate::codec::decode::<crate::GameRecord>(&bytes).unwrap_err();
    assert!(
        matches!(&error, crate::StoreError::Corrupt(text) if text.contains("not to move")),
        "{error}"
    );
}

#[test]
fn the_codec_refuses_a_game_with_a_negative_clock_figure() {
    let game = live_game(blitz_clock());
    let mut stored = crate::compact::StoredGame::from(game);
    stored.clock.as_mut().unwrap().red.main_ms = -180_000;
    let mut bytes = vec![crate::codec::SCHEMA_VERSION];
    bytes.extend(postcard::to_allocvec(&stored).unwrap());
    let error = crate::codec::decode::<crate::GameRecord>(&bytes).unwrap_err();
    assert!(error.to_string().contains("negative game time"), "{error}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

        /// A clock any game could reach (a control, then moves of any length, a game that may
        /// have ended) is stored with its game and read back unchanged.
        #[test]
        fn any_reachable_clock_round_trips_with_its_game(
            control in prop_oneof![Just("1+0"), Just("3+2"), Just("10m|3x30s"), Just("0s|5s")],
            spends in proptest::collection::vec(0u64..200_000, 0..30),
            lags in proptest::collection::vec(0u64..2_000, 30),
            ended in any::<bool>(),
        ) {
            let mut clock = Clock::new(control.parse().unwrap());
            let mut at = Timestamp::from_millis(1_700_000_000_000);
            clock.start(Side::Red, at);
            let mut plies = 0;
            for (spend, lag) in spends.iter().zip(&lags) {
                let side = if plies % 2 == 0 { Side::Red } else { Side::Black };
                let next = at.plus(Duration::from_millis(*spend));
                if clock.press(side, next, Duration::from_millis(*lag)).is_err() {
                    break;
                }
                at = next;
                plies += 1;
            }
            let mut game = live_game(clock);
            game.moves = vec!["h2e2".to_owned(); plies];
            if ended {
                let mut stopped = clock;
                stopped.stop(at.plus(Duration::from_millis(10)));
                game.clock = Some(stopped);
                game.ending = Some(crate::Ending::DrawAgreed);
            }
            let bytes = crate::codec::encode(&game).unwrap();
            prop_assert_eq!(crate::codec::decode::<crate::GameRecord>(&bytes), Ok(game));
        }

}
