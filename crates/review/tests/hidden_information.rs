//! A review judges each move from what its mover knew: a reveal decides this game, and the
//! move that met the bad luck is not called a mistake.

use std::time::Duration;

use jieqi_review::{Colour, GameReview, Judgement, REVIEW_BUDGET, Reviewer};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Side, Variant, Viewer};

/// Node-bound (the time cap far away), so the same views always get the same verdicts.
fn reviewer() -> Reviewer {
    Reviewer::with_budget(jieqi_engine::Budget {
        nodes: 20_000,
        movetime: Duration::from_secs(60),
        ..REVIEW_BUDGET
    })
}

/// The identity deal with two of Red's covered pieces swapped: Black's 15 (rank 9, 7, 6)
/// then Red's 15 (rank 3, 2, 0), in FEN reading order. `h2` is the seventh of Red's.
fn deal(red: &str) -> GameDeal {
    let letters = format!("rheaaehrccppppp{red}");
    GameDeal::from_letters(Variant::Jieqi, &letters).expect("a deal")
}

fn review(deal: &GameDeal, moves: &[String]) -> GameReview {
    reviewer()
        .review(
            Rules::new(Variant::Jieqi, Preset::Standard),
            deal.clone(),
            moves,
        )
        .expect("a review")
}

#[test]
fn a_chariot_lost_to_its_own_reveal_is_not_called_a_mistake() {
    // 1. The covered piece on Red's cannon point takes Black's covered piece on h9 (moving as
    // a cannon, turning face up), and Black's covered corner piece takes it back. Under the
    // unlucky deal the piece Red gave was a chariot; under the lucky one a soldier.
    let unlucky = deal("PPPPPCRCHEAAEHR"); // h2 is a chariot, a0 a cannon
    let lucky = deal("CPPPPCPRHEAAEHR"); // h2 is a soldier, a3 a cannon
    let moves: Vec<String> = {
        let mut game = Game::new(
            Rules::new(Variant::Jieqi, Preset::Standard),
            unlucky.clone(),
        )
        .expect("a game");
        game.play_text("h2h9").expect("the cannon-point capture");
        game.play_text("i9h9").expect("the recapture");
        game.move_record_texts()
    };
    assert_eq!(moves[0], "h2h9r", "the unlucky deal reveals a chariot");
    let lucky_moves: Vec<String> = {
        let mut game =
            Game::new(Rules::new(Variant::Jieqi, Preset::Standard), lucky.clone()).expect("a game");
        game.play_text("h2h9").expect("the cannon-point capture");
        game.play_text("i9h9").expect("the recapture");
        game.move_record_texts()
    };
    assert_eq!(lucky_moves[0], "h2h9p", "the lucky deal reveals a soldier");

    let bad = review(&unlucky, &moves);
    let good = review(&lucky, &lucky_moves);

    // The reveal decided the material: after the recapture Red stands far worse in the
    // unlucky game (a chariot gone, not a soldier), as the next mover sees it.
    let (bad_after, good_after) = (bad.evaluation_red()[2], good.evaluation_red()[2]);
    assert!(
        good_after - bad_after >= 300,
        "the reveal should matter: {bad_after} against {good_after}"
    );

    // Red's move is judged on Red's view before it, the same under both deals: the same
    // verdict, and not a mistake, however it turned out.
    let (first_bad, first_good) = (&bad.moves[0], &good.moves[0]);
    assert_eq!(first_bad.mover, Some(Colour::Red));
    assert_eq!(first_bad.before, first_good.before);
    assert_eq!(first_bad.after, first_good.after);
    assert_eq!(first_bad.best, first_good.best);
    assert!(
        first_bad.judgement() < Judgement::Mistake,
        "luck called a mistake: {first_bad:?}"
    );
    // Hindsight would have called it one: Red's evaluation fell by more than a mistake's
    // worth between before the move and after the recapture.
    let hindsight =
        jieqi_review::judge::win_percent(jieqi_review::Eval::Centi(bad.evaluation_red()[0]))
            - jieqi_review::judge::win_percent(jieqi_review::Eval::Centi(bad_after));
    assert!(hindsight >= 10.0, "hindsight drop {hindsight}");
}

#[test]
fn a_verdict_depends_only_on_the_movers_view() {
    // Two deals that differ in pieces nobody has seen yet: wherever the mover's views agree,
    // the verdicts agree, whatever the covered pieces turn out to be later.
    let first = deal("PPPPPCRCHEAAEHR");
    let second = deal("CPPPPCPRHEAAEHR");
    let line = ["b2b9", "a9b9", "h0g2", "h9g7", "b0c2", "c6c5"];
    let play = |deal: &GameDeal| {
        let mut game =
            Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal.clone()).expect("a game");
        let mut views = Vec::new();
        for text in line {
            let side = game.side_to_move().expect("a side to move");
            views.push(game.view(Viewer::Player(side)));
            game.play_text(text).expect("a legal move");
        }
        (game.move_record_texts(), views)
    };
    let (moves_a, views_a) = play(&first);
    let (moves_b, views_b) = play(&second);
    let (a, b) = (review(&first, &moves_a), review(&second, &moves_b));
    let mut compared = 0;
    for ply in 0..line.len() {
        if views_a[ply] == views_b[ply] {
            assert_eq!(a.moves[ply].before, b.moves[ply].before, "ply {ply}");
            assert_eq!(a.moves[ply].after, b.moves[ply].after, "ply {ply}");
            assert_eq!(a.moves[ply].best, b.moves[ply].best, "ply {ply}");
            compared += 1;
        }
    }
    assert!(compared >= 2, "the deals should agree on some views");
    assert_eq!(a.moves[0].mover.map(Side::from), Some(Side::Red));
}
