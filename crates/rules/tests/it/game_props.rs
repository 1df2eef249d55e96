//! Properties of random Jieqi games: FENs round-trip, legal moves never expose the mover's
//! general, and what the public (or one player) sees depends only on what it knows.

use std::collections::HashSet;

use jieqi_rules::notation::MoveNotation;
use jieqi_rules::notation::fen::{read_full, write_full};
use jieqi_rules::{
    CapturedCoveredVisibleTo, Cell, Deal, Game, GameDeal, GameMove, MoveOptions, Piece, Position,
    Preset, Rules, Setup, Side, Square, Variant, View, Viewer,
};
use proptest::prelude::*;

/// A seeded SplitMix64 `pick(n)`, uniform enough for tests.
fn seeded_pick(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed;
    move |n: u32| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % u64::from(n.max(1))) as u32
    }
}

fn rules(visibility: CapturedCoveredVisibleTo) -> Rules {
    let mut rules = Rules::new(Variant::Jieqi, Preset::Standard);
    rules.captured_covered_visible_to = visibility;
    // After the end the deal is public, which is allowed to change public output; keep it
    // hidden so that every ply must pass the comparison.
    rules.reveal_deal_at_end = false;
    rules
}

fn visibility(index: usize) -> CapturedCoveredVisibleTo {
    CapturedCoveredVisibleTo::ALL[index % CapturedCoveredVisibleTo::ALL.len()]
}

/// Plays the move `choices[i] % legal` at each ply until the choices run out or the game
/// ends; returns the moves played.
fn random_moves(game: &mut Game, choices: &[u32]) -> Vec<GameMove> {
    let mut played = Vec::new();
    for &choice in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[choice as usize % legal.len()];
        game.play(mv).expect("a legal move plays");
        played.push(mv);
    }
    played
}

/// Everything `viewer` may see after a ply: the view, the last move's text in every
/// notation, and the legal moves.
fn observation(game: &Game, viewer: Viewer) -> (View, Vec<String>, Vec<String>) {
    let texts = match game.history_len().checked_sub(1) {
        Some(ply) => MoveNotation::ALL
            .iter()
            .map(|&n| game.move_text(ply, n, viewer).unwrap_or_default())
            .collect(),
        None => Vec::new(),
    };
    (game.view(viewer), texts, game.legal_move_texts())
}

/// The text of every move so far in every notation, as `viewer` reads them.
fn all_move_texts(game: &Game, viewer: Viewer) -> Vec<Option<String>> {
    (0..game.history_len())
        .flat_map(|ply| MoveNotation::ALL.map(|n| game.move_text(ply, n, viewer)))
        .collect()
}

/// Start points whose covered piece `viewer` never learned the type of by the end of `game`:
/// never revealed by a move, and not a captured piece `viewer` was told about.
fn hidden_points(game: &Game, viewer: Viewer) -> HashSet<Square> {
    let records = game.move_record_texts();
    let mut hidden: HashSet<Square> = Setup::jieqi_start()
        .board
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, Cell::Covered(_)))
        .filter_map(|(i, _)| Square::from_index(i))
        .collect();
    for (ply, text) in records.iter().enumerate() {
        let from: Square = text[0..2].parse().expect("stored coordinates");
        let to: Square = text[2..4].parse().expect("stored coordinates");
        if text.len() == 5 {
            hidden.remove(&from);
        }
        if let Some((capturer, _)) = game.captured_covered_by(ply) {
            let told = match game.rules().captured_covered_visible_to {
                CapturedCoveredVisibleTo::Everyone => true,
                CapturedCoveredVisibleTo::Nobody => false,
                CapturedCoveredVisibleTo::Capturer => viewer == Viewer::Player(capturer),
            };
            if told {
                hidden.remove(&to);
            }
        }
    }
    hidden
}

