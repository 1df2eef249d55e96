//! The course teaches what the rules crate does: every position is legal, every solving move
//! is legal and does what its lesson says, and every text key is translated.

use std::collections::BTreeSet;

use jieqi_course::{COURSE, Lesson, Place, Solution, Step, StepState, Verdict};
use jieqi_rules::banqi::BanqiError;
use jieqi_rules::{
    DrawReason, Game, GameError, GameMove, Outcome, PlayedRecord, Role, Side, Variant, Viewer,
    WinReason,
};

fn lesson(id: &str) -> (usize, &'static Lesson) {
    Lesson::by_id(id).unwrap_or_else(|| panic!("no lesson {id}"))
}

fn state(id: &str, step: usize, moves: &[&str]) -> StepState {
    let (lesson, _) = lesson(id);
    Place {
        lesson,
        step,
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
    }
    .rebuild()
    .expect("the place rebuilds")
}

/// The game after the learner plays `text` in this state, which must solve the turn.
fn solved(state: &StepState, text: &str) -> (Game, PlayedRecord) {
    match state.judge(text) {
        Verdict::Correct { after, played, .. } => (*after, played.record),
        other => panic!("{text} should solve the turn: {other:?}"),
    }
}

fn board_record(record: PlayedRecord) -> jieqi_rules::MoveRecord {
    match record {
        PlayedRecord::Board(record) => record,
        PlayedRecord::Banqi(_) => panic!("a board move was expected"),
    }
}

/// The solving moves of a turn in `game` (every flip for `AnyFlip`).
fn solving_moves(solution: &Solution, game: &Game) -> Vec<String> {
    match solution {
        Solution::Moves(moves) => moves.iter().map(|m| (*m).to_owned()).collect(),
        Solution::AnyFlip => game
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, GameMove::Banqi(jieqi_rules::banqi::Action::Flip(_))))
            .map(|m| m.to_string())
            .collect(),
    }
}

#[test]
fn every_step_starts_from_a_legal_position_with_the_learner_to_move() {
    assert!(!COURSE.is_empty());
    for lesson in COURSE {
        assert!(!lesson.steps.is_empty(), "{} has no steps", lesson.id);
        for (i, step) in lesson.steps.iter().enumerate() {
            let game = step
                .start(lesson)
                .unwrap_or_else(|e| panic!("{} step {i}: {e}", lesson.id));
            assert!(
                !step.turns.is_empty(),
                "{} step {i} has no turns",
                lesson.id
            );
            assert_eq!(game.outcome(), None, "{} step {i} is over", lesson.id);
            if lesson.variant != Variant::Banqi || game.side_to_move().is_some() {
                assert_eq!(
                    game.side_to_move(),
                    Some(step.learner),
                    "{} step {i}: the learner is not to move",
                    lesson.id
                );
            }
        }
    }
}

/// Plays every solving move of every turn (and the reply after it) from every step.
fn each_solution(mut check: impl FnMut(&Lesson, &Step, usize, &Game, &str)) {
    for (li, lesson) in COURSE.iter().enumerate() {
        for (si, step) in lesson.steps.iter().enumerate() {
            let mut moves: Vec<String> = Vec::new();
            for (ti, turn) in step.turns.iter().enumerate() {
                let state = Place {
                    lesson: li,
                    step: si,
                    moves: moves.clone(),
                }
                .rebuild()
                .unwrap_or_else(|e| panic!("{} step {si} turn {ti}: {e}", lesson.id));
                let solutions = solving_moves(&turn.solution, &state.game);
                assert!(
                    !solutions.is_empty(),
                    "{} turn {ti} has no solution",
                    lesson.id
                );
                for text in &solutions {
                    let (after, _) = solved(&state, text);
                    check(lesson, step, ti, &after, text);
                    if let Some(reply) = turn.reply {
                        let mut next = after.clone();
                        next.play_text(reply).unwrap_or_else(|e| {
                            panic!("{}: reply {reply} after {text}: {e}", lesson.id)
                        });
                    }
                }
                if let Some(reply) = turn.reply {
                    moves.extend([solutions[0].clone(), reply.to_owned()]);
                }
            }
        }
    }
}

