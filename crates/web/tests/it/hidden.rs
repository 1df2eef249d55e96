//! The promise of `bot.md` on the web: the page, its state, its live stream and its board
//! pictures are built from what the public knows. For random games, a second deal that agrees
//! with everything the first game showed publicly but differs everywhere else gives
//! byte-identical answers (the commitment to the deal aside, which is public and differs by
//! design).

#[path = "../../../service/tests/it/common/deals.rs"]
mod deals;

use std::time::Duration;

use deals::{consistent_deal, random_game};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use proptest::prelude::*;

use crate::harness::{Sse, Table};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// A table on a fixed clock whose game of `variant`, dealt `deal`, has had `typed` played.
async fn played(deal: &str, variant: Variant, typed: &[String]) -> (Table, jieqi_service::GameId) {
    let mut table = Table::new(vec![deal.to_owned()], ["alice", "bob"], |_| {}).await;
    table.fixed_clock = Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000));
    let game = table.start(variant.name()).await;
    for (ply, text) in typed.iter().enumerate() {
        table.play(ply, text).await;
    }
    (table, game)
}

/// The state's commitment (public, and different for every deal by design).
fn commitment_of(state: &str) -> String {
    serde_json::from_str::<serde_json::Value>(state).expect("JSON")["commitment"]
        .as_str()
        .expect("a commitment")
        .to_owned()
}

