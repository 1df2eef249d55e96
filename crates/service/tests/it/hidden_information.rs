//! The promise of `bot.md`: nothing public depends on what the public does not know. For
//! random games, a second deal that agrees with everything the first game showed publicly
//! (moved pieces' reveals, Banqi flips) but differs everywhere else gives byte-identical
//! public messages and pictures.

use crate::common;

use common::*;
use jieqi_rules::{Cell, Game, GameDeal, Preset, Rules, Setup, Square, Variant};
use jieqi_service::{DealSource, Destination, Message, MessageKind};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Index in the deal letters of every covered start point, in FEN reading order.
fn jieqi_deal_squares() -> Vec<Square> {
    let setup = Setup::jieqi_start();
    let mut squares = Vec::new();
    for rank in (0..10).rev() {
        for file in 0..9 {
            let square = Square::from_coords(file, rank).expect("on the board");
            if matches!(setup.board[square.index()], Cell::Covered(_)) {
                squares.push(square);
            }
        }
    }
    squares
}

/// A random game: the deal letters and the moves as typed.
fn random_game(
    variant: Variant,
    deal_seed: u64,
    move_seed: u64,
    plies: usize,
) -> (String, Vec<String>, Vec<String>) {
    let mut deal_rng = ChaCha8Rng::seed_from_u64(deal_seed);
    let deal = GameDeal::shuffled(variant, &mut |n| deal_rng.gen_range(0..n.max(1)));
    let letters = deal.letters();
    let mut game = Game::new(Rules::new(variant, Preset::Standard), deal).expect("game");
    let mut rng = ChaCha8Rng::seed_from_u64(move_seed);
    let mut typed = Vec::new();
    while typed.len() < plies && game.outcome().is_none() {
        let legal = game.legal_move_texts();
        let choice = legal[rng.gen_range(0..legal.len())].clone();
        game.play_text(&choice).expect("legal move");
        typed.push(choice);
    }
    (letters, typed, game.move_record_texts())
}

/// A different deal that agrees with everything `record` showed publicly.
fn consistent_deal(variant: Variant, letters: &str, record: &[String], seed: u64) -> String {
    let mut letters: Vec<char> = letters.chars().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hidden: Vec<usize> = match variant {
        Variant::Jieqi => {
            let squares = jieqi_deal_squares();
            // A move whose record carries a reveal letter turned its piece face up.
            let revealed: Vec<String> = record
                .iter()
                .filter(|m| m.len() == 5)
                .map(|m| m[..2].to_owned())
                .collect();
            (0..letters.len())
                .filter(|&i| !revealed.contains(&squares[i].to_string()))
                .collect()
        }
        _ => {
            let flipped: Vec<String> = record
                .iter()
                .filter_map(|m| m.split_once('=').map(|(sq, _)| sq.to_owned()))
                .collect();
            (0..32)
                .filter(|&i| {
                    let (rank, file) = (4 - i / 8, i % 8);
                    let square = format!("{}{}", char::from(b'a' + file as u8), rank);
                    !flipped.contains(&square)
                })
                .collect()
        }
    };
    // Jieqi: shuffle within each side (case); Banqi: face-down pieces have no known colour.
    let groups: Vec<Vec<usize>> = if variant == Variant::Jieqi {
        vec![
            hidden
                .iter()
                .copied()
                .filter(|&i| letters[i].is_lowercase())
                .collect(),
            hidden
                .iter()
                .copied()
                .filter(|&i| letters[i].is_uppercase())
                .collect(),
        ]
    } else {
        vec![hidden]
    };
    for group in groups {
        let mut values: Vec<char> = group.iter().map(|&i| letters[i]).collect();
        values.shuffle(&mut rng);
        for (&i, v) in group.iter().zip(values) {
            letters[i] = v;
        }
    }
    letters.into_iter().collect()
}

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
