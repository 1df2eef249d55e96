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

/// Everything public of a game after `typed`: page, state, first stream event, every board.
fn public_answers(deal: &str, variant: Variant, typed: &[String]) -> Vec<Vec<u8>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let mut table = Table::new(vec![deal.to_owned()], ["alice", "bob"], |_| {}).await;
        table.fixed_clock =
            Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000));
        let game = table.start(variant.name()).await;
        for (ply, text) in typed.iter().enumerate() {
            table.play(ply, text).await;
        }
        let state = reqwest::get(table.url(&format!("/g/{game}/state?lang=en")))
            .await
            .expect("the state")
            .text()
            .await
            .expect("text");
        let commitment =
            serde_json::from_str::<serde_json::Value>(&state).expect("JSON")["commitment"]
                .as_str()
                .expect("a commitment")
                .to_owned();
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