/// Everything public of a game after `typed`: page, state, first stream event, every board.
fn public_answers(deal: &str, variant: Variant, typed: &[String]) -> Vec<Vec<u8>> {
    runtime().block_on(async {
        let (table, game) = played(deal, variant, typed).await;
        let state = reqwest::get(table.url(&format!("/g/{game}/state?lang=en")))
            .await
            .expect("the state")
            .text()
            .await
            .expect("text");
        let commitment = commitment_of(&state);
        let blank = |text: String| -> Vec<u8> {
            text.replace(&commitment, "<commitment>")
                .replace(&table.base, "<base>")
                .into_bytes()
        };
        let mut answers = vec![blank(state)];
        let page = reqwest::get(table.url(&format!("/g/{game}")))
            .await
            .expect("the page")
            .text()
            .await
            .expect("text");
        answers.push(blank(page));
        let mut stream = Sse::of(Sse::open(&table.url(&format!("/g/{game}/live")), None).await);
        stream.next(Duration::from_secs(5)).await.expect("an event");
        answers.push(blank(stream.raw.clone()));
        for ply in 0..=typed.len() {
            for query in ["w=360", "w=960&o=black&s=symbols"] {
                let png = reqwest::get(table.url(&format!("/g/{game}/board/{ply}.png?{query}")))
                    .await
                    .expect("a board")
                    .bytes()
                    .await
                    .expect("bytes");
                answers.push(png.to_vec());
            }
        }
        answers
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn the_public_page_does_not_depend_on_hidden_pieces(
        banqi in any::<bool>(),
        deal_seed in any::<u64>(),
        move_seed in any::<u64>(),
        plies in 4usize..24,
    ) {
        let variant = if banqi { Variant::Banqi } else { Variant::Jieqi };
        let (deal, typed, record) = random_game(variant, deal_seed, move_seed, plies);
        // A finished game's page publishes its deal, as the chat's result post does.
        let mut game = Game::new(
            Rules::new(variant, Preset::Standard),
            GameDeal::from_letters(variant, &deal).expect("a deal"),
        ).expect("a game");
        for text in &typed {
            game.play_text(text).expect("a legal move");
        }
        prop_assume!(game.outcome().is_none());
        let other = consistent_deal(variant, &deal, &record, deal_seed ^ 1);
        prop_assert_ne!(&deal, &other);
        let one = public_answers(&deal, variant, &typed);
        let two = public_answers(&other, variant, &typed);
        prop_assert_eq!(one.len(), two.len());
        for (i, (a, b)) in one.iter().zip(&two).enumerate() {
            prop_assert!(a == b, "answer {} differs:\n{}\n---\n{}", i,
                String::from_utf8_lossy(a), String::from_utf8_lossy(b));
        }
    }
}

/// A random Jieqi game that takes covered pieces whenever it can (so the players learn
/// secrets): the deal letters and the moves as typed.
fn capturing_game(deal_seed: u64, move_seed: u64, plies: usize) -> (String, Vec<String>) {
    use rand::{Rng, SeedableRng};
    let mut deal_rng = rand_chacha::ChaCha8Rng::seed_from_u64(deal_seed);
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut |n| deal_rng.gen_range(0..n.max(1)));
    let letters = deal.letters();
    let mut game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("game");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(move_seed);
    let mut typed = Vec::new();
    while typed.len() < plies && game.outcome().is_none() {
        let legal = game.legal_move_texts();
        let takes_covered: Vec<&String> = legal
            .iter()
            .filter(|text| {
                let mut trial = game.clone();
                trial.play_text(text).is_ok()
                    && trial.captured_covered_by(trial.history_len() - 1).is_some()
            })
            .collect();
        let choice = if !takes_covered.is_empty() && rng.gen_bool(0.8) {
            takes_covered[rng.gen_range(0..takes_covered.len())].clone()
        } else {
            legal[rng.gen_range(0..legal.len())].clone()
        };
        game.play_text(&choice).expect("a legal move");
        typed.push(choice);
    }
    (letters, typed)
}

/// A different deal agreeing with everything the player of `side` knows after `typed`: what
/// was shown publicly, and the covered pieces that player captured. The pieces the opponent
/// captured covered, like every piece still covered, may differ.
fn deal_the_player_cannot_tell_apart(
    letters: &str,
    typed: &[String],
    side: jieqi_rules::Side,
    seed: u64,
) -> String {
    let mut game = Game::new(
        Rules::new(Variant::Jieqi, Preset::Standard),
        GameDeal::from_letters(Variant::Jieqi, letters).expect("a deal"),
    )
    .expect("a game");
    let squares = deals::jieqi_deal_squares();
    let mut theirs = Vec::new();
    for (ply, text) in typed.iter().enumerate() {
        game.play_text(text).expect("a legal move");
        if let Some((capturer, _)) = game.captured_covered_by(ply)
            && capturer == side
        {
            // A covered piece never moved: it was taken on its dealt point.
            let to: jieqi_rules::Square = text[2..4].parse().expect("a point");
            theirs.push(
                squares
                    .iter()
                    .position(|s| *s == to)
                    .expect("a dealt point"),
            );
        }
    }
    // Shuffle what the public does not know, then put back what the player captured.
    let record = game.move_record_texts();
    let revealed: Vec<usize> = record
        .iter()
        .filter(|m| m.len() == 5)
        .filter_map(|m| squares.iter().position(|s| s.to_string() == m[..2]))
        .collect();
    let other = consistent_deal(Variant::Jieqi, letters, &record, seed);
    let mut chars: Vec<char> = other.chars().collect();
    let original: Vec<char> = letters.chars().collect();
    for &i in &theirs {
        if chars[i] != original[i] {
            // The shuffle moved the letter within the hidden points of its side: swap it back
            // from one that is neither public nor already put back.
            if let Some(j) = (0..chars.len()).find(|&j| {
                j != i
                    && chars[j] == original[i]
                    && !revealed.contains(&j)
                    && !(theirs.contains(&j) && chars[j] == original[j])
            }) {
                chars.swap(i, j);
            }
        }
    }
    chars.into_iter().collect()
}

/// Everything the first player's own page gives them after `typed`: state, first stream
/// event, every board of theirs.
fn player_answers(deal: &str, typed: &[String]) -> Vec<Vec<u8>> {
    runtime().block_on(async {
        let (table, game) = played(deal, Variant::Jieqi, typed).await;
        let red = table.bearer(&game, 0);
        let client = reqwest::Client::new();
        let state = client
            .get(table.url(&format!("/g/{game}/me?lang=en")))
            .header("authorization", &red)
            .send()
            .await
            .expect("the state")
            .text()
            .await
            .expect("text");
        let commitment = commitment_of(&state);
        let blank = |text: String| -> Vec<u8> {
            text.replace(&commitment, "<commitment>")
                .replace(&table.base, "<base>")
                .into_bytes()
        };
        let mut answers = vec![blank(state)];
        let mut stream = Sse::of(
            Sse::open_as(
                &table.url(&format!("/g/{game}/me/live?lang=en")),
                None,
                Some(&red),
            )
            .await,
        );
        stream.next(Duration::from_secs(5)).await.expect("an event");
        answers.push(blank(stream.raw.clone()));
        for ply in 0..=typed.len() {
            let png = client
                .get(table.url(&format!("/g/{game}/me/board/{ply}.png?w=360")))
                .header("authorization", &red)
                .send()
                .await
                .expect("a board")
                .bytes()
                .await
                .expect("bytes");
            answers.push(png.to_vec());
        }
        answers
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    /// A player's page, stream and boards hold only what that player knows: two deals that
    /// agree on it give the same bytes, though the pieces the opponent captured differ.
    #[test]
    fn a_players_page_holds_only_what_that_player_knows(
        deal_seed in any::<u64>(),
        move_seed in any::<u64>(),
        plies in 12usize..40,
    ) {
        let (deal, typed) = capturing_game(deal_seed, move_seed, plies);
        let mut game = Game::new(
            Rules::new(Variant::Jieqi, Preset::Standard),
            GameDeal::from_letters(Variant::Jieqi, &deal).expect("a deal"),
        ).expect("a game");
        let mut red_took = 0;
        for (ply, text) in typed.iter().enumerate() {
            game.play_text(text).expect("a legal move");
            if game.captured_covered_by(ply).is_some_and(|(side, _)| side == jieqi_rules::Side::Red) {
                red_took += 1;
            }
        }
        prop_assume!(game.outcome().is_none());
        let other = deal_the_player_cannot_tell_apart(&deal, &typed, jieqi_rules::Side::Red, deal_seed ^ 1);
        prop_assert_ne!(&deal, &other);
        let one = player_answers(&deal, &typed);
        let two = player_answers(&other, &typed);
        if red_took > 0 {
            // Not vacuous: the page names what Red took.
            let state = String::from_utf8_lossy(&one[0]);
            prop_assert!(state.contains("the covered piece you captured was"), "{}", state);
        }
        prop_assert_eq!(one.len(), two.len());
        for (i, (a, b)) in one.iter().zip(&two).enumerate() {
            prop_assert!(a == b, "answer {} differs:\n{}\n---\n{}", i,
                String::from_utf8_lossy(a), String::from_utf8_lossy(b));
        }
    }
}
