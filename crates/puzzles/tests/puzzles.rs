//! Behaviour through the public API: the verifier on hand-made positions, the checker, the
//! file format, and the shipped set.

use std::path::Path;

use jieqi_puzzles::{Answer, Attempt, AttemptError, Budgets, Puzzle, PuzzleSet, Theme, reverify};
use jieqi_rules::Variant;
use proptest::prelude::*;

fn puzzle(line: &str) -> Puzzle {
    Puzzle::from_line(line, 1).expect("a valid puzzle line")
}

/// Red's chariot on i8 holds rank 8 and Red's general on f0 holds the f file: a chariot
/// arriving on a9 mates. (Black's soldier is there so that no stalemate also wins.)
const XIANGQI_MATE: &str =
    "x1\txiangqi\tmate\t1\t800\t4k4/8R/9/9/9/9/8p/9/9/R4K3 w - - 0 1\t-\ta0a9";
/// The same with a covered piece on a0. It moves to a9 as a chariot (its point's type) but
/// arrives as whatever it is: a chariot mates, a soldier or an advisor does not. Here it
/// really is a chariot, so the line "works" in this deal, but not in every consistent one.
const JIEQI_UNSOUND: &str =
    "j1\tjieqi\tmate\t1\t800\t4k4/8R/9/9/9/9/8p/9/9/X4K3 w - - 0 1\tR\ta0a9r";

#[test]
fn hand_made_mate_in_one_is_accepted() {
    assert_eq!(
        reverify(&puzzle(XIANGQI_MATE), Budgets::default()),
        Ok(true)
    );
}

#[test]
fn mate_that_needs_a_lucky_reveal_is_rejected() {
    let unsound = puzzle(JIEQI_UNSOUND);
    assert_eq!(reverify(&unsound, Budgets::default()), Ok(false));
    // In the real deal the move does mate: only the all-deals check rejects it.
    let mut game = unsound.game().unwrap();
    game.play_text("a0a9").unwrap();
    assert!(game.outcome().is_some());
}

#[test]
fn attempt_accepts_the_solution() {
    let mut attempt = Attempt::new(&puzzle(XIANGQI_MATE)).unwrap();
    assert_eq!(attempt.play("R9+9"), Ok(Answer::Solved));
    assert!(attempt.is_over());
    assert_eq!(attempt.play("a0a9"), Err(AttemptError::Over));
}

#[test]
fn attempt_refuses_a_wrong_move_and_an_illegal_one() {
    let mut attempt = Attempt::new(&puzzle(XIANGQI_MATE)).unwrap();
    assert!(matches!(
        attempt.play("a0b0b"),
        Err(AttemptError::NotAMove(_))
    ));
    assert!(matches!(
        attempt.play("a0a5a5"),
        Err(AttemptError::NotAMove(_))
    ));
    assert!(!attempt.is_over());
    assert_eq!(attempt.play("a0a1"), Ok(Answer::Wrong));
    assert!(attempt.is_over());
}

fn shipped() -> PuzzleSet {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/puzzles");
    PuzzleSet::from_dir(&dir).expect("the shipped puzzle files load")
}

#[test]
fn attempt_plays_the_reply_of_a_longer_puzzle() {
    let set = shipped();
    for variant in [Variant::Jieqi, Variant::Xiangqi] {
        let p = set
            .puzzles()
            .iter()
            .find(|p| p.variant == variant && p.theme == Theme::Mate && p.moves == 2)
            .expect("a mate in 2");
        let mut attempt = Attempt::new(p).unwrap();
        let bare = |t: &str| t.get(..4).unwrap_or(t).to_owned();
        match attempt.play(&bare(&p.solution[0])) {
            Ok(Answer::Continue { reply }) => assert_eq!(reply, p.solution[1]),
            other => panic!("{}: {other:?}", p.id),
        }
        assert_eq!(
            attempt.play(&bare(&p.solution[2])),
            Ok(Answer::Solved),
            "{}",
            p.id
        );
        assert_eq!(attempt.played(), &p.solution[..]);
    }
}