#[test]
fn every_solving_move_is_legal_and_every_reply_follows_it() {
    let mut count = 0;
    each_solution(|lesson, step, turn, after, text| {
        count += 1;
        let last = turn + 1 == step.turns.len();
        // Only the lessons about the end of a game end it.
        if !matches!(lesson.id, "mate" | "repetition") {
            assert_eq!(after.outcome(), None, "{} {text} ends the game", lesson.id);
        }
        if !last {
            assert_eq!(after.outcome(), None, "{}: the step goes on", lesson.id);
        }
    });
    assert!(count >= COURSE.len());
}

#[test]
fn a_newcomer_who_plays_the_solutions_walks_through_the_whole_course() {
    let mut place = Place::default();
    let mut turns = 0;
    while !place.is_finished() {
        let state = place.rebuild().expect("each place rebuilds");
        let text = solving_moves(&state.turn.solution, &state.game)
            .into_iter()
            .next()
            .expect("a solution");
        place = match state.judge(&text) {
            Verdict::Correct { next, .. } => next,
            other => panic!("{text}: {other:?}"),
        };
        turns += 1;
        assert!(turns < 100, "the course does not end");
    }
    let expected: usize = COURSE
        .iter()
        .flat_map(|l| l.steps)
        .map(|s| s.turns.len())
        .sum();
    assert_eq!(turns, expected);
    assert_eq!(place, Place::lesson_start(COURSE.len()));
}

#[test]
fn a_covered_piece_moves_as_the_piece_of_its_point_and_turns_up_as_dealt() {
    // b0 is a horse's point: b0c2 is a horse's jump, and the piece was a chariot.
    let horse = state("covered", 0, &[]);
    let (_, record) = solved(&horse, "b0c2");
    assert_eq!(board_record(record).reveal, Some(Role::Chariot));
    // Not a horse's move for the same piece: refused by the rules.
    assert!(matches!(
        horse.judge("b0b1"),
        Verdict::NotLegal(GameError::IllegalMove(_))
    ));
    // h2 is a cannon's point: it captures over the screen on h6.
    let cannon = state("covered", 1, &[]);
    let (_, record) = solved(&cannon, "h2h9");
    let record = board_record(record);
    assert_eq!(record.reveal, Some(Role::Advisor));
    assert_eq!(record.captured.map(|c| c.piece.role), Some(Role::Chariot));
}

#[test]
fn the_reveal_lesson_turns_a_soldier_point_into_a_chariot_that_then_moves_as_one() {
    let push = state("reveal", 0, &[]);
    let (_, record) = solved(&push, "c3c4");
    assert_eq!(board_record(record).reveal, Some(Role::Chariot));
    let use_it = state("reveal", 0, &["c3c4", "e9e8"]);
    let (_, record) = solved(&use_it, "c4c9");
    let record = board_record(record);
    assert_eq!(record.reveal, None, "it is face up already");
    assert_eq!(record.captured.map(|c| c.piece.role), Some(Role::Horse));
}

#[test]
fn revealed_elephants_cross_the_river_and_revealed_advisors_leave_the_palace() {
    let elephant = state("free", 0, &[]);
    let (_, record) = solved(&elephant, "e4g6");
    let record = board_record(record);
    assert_eq!(record.mover.role, Role::Elephant);
    assert!(
        !record.mv.to.on_home_half(Side::Red),
        "it crossed the river"
    );
    let advisor = state("free", 1, &[]);
    let (_, record) = solved(&advisor, "d2c3");
    let record = board_record(record);
    assert_eq!(record.mover.role, Role::Advisor);
    assert!(!record.mv.to.in_palace(Side::Red), "it left the palace");
}

