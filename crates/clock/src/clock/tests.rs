use proptest::prelude::*;

use super::*;

const T0: Timestamp = Timestamp::from_millis(1_700_000_000_000);

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}

fn started(control: &str) -> Clock {
    let mut clock = Clock::new(control.parse().unwrap());
    clock.start(Side::Red, T0);
    clock
}

#[test]
fn a_move_is_charged_from_the_opponents_commit_and_gets_its_increment() {
    let mut clock = started("3+2");
    let press = clock
        .press(Side::Red, T0.plus(secs(10)), Duration::ZERO)
        .unwrap();
    assert_eq!(
        press,
        Press {
            spent: secs(10),
            compensated: Duration::ZERO
        }
    );
    assert_eq!(clock.main_time(Side::Red), secs(172));
    assert_eq!(
        clock.running(),
        Some(Running {
            side: Side::Black,
            since: T0.plus(secs(10))
        })
    );
    clock
        .press(Side::Black, T0.plus(secs(15)), Duration::ZERO)
        .unwrap();
    assert_eq!(clock.main_time(Side::Black), secs(177));
    assert_eq!(clock.main_time(Side::Red), secs(172));
}

#[test]
fn only_the_running_side_may_press() {
    let mut clock = Clock::new("1+0".parse().unwrap());
    assert_eq!(
        clock.press(Side::Red, T0, Duration::ZERO),
        Err(ClockError::NotRunning { side: Side::Red })
    );
    clock.start(Side::Red, T0);
    assert_eq!(
        clock.press(Side::Black, T0, Duration::ZERO),
        Err(ClockError::NotRunning { side: Side::Black })
    );
}

#[test]
fn a_move_after_the_time_ran_out_is_refused_and_changes_nothing() {
    let mut clock = started("1+0");
    let before = clock;
    assert_eq!(
        clock.press(Side::Red, T0.plus(ms(60_001)), Duration::ZERO),
        Err(ClockError::TimeUp { side: Side::Red })
    );
    assert_eq!(clock, before);
    assert!(
        clock
            .press(Side::Red, T0.plus(secs(60)), Duration::ZERO)
            .is_ok()
    );
    assert_eq!(clock.main_time(Side::Red), Duration::ZERO);
}

#[test]
fn the_flag_falls_after_the_allowance_and_the_lag_grace() {
    let clock = started("1+0");
    // 1+0: quota 1.2 s, of which at most 1 s on one move.
    let deadline = T0.plus(secs(61));
    assert_eq!(clock.flag_deadline(), Some(deadline));
    assert_eq!(clock.flagged(deadline), None);
    assert_eq!(clock.flagged(deadline.plus(ms(1))), Some(Side::Red));
    // A move arriving at the deadline with its lag measured stands; a millisecond later not.
    let mut just = clock;
    assert!(just.press(Side::Red, deadline, secs(5)).is_ok());
    let mut late = clock;
    assert_eq!(
        late.press(Side::Red, deadline.plus(ms(1)), secs(5)),
        Err(ClockError::TimeUp { side: Side::Red })
    );
    assert_eq!(Clock::new("1+0".parse().unwrap()).flag_deadline(), None);
}

#[test]
fn lag_is_given_back_within_the_quota_and_never_more_than_a_second_a_move() {
    let mut clock = started("1+0");
    let mut at = T0;
    let mut given = Duration::ZERO;
    for ply in 0..40 {
        let side = if ply % 2 == 0 { Side::Red } else { Side::Black };
        at = at.plus(ms(1_500));
        // A client claiming 10 s of lag on every move.
        let press = clock.press(side, at, secs(10)).unwrap();
        assert!(press.compensated <= MAX_LAG_PER_MOVE);
        if side == Side::Red {
            given += press.compensated;
        }
    }
    // Red's 20 moves: the 1.2 s quota and 0.4 s gained per move, no more.
    assert!(given <= ms(1_200 + 20 * 400), "{given:?}");
    assert!(clock.side(Side::Red).lag_quota <= ms(2_800));
}

#[test]
fn a_300_ms_connection_loses_nothing_at_bullet_or_blitz() {
    for (control, think) in [("1+0", 500), ("3+2", 2_000)] {
        let mut clock = started(control);
        let mut at = T0;
        for ply in 0..100 {
            let side = if ply % 2 == 0 { Side::Red } else { Side::Black };
            at = at.plus(ms(think + 300));
            let press = clock.press(side, at, ms(300)).unwrap();
            assert_eq!(press.compensated, ms(300), "{control}, ply {ply}");
            assert_eq!(press.spent, ms(think));
        }
    }
}

