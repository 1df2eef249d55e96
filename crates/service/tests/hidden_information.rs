//! The promise of `bot.md`: nothing public depends on what the public does not know. For
//! random games, a second deal that agrees with everything the first game showed publicly
//! (moved pieces' reveals, Banqi flips) but differs everywhere else gives byte-identical
//! public messages and pictures.

mod common;

use common::deals::{consistent_deal, random_game};
use common::*;
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{DealSource, Destination, Message, MessageKind};
use proptest::prelude::*;

/// Plays `typed` through a service dealing `deal`; returns the public messages before the end.
fn public_output(deal: &str, variant: Variant, typed: &[String]) -> Vec<Message> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let mut h = Harness::new(DealSource::Scripted {
            seed: 1,
            deals: vec![deal.to_owned()],
        })
        .await;
        let (alice, bob) = (user("alice"), user("bob"));
        let chat = group("-600");
        h.start_game(&alice, &bob, &chat, &format!("{} red", variant.name()))
            .await;
        for (ply, text) in typed.iter().enumerate() {
            let who = if ply % 2 == 0 { &alice } else { &bob };
            let answer = h.say(who, &chat, &format!("/move {text}")).await;
            assert!(answer.replies.is_empty(), "{text}: {answer:#?}");
        }
        h.deliver().await;
        h.delivered
            .iter()
            .map(|e| e.message.clone())
            .filter(|m| matches!(m.to, Destination::Chat(_)))
            .filter(|m| !matches!(m.kind, MessageKind::Result | MessageKind::History))
            .map(|mut m| {
                let hex: Option<String> = m
                    .text
                    .split(|c: char| !c.is_ascii_hexdigit())
                    .find(|w| w.len() == 64)
                    .map(str::to_owned);
                if let Some(hex) = hex {
                    m.text = m.text.replace(&hex, "<commitment>");
                }
                m
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn public_output_does_not_depend_on_hidden_pieces(
        banqi in any::<bool>(),
        deal_seed in any::<u64>(),
        move_seed in any::<u64>(),
        plies in 6usize..30,
    ) {
        let variant = if banqi { Variant::Banqi } else { Variant::Jieqi };
        let (deal, typed, record) = random_game(variant, deal_seed, move_seed, plies);
        let other = consistent_deal(variant, &deal, &record, deal_seed ^ 1);
        prop_assert_ne!(&deal, &other);
        // The other deal replays the same record: the same reveals, the same legal moves.
        let mut replayed = Game::new(
            Rules::new(variant, Preset::Standard),
            GameDeal::from_letters(variant, &other).expect("a valid deal"),
        ).expect("game");
        for text in &typed {
            replayed.play_text(text).expect("same legal moves");
        }
        prop_assert_eq!(&replayed.move_record_texts(), &record);

        let one = public_output(&deal, variant, &typed);
        let two = public_output(&other, variant, &typed);
        prop_assert_eq!(one.len(), two.len());
        prop_assert!(one.iter().filter(|m| m.image.is_some()).count() > typed.len() / 2);
        for (a, b) in one.iter().zip(&two) {
            prop_assert_eq!(a, b);
        }
    }
}