#[test]
fn the_flying_general_leaves_one_escape_and_says_why_the_other_is_illegal() {
    let escape = state("flying", 0, &[]);
    assert_eq!(escape.game.legal_move_texts(), vec!["e1f1".to_owned()]);
    match escape.judge("e1d1") {
        Verdict::NotLegal(GameError::IllegalMove(reason)) => {
            assert!(reason.contains("face each other"), "{reason}");
        }
        other => panic!("e1d1 should be illegal: {other:?}"),
    }
}

#[test]
fn capturing_a_covered_piece_tells_only_the_capturer_what_it_was() {
    let capture = state("capture", 0, &[]);
    let (after, _) = solved(&capture, "b4b9");
    let ply = after.ply() - 1;
    let (capturer, piece) = after.captured_covered_by(ply).expect("a covered capture");
    assert_eq!(capturer, Side::Red);
    assert_eq!(piece.role, Role::Cannon);
    let public = after.view(Viewer::Public).captured.black;
    assert_eq!((public.known.len(), public.unknown), (0, 1));
    let red = after.view(Viewer::Player(Side::Red)).captured.black;
    assert_eq!(red.known, vec![Role::Cannon]);
    let black = after.view(Viewer::Player(Side::Black)).captured.black;
    assert_eq!(black.unknown, 1, "its owner does not learn it");
}

#[test]
fn the_check_step_gives_check_and_the_mate_step_mates() {
    let check = state("mate", 0, &[]);
    for text in ["b1b9", "b1e1"] {
        let (after, _) = solved(&check, text);
        assert!(after.view(Viewer::Public).check.is_some(), "{text} checks");
        assert_eq!(after.outcome(), None, "{text} is not mate");
    }
    let mate = state("mate", 1, &[]);
    let (after, _) = solved(&mate, "b1b9");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Side::Red,
            reason: WinReason::Checkmate
        })
    );
    // A check that is not mate is a wrong answer, with the hint.
    assert!(matches!(mate.judge("a8a9"), Verdict::Wrong { .. }));
}