#[test]
fn shipped_set_is_large_enough_and_covers_every_theme() {
    let set = shipped();
    let count = |v| set.puzzles().iter().filter(|p| p.variant == v).count();
    assert!(count(Variant::Jieqi) >= 1_500);
    assert!(count(Variant::Xiangqi) >= 100);
    assert!(count(Variant::Banqi) >= 100);
    for theme in Theme::ALL {
        assert!(set.puzzles().iter().any(|p| p.theme == theme), "{theme}");
    }
}

/// Every shipped puzzle is sound and unique again, proved from scratch by the verifier (a
/// few seconds for the whole set).
#[test]
fn shipped_puzzles_reverify_sound_and_unique() {
    let set = shipped();
    for p in set.puzzles() {
        assert_eq!(reverify(p, Budgets::default()), Ok(true), "{}", p.id);
    }
}

/// Typing each stored solver move solves the puzzle, the replies are the stored ones, and the
/// start gives a game to draw the solver's view from.
#[test]
fn every_stored_solution_solves_its_puzzle() {
    let set = shipped();
    for p in set.puzzles() {
        let game = p.game().unwrap();
        let view = game.view(jieqi_rules::Viewer::Player(p.side_to_move()));
        assert_eq!(view.variant, p.variant);
        let mut attempt = Attempt::new(p).unwrap();
        for (i, text) in p.solution.iter().enumerate().step_by(2) {
            let typed = match text.split_once('=') {
                Some((bare, _)) => bare,
                None => &text[..4],
            };
            let answer = attempt.play(typed).unwrap();
            match p.solution.get(i + 1) {
                Some(reply) => assert_eq!(
                    answer,
                    Answer::Continue {
                        reply: reply.clone()
                    },
                    "{}",
                    p.id
                ),
                None => assert_eq!(answer, Answer::Solved, "{}", p.id),
            }
        }
        assert!(attempt.is_over(), "{}", p.id);
    }
}

#[test]
fn files_round_trip() {
    let set = shipped();
    let again = PuzzleSet::from_bytes(&set.to_bytes()).unwrap();
    assert_eq!(again.puzzles(), set.puzzles());
    let first = &set.puzzles()[0];
    assert_eq!(again.get(&first.id), Some(first));
}

#[test]
fn pick_finds_an_unseen_puzzle_near_the_rating() {
    let set = shipped();
    let p = set.pick(Variant::Jieqi, 1500.0, |_| false, 7).unwrap();
    assert_eq!(p.variant, Variant::Jieqi);
    let nearest = set
        .puzzles()
        .iter()
        .filter(|q| q.variant == Variant::Jieqi)
        .map(|q| (f64::from(q.rating) - 1500.0).abs())
        .fold(f64::INFINITY, f64::min);
    assert!((f64::from(p.rating) - 1500.0).abs() <= nearest + 400.0);
    let q = set
        .pick(Variant::Jieqi, 1500.0, |id| id == p.id, 7)
        .unwrap();
    assert_ne!(q.id, p.id);
    assert!(set.pick(Variant::Jieqi, 1500.0, |_| true, 7).is_none());
}

#[test]
fn bad_files_are_refused() {
    assert!(PuzzleSet::from_bytes(b"").is_err());
    assert!(PuzzleSet::from_bytes(b"jieqi-puzzles 1\nnot a puzzle\n").is_err());
    assert!(PuzzleSet::from_bytes(&[0x1f, 0x8b, 0, 1, 2]).is_err());
    let bad_fen = XIANGQI_MATE.replace("4k4/", "4k5/");
    assert!(Puzzle::from_line(&bad_fen, 1).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn reading_lines_never_panics(line in "\\PC{0,120}") {
        let _ = Puzzle::from_line(&line, 1);
    }

    #[test]
    fn reading_fields_never_panics(fields in proptest::collection::vec("[ -~]{0,40}", 0..10)) {
        let _ = Puzzle::from_line(&fields.join("\t"), 1);
    }

    #[test]
    fn reading_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = PuzzleSet::from_bytes(&bytes);
    }

    #[test]
    fn typing_anything_never_panics(text in "\\PC{0,12}") {
        let mut attempt = Attempt::new(&puzzle(XIANGQI_MATE)).unwrap();
        let _ = attempt.play(&text);
    }
}
