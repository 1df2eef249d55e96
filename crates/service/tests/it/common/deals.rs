//! Random games and the deals the public cannot tell apart from theirs: the tests of the
//! promise that nothing public depends on the hidden pieces (the chat's messages here, the
//! web page in `jieqi-web`, which includes this file) play both deals and compare.

use jieqi_rules::{Cell, Game, GameDeal, Preset, Rules, Setup, Square, Variant};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Index in the deal letters of every covered start point, in FEN reading order.
pub fn jieqi_deal_squares() -> Vec<Square> {
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
pub fn random_game(
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

/// A different deal that agrees with everything `record` showed publicly (the same deal only
/// where no other one does).
pub fn consistent_deal(variant: Variant, letters: &str, record: &[String], seed: u64) -> String {
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
    let original = letters.clone();
    // A shuffle may give back the deal it started from (few pieces left hidden, most of them
    // alike): shuffle again while another deal exists, so that callers comparing the two games
    // compare two deals.
    let another_exists = groups
        .iter()
        .any(|group| group.windows(2).any(|w| original[w[0]] != original[w[1]]));
    loop {
        for group in &groups {
            let mut values: Vec<char> = group.iter().map(|&i| letters[i]).collect();
            values.shuffle(&mut rng);
            for (&i, v) in group.iter().zip(values) {
                letters[i] = v;
            }
        }
        if letters != original || !another_exists {
            return letters.into_iter().collect();
        }
    }
}