#[test]
fn byo_yomi_keeps_a_period_per_move_made_within_it_and_loses_with_the_last() {
    let mut clock = started("1m|2x30s");
    // 50 s of the minute.
    clock
        .press(Side::Red, T0.plus(secs(50)), Duration::ZERO)
        .unwrap();
    clock.start(Side::Red, T0.plus(secs(60)));
    // 10 s left, then 25 s into the first period: both periods kept.
    clock
        .press(Side::Red, T0.plus(secs(95)), Duration::ZERO)
        .unwrap();
    assert_eq!(clock.side(Side::Red).main, Duration::ZERO);
    assert_eq!(clock.side(Side::Red).periods, 2);
    clock.start(Side::Red, T0.plus(secs(100)));
    assert_eq!(
        clock.face(Side::Red, T0.plus(secs(110))),
        Face {
            left: secs(20),
            periods: 2,
            byo_yomi: true
        }
    );
    assert_eq!(
        clock.face(Side::Red, T0.plus(secs(140))),
        Face {
            left: secs(20),
            periods: 1,
            byo_yomi: true
        }
    );
    // 40 s: one period used up, the last remains.
    clock
        .press(Side::Red, T0.plus(secs(140)), Duration::ZERO)
        .unwrap();
    assert_eq!(clock.side(Side::Red).periods, 1);
    clock.start(Side::Red, T0.plus(secs(200)));
    assert_eq!(clock.flag_deadline(), Some(T0.plus(secs(230) + secs(1))));
    assert_eq!(
        clock.press(Side::Red, T0.plus(ms(230_001)), Duration::ZERO),
        Err(ClockError::TimeUp { side: Side::Red })
    );
    assert!(
        clock
            .press(Side::Red, T0.plus(secs(230)), Duration::ZERO)
            .is_ok()
    );
}

#[test]
fn a_time_per_move_is_the_same_for_every_move_and_has_no_lag_grace() {
    let mut clock = started("1d");
    assert_eq!(clock.flag_deadline(), Some(T0.plus(secs(86_400))));
    clock
        .press(Side::Red, T0.plus(secs(80_000)), secs(1))
        .unwrap();
    assert_eq!(clock.main_time(Side::Red), secs(86_400));
    assert_eq!(
        clock.press(Side::Black, T0.plus(secs(80_000 + 86_401)), secs(1)),
        Err(ClockError::TimeUp { side: Side::Black })
    );
}

#[test]
fn stopping_charges_the_mover_without_increment() {
    let mut clock = started("3+2");
    clock.stop(T0.plus(secs(30)));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.main_time(Side::Red), secs(150));
    assert_eq!(clock.flag_deadline(), None);
    let mut over = started("1+0");
    over.stop(T0.plus(secs(90)));
    assert_eq!(over.main_time(Side::Red), Duration::ZERO);
}

#[test]
fn impossible_stored_clocks_are_refused() {
    let clock = started("10m|30s");
    assert_eq!(Clock::from_parts(clock.parts()), Ok(clock));
    let parts = clock.parts();
    let bad = [
        ClockParts {
            red: SideTime {
                main: secs(601),
                ..parts.red
            },
            ..parts
        },
        ClockParts {
            red: SideTime {
                periods: 0,
                ..parts.red
            },
            ..parts
        },
        ClockParts {
            black: SideTime {
                periods: 2,
                ..parts.black
            },
            ..parts
        },
        ClockParts {
            black: SideTime {
                lag_quota: secs(60),
                ..parts.black
            },
            ..parts
        },
    ];
    for parts in bad {
        assert!(
            matches!(Clock::from_parts(parts), Err(ClockError::Impossible(_))),
            "{parts:?}"
        );
    }
    let per_move = started("1h").parts();
    let changed = ClockParts {
        red: SideTime {
            main: secs(60),
            ..per_move.red
        },
        ..per_move
    };
    assert!(Clock::from_parts(changed).is_err());
    let fischer = started("3+2").parts();
    let hoarded = ClockParts {
        red: SideTime {
            main: secs(31 * 86_400),
            ..fischer.red
        },
        ..fischer
    };
    assert!(Clock::from_parts(hoarded).is_err());
}

fn any_control() -> impl Strategy<Value = TimeControl> {
    prop::sample::select(vec![
        "1+0", "3+2", "10+5", "0s|5s", "1m|3x10s", "10m|30s", "1h", "1d",
    ])
    .prop_map(|text| text.parse().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The race between a move and the flag has one answer: a move stands exactly when it
    /// is pressed at or before the flag deadline with enough lag measured, and never after.
    #[test]
    fn a_move_stands_exactly_when_the_flag_has_not_fallen(
        control in any_control(),
        moves in prop::collection::vec((0u64..200_000, 0u64..3_000), 1..60),
    ) {
        let mut clock = Clock::new(control);
        clock.start(Side::Red, T0);
        let mut at = T0;
        let mut side = Side::Red;
        for (think, lag) in moves {
            let deadline = clock.flag_deadline().unwrap();
            at = at.plus(ms(think));
            let mut probe = clock;
            let with_full_lag = probe.press(side, at, secs(60));
            prop_assert_eq!(with_full_lag.is_ok(), at <= deadline);
            prop_assert_eq!(clock.flagged(at).is_some(), at > deadline);
            match clock.press(side, at, ms(lag)) {
                Ok(press) => {
                    prop_assert!(press.compensated <= MAX_LAG_PER_MOVE);
                    prop_assert_eq!(Clock::from_parts(clock.parts()), Ok(clock));
                    side = side.opponent();
                }
                Err(error) => {
                    prop_assert_eq!(error, ClockError::TimeUp { side });
                    break;
                }
            }
        }
    }
}
