//! The promise of `bot.md`: nothing public depends on what the public does not know. For
//! random games, a second deal that agrees with everything the first game showed publicly
//! (moved pieces' reveals, Banqi flips) but differs everywhere else gives byte-identical
//! public messages and pictures. Under `secret-captures` ("nobody sees") the same holds for
//! every message to anyone, the capturer's private messages and `/peek` included, until the
//! game ends.

use super::common;

use common::deals::{consistent_deal, random_game};
use common::*;
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{DealSource, Destination, Message, MessageKind};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random Jieqi game that captures covered pieces where it can and stops before its end:
/// the deal letters, the moves as typed, the stored record, and how many covered pieces were
/// captured.
fn capturing_game(
    deal_seed: u64,
    move_seed: u64,
    plies: usize,
) -> (String, Vec<String>, Vec<String>, usize) {
    let mut deal_rng = ChaCha8Rng::seed_from_u64(deal_seed);
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut |n| deal_rng.gen_range(0..n.max(1)));
    let letters = deal.letters();
    let mut rules = Rules::new(Variant::Jieqi, Preset::Standard);
    rules.captured_covered_visible_to = jieqi_rules::CapturedCoveredVisibleTo::Nobody;
    let mut game = Game::new(rules, deal).expect("game");
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    let mut typed = Vec::new();
    let mut covered_captures = 0;
    while typed.len() < plies {
        // Moves that do not end the game, covered captures first.
        let mut options: Vec<(bool, String)> = Vec::new();
        for text in game.legal_move_texts() {
            let mut after = game.clone();
            after.play_text(&text).expect("legal move");
            if after.outcome().is_none() {
                let covered = after.captured_covered_by(game.ply()).is_some();
                options.push((covered, text));
            }
        }
        let captures: Vec<&String> = options.iter().filter(|(c, _)| *c).map(|(_, t)| t).collect();
        let choice = if !captures.is_empty() && rng.gen_bool(0.8) {
            covered_captures += 1;
            captures[rng.gen_range(0..captures.len())].clone()
        } else if let Some((covered, text)) = options.get(rng.gen_range(0..options.len().max(1))) {
            covered_captures += usize::from(*covered);
            text.clone()
        } else {
            break;
        };
        game.play_text(&choice).expect("legal move");
        typed.push(choice);
    }
    (letters, typed, game.move_record_texts(), covered_captures)
}

/// Plays `typed` through a service dealing `deal`; returns the public messages before the end.
fn public_output(deal: &str, variant: Variant, typed: &[String]) -> Vec<Message> {
    output(deal, &format!("{} red", variant.name()), typed, false)
}

/// Plays `typed` through a service dealing `deal` on challenge `terms`; returns the messages
/// before the end: to the chat only, or (`everyone`) to anyone, each player's `/peek` after
/// every move included.
fn output(deal: &str, terms: &str, typed: &[String], everyone: bool) -> Vec<Message> {
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
        h.start_game(&alice, &bob, &chat, terms).await;
        let mut replies = Vec::new();
        for (ply, text) in typed.iter().enumerate() {
            let who = if ply % 2 == 0 { &alice } else { &bob };
            let answer = h.say(who, &chat, &format!("/move {text}")).await;
            assert!(answer.replies.is_empty(), "{text}: {answer:#?}");
            if everyone {
                for player in [&alice, &bob] {
                    let answer = h.say(player, &chat, "/peek").await;
                    replies.extend(answer.replies);
                }
            }
        }
        h.deliver().await;
        h.delivered
            .iter()
            .map(|e| e.message.clone())
            .filter(|m| everyone || matches!(m.to, Destination::Chat(_)))
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
            .chain(replies)
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn under_secret_captures_no_output_to_anyone_depends_on_a_captured_covered_piece(
        deal_seed in any::<u64>(),
        move_seed in any::<u64>(),
        plies in 16usize..36,
    ) {
        let (deal, typed, record, covered_captures) = capturing_game(deal_seed, move_seed, plies);
        prop_assume!(covered_captures > 0);
        let other = consistent_deal(Variant::Jieqi, &deal, &record, deal_seed ^ 1);
        prop_assert_ne!(&deal, &other);
        let terms = "jieqi red secret-captures";
        let one = output(&deal, terms, &typed, true);
        let two = output(&other, terms, &typed, true);
        let private = one.iter().filter(|m| matches!(m.to, Destination::Private(_))).count();
        prop_assert!(private >= 2 * typed.len(), "every /peek answered privately");
        prop_assert_eq!(one.len(), two.len());
        for (a, b) in one.iter().zip(&two) {
            prop_assert_eq!(a, b);
        }
        // The same game without the option does tell the capturer: the property is not empty.
        let told = output(&deal, "jieqi red", &typed, true);
        prop_assert!(told.iter().any(|m| m.kind == MessageKind::Reveal));
        prop_assert!(one.iter().all(|m| m.kind != MessageKind::Reveal));
    }
}