/// `deal` with the pieces on `hidden` points shuffled among themselves, side by side.
fn reshuffled(deal: &Deal, hidden: &HashSet<Square>, seed: u64) -> Deal {
    let mut pick = seeded_pick(seed);
    let mut pieces = deal.pieces();
    for side in Side::ALL {
        let slots: Vec<usize> = (0..pieces.len())
            .filter(|&i| pieces[i].1.side == side && hidden.contains(&pieces[i].0))
            .collect();
        let mut pool: Vec<Piece> = slots.iter().map(|&i| pieces[i].1).collect();
        for i in (1..pool.len()).rev() {
            let j = pick(i as u32 + 1) as usize;
            pool.swap(i, j);
        }
        for (&slot, piece) in slots.iter().zip(pool) {
            pieces[slot].1 = piece;
        }
    }
    let letters: Vec<Piece> = pieces.into_iter().map(|(_, p)| p).collect();
    Deal::from_pieces(&Setup::jieqi_start(), &letters).expect("a permutation of a deal is a deal")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, .. ProptestConfig::default() })]

    /// At every ply the full FEN reads back to the same position (same FEN, same legal
    /// moves), and no legal move leaves the mover's general attacked.
    #[test]
    fn full_fen_round_trips_and_no_legal_move_exposes_the_general(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 0..80),
        vis in 0usize..3,
    ) {
        let rules = rules(visibility(vis));
        let deal = GameDeal::shuffled(Variant::Jieqi, &mut seeded_pick(seed));
        let mut game = Game::new(rules.clone(), deal).expect("valid start");
        for &choice in &choices {
            let fen = game.fen(Viewer::Full);
            let (setup, pieces) = read_full(&fen).expect("the full FEN reads back");
            let pieces = pieces.unwrap_or_default();
            let letters: String = pieces.iter().map(|p| p.char()).collect();
            prop_assert_eq!(write_full(&setup, &letters), fen.clone());
            let copy = Game::from_fen(rules.clone(), &fen).expect("the full FEN starts a game");
            prop_assert_eq!(copy.fen(Viewer::Full), fen.clone());

            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            prop_assert_eq!(copy.legal_moves(), legal.clone());

            let dealt = Deal::from_pieces(&setup, &pieces).expect("the deal field fits");
            let options = MoveOptions { covered_advisor_may_leave_palace: false };
            let position = Position::from_setup(setup.clone(), Variant::Jieqi, options)
                .expect("the full FEN is a valid position");
            let mover = position.side_to_move();
            for mv in &legal {
                let GameMove::Board(mv) = *mv else {
                    return Err(TestCaseError::fail("a Jieqi game offered a Banqi move"));
                };
                let mut after = position.clone();
                let _ = after.play_with_deal(mv, &dealt);
                let general = after.general(mover).expect("the mover keeps its general");
                prop_assert!(!after.is_attacked(general, !mover), "{} exposes the general in {}", mv, fen);
            }
            let mv = legal[choice as usize % legal.len()];
            game.play(mv).expect("a legal move plays");
        }
    }

    /// Replaying the same moves under another deal that agrees with everything `viewer`
    /// knows gives `viewer` exactly the same views, move texts and legal moves at every ply.
    #[test]
    fn views_depend_only_on_what_the_viewer_knows(
        seed in any::<u64>(),
        reshuffle_seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 0..80),
        vis in 0usize..3,
    ) {
        let rules = rules(visibility(vis));
        let GameDeal::Jieqi(deal) = GameDeal::shuffled(Variant::Jieqi, &mut seeded_pick(seed)) else {
            return Err(TestCaseError::fail("a Jieqi deal"));
        };
        let mut game = Game::new(rules.clone(), GameDeal::Jieqi(deal.clone())).expect("valid start");
        let viewers = [Viewer::Public, Viewer::Player(Side::Red), Viewer::Player(Side::Black)];
        let mut seen: Vec<Vec<_>> = vec![viewers.iter().map(|&v| observation(&game, v)).collect()];
        let moves = {
            let mut moves = Vec::new();
            for &choice in &choices {
                let played = random_moves(&mut game, &[choice]);
                if played.is_empty() {
                    break;
                }
                moves.extend(played);
                seen.push(viewers.iter().map(|&v| observation(&game, v)).collect());
            }
            moves
        };
        for (k, &viewer) in viewers.iter().enumerate() {
            let hidden = hidden_points(&game, viewer);
            let other = reshuffled(&deal, &hidden, reshuffle_seed ^ k as u64);
            let mut twin = Game::new(rules.clone(), GameDeal::Jieqi(other)).expect("valid start");
            prop_assert_eq!(&observation(&twin, viewer), &seen[0][k]);
            for (ply, &mv) in moves.iter().enumerate() {
                prop_assert!(twin.play(mv).is_ok(), "{} refused under the other deal", mv);
                prop_assert_eq!(&observation(&twin, viewer), &seen[ply + 1][k], "{:?} after ply {}", viewer, ply + 1);
            }
            // Earlier moves read the same at the end too.
            prop_assert_eq!(all_move_texts(&twin, viewer), all_move_texts(&game, viewer));
        }
    }
}