#[test]
fn the_repetition_step_is_a_third_occurrence_the_perpetual_checker_loses() {
    let step = state("repetition", 0, &[]);
    assert_eq!(step.game.outcome(), None);
    let (after, _) = solved(&step, "e1e2");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Side::Red,
            reason: WinReason::PerpetualCheck
        })
    );
    // The other escape does not repeat the position: the game goes on, and it is a wrong
    // answer here.
    let mut other = step.game.clone();
    other.play_text("e1e0").expect("legal");
    assert_eq!(other.outcome(), None);
    assert!(matches!(step.judge("e1e0"), Verdict::Wrong { .. }));
    assert_ne!(after.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn banqi_lessons_use_the_banqi_rules_for_flips_ranks_and_the_cannon() {
    let flip = state("banqi-flip", 0, &[]);
    assert_eq!(flip.game.variant(), Variant::Banqi);
    for text in ["a1", "h4", "d3"] {
        let (after, record) = solved(&flip, text);
        let PlayedRecord::Banqi(record) = record else {
            panic!("a Banqi flip")
        };
        let shown = record.flipped.expect("a flip shows a piece");
        assert_eq!(after.side_of(jieqi_rules::Seat::First), Some(shown.side));
    }
    let ranks = state("banqi-ranks", 0, &[]);
    assert!(matches!(
        ranks.judge("c2c3"),
        Verdict::NotLegal(GameError::Banqi(BanqiError::Outranked { .. }))
    ));
    let (_, record) = solved(&ranks, "c2d2");
    let PlayedRecord::Banqi(record) = record else {
        panic!("a Banqi move")
    };
    assert_eq!(record.captured.map(|p| p.role), Some(Role::Cannon));
    let soldier = state("banqi-ranks", 0, &["c2d2", "a4"]);
    let (_, record) = solved(&soldier, "f2f3");
    let PlayedRecord::Banqi(record) = record else {
        panic!("a Banqi move")
    };
    assert_eq!(record.captured.map(|p| p.role), Some(Role::General));
    let cannon = state("banqi-cannon", 0, &[]);
    assert!(matches!(cannon.judge("a1b1"), Verdict::NotLegal(_)));
    let (_, record) = solved(&cannon, "a1a4");
    let PlayedRecord::Banqi(record) = record else {
        panic!("a Banqi move")
    };
    assert_eq!(record.captured.map(|p| p.role), Some(Role::Chariot));
}

#[test]
fn the_judge_tells_wrong_moves_from_unreadable_and_illegal_ones() {
    let horse = state("covered", 0, &[]);
    assert!(matches!(
        horse.judge("e0d0"),
        Verdict::Wrong {
            hint: "course-covered-horse-hint"
        }
    ));
    assert!(matches!(
        horse.judge("hello"),
        Verdict::NotLegal(GameError::BadInput(_))
    ));
    assert!(matches!(horse.judge(""), Verdict::NotLegal(_)));
    // Another notation of the solving move is the same move.
    assert!(matches!(horse.judge("H8+7"), Verdict::Correct { .. }));
}

#[test]
fn places_that_do_not_fit_the_course_are_refused_not_panicked_on() {
    let too_far = Place {
        lesson: COURSE.len() + 3,
        step: 0,
        moves: Vec::new(),
    };
    assert!(too_far.rebuild().is_err());
    let odd = Place {
        lesson: 0,
        step: 0,
        moves: vec!["b0c2".to_owned()],
    };
    assert!(odd.rebuild().is_err());
    let garbage = Place {
        lesson: 1,
        step: 0,
        moves: vec!["zz".to_owned(), "e9e8".to_owned()],
    };
    assert!(garbage.rebuild().is_err());
}

/// The message ids of a course translation file.
fn keys(language: &str) -> BTreeSet<String> {
    let path = format!(
        "{}/../../assets/i18n/course/{language}.ftl",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let resource = fluent_syntax::parser::parse(source.as_str())
        .unwrap_or_else(|(_, errors)| panic!("{language}.ftl has errors: {errors:?}"));
    resource
        .body
        .iter()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_lesson_text_is_in_english_chinese_and_vietnamese() {
    let mut used = BTreeSet::new();
    for lesson in COURSE {
        used.insert(lesson.title.to_owned());
        for turn in lesson.steps.iter().flat_map(|s| s.turns) {
            used.extend([turn.task, turn.explanation, turn.hint].map(str::to_owned));
        }
    }
    let english = keys("en");
    for language in ["en", "zh", "vi"] {
        let have = keys(language);
        let missing: Vec<_> = used.difference(&have).collect();
        assert!(missing.is_empty(), "{language}: missing {missing:?}");
        assert_eq!(have, english, "{language} and en have different keys");
    }
}

#[test]
fn the_no_progress_step_draws_on_any_quiet_move_and_its_capture_keeps_the_game_going() {
    let step = state("repetition", 1, &[]);
    assert_eq!(step.game.ply(), 119, "119 plies without a capture");
    assert_eq!(step.game.outcome(), None);
    for quiet in ["b0a0", "d0e0", "i3i4"] {
        let mut drawn = step.game.clone();
        drawn.play_text(quiet).expect("a legal quiet move");
        assert_eq!(
            drawn.outcome(),
            Some(Outcome::Draw(DrawReason::NoProgress)),
            "{quiet}"
        );
        assert!(matches!(step.judge(quiet), Verdict::Wrong { .. }));
    }
    let (after, record) = solved(&step, "b0b4");
    assert!(board_record(record).captured.is_some());
    assert_eq!(after.outcome(), None, "the capture keeps the game going");
}
