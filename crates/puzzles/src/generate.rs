//! The generator: seeded engine self-play, every position scanned by [`crate::solve::find`]
//! (so every kept puzzle is verified sound and unique), the line played out under the game's
//! real deal, and an initial rating from the engine's effort.
//!
//! Rating, from two measures of search effort: the engine (no noise) searches the start
//! position with a node budget of 32, 64, ... 131,072 nodes, and the first budget at which it
//! plays the solution's first move counts 125 points per doubling (1,600 if it never does);
//! the verifier's proof that the first move wins against every deal counts 60 points per
//! doubling of its nodes. Rating = 740 + both, clamped to 800..2400. A mate in one that the
//! engine sees at once is 800.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use jieqi_engine::{Budget, Engine, Level};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::arena::{Arena, BanqiArena, BoardArena};
use crate::puzzle::{Puzzle, Start, Theme};
use crate::solve::{self, Budgets, Found};
use crate::verify::{BANQI_MATERIAL_GAIN, Goal, MATERIAL_GAIN, Verifier};

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct GenerateOptions {
    /// The game.
    pub variant: Variant,
    /// How many puzzles to keep.
    pub count: usize,
    /// The seed of everything random (deals, engine choices): same seed, same puzzles.
    pub seed: u64,
    /// Stop after this many games even if `count` is not reached.
    pub max_games: usize,
    /// Search budgets.
    pub budgets: Budgets,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The puzzles kept.
    pub puzzles: Vec<Puzzle>,
    /// Games played.
    pub games: usize,
    /// Positions scanned.
    pub positions: usize,
    /// Positions where a unique verified tactic was found but its line could not be played
    /// out within budget (dropped).
    pub dropped_lines: usize,
    /// Candidates skipped because their theme already had its share.
    pub over_quota: usize,
    /// Time spent.
    pub elapsed: Duration,
}

impl Summary {
    /// Puzzles per theme and length.
    pub fn by_theme(&self) -> BTreeMap<(Theme, u8), usize> {
        let mut counts = BTreeMap::new();
        for p in &self.puzzles {
            *counts.entry((p.theme, p.moves)).or_insert(0) += 1;
        }
        counts
    }
}

const MAX_PLIES: usize = 220;
const FIRST_SCANNED_PLY: usize = 6;
/// No theme-and-length class may take more than this share of the puzzles.
const QUOTA: f64 = 0.4;

fn engine_level(rng: &mut ChaCha8Rng) -> Level {
    if rng.gen_bool(0.6) {
        Level::Novice
    } else {
        Level::Casual
    }
}

/// Runs the generator; `progress` is called after each game.
pub fn generate(options: GenerateOptions, mut progress: impl FnMut(&Summary)) -> Summary {
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut seen_positions = HashSet::new();
    let rules = Rules::new(options.variant, Preset::Standard);
    while summary.puzzles.len() < options.count && summary.games < options.max_games {
        let game_seed: u64 = rng.r#gen();
        let mut grng = ChaCha8Rng::seed_from_u64(game_seed);
        let deal = GameDeal::shuffled(options.variant, &mut |n| grng.gen_range(0..n.max(1)));
        let Ok(mut game) = Game::new(rules.clone(), deal) else {
            break;
        };
        // Node budgets only (no time limit), so that a loaded machine plays the same games.
        let mut engines = [0, 1].map(|_| {
            let level = engine_level(&mut grng);
            let budget = Budget {
                movetime: Duration::from_secs(600),
                ..level.budget()
            };
            Engine::with_budget(level, budget, grng.r#gen())
        });
        summary.games += 1;
        while game.outcome().is_none() && game.ply() < MAX_PLIES {
            let side = game.side_to_move();
            if let Some(side) = side
                && game.ply() >= FIRST_SCANNED_PLY
                && summary.puzzles.len() < options.count
            {
                summary.positions += 1;
                scan(&game, side, options, &mut seen_positions, &mut summary);
            }
            let viewer = side.map_or(Viewer::Public, Viewer::Player);
            let view = game.view(viewer);
            let legal = game.legal_moves();
            let i = game.ply() % 2;
            let Ok(mv) = engines[i].choose(&view, &legal) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        summary.elapsed = started.elapsed();
        progress(&summary);
    }
    summary.elapsed = started.elapsed();
    summary
}

fn scan(
    game: &Game,
    side: jieqi_rules::Side,
    options: GenerateOptions,
    seen: &mut HashSet<String>,
    summary: &mut Summary,
) {
    let variant = options.variant;
    let fen = match variant {
        Variant::Banqi => game.fen(Viewer::Public),
        _ => game.fen(Viewer::Player(side)),
    };
    let key: String = fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    if !seen.insert(key) {
        return;
    }
    let full = game.fen(Viewer::Full);
    let deal = if full.split_whitespace().count() > fen.split_whitespace().count() {
        full.split_whitespace().last().unwrap_or("").to_owned()
    } else {
        String::new()
    };
    let deal = if deal == "-" { String::new() } else { deal };
    let Ok(start) = Start::read(variant, &fen, &deal) else {
        return;
    };
    let found = match start {
        Start::Board {
            setup,
            variant,
            deal,
        } => {
            let Ok(mut arena) = BoardArena::new(&setup, variant) else {
                return;
            };
            let Some(found) = solve::find(&mut arena, MATERIAL_GAIN, options.budgets) else {
                return;
            };
            let goal = goal_of(&found, variant);
            let mut real = |a: &mut BoardArena, mv| a.play_real(mv, &deal, side);
            solve::line(
                &mut arena,
                goal,
                found.first,
                options.budgets.prove,
                &mut real,
            )
            .map(|line| (found.theme, found.moves, line))
        }
        Start::Banqi { position, deal } => {
            let Ok(mut arena) = BanqiArena::new(position) else {
                return;
            };
            let Some(found) = solve::find(&mut arena, BANQI_MATERIAL_GAIN, options.budgets) else {
                return;
            };
            let goal = goal_of(&found, variant);
            let mut real = |a: &mut BanqiArena, mv| a.play_real(mv, &deal);
            solve::line(
                &mut arena,
                goal,
                found.first,
                options.budgets.prove,
                &mut real,
            )
            .map(|line| (found.theme, found.moves, line))
        }
    };
    let Some((theme, moves, line)) = found else {
        summary.dropped_lines += 1;
        return;
    };
    let class = summary
        .puzzles
        .iter()
        .filter(|p| p.theme == theme && p.moves == moves)
        .count();
    if class as f64 >= QUOTA * options.count as f64 {
        summary.over_quota += 1;
        return;
    }
    let mut puzzle = Puzzle::new(variant, theme, moves, 0, fen, deal, line);
    puzzle.rating = rate(&puzzle);
    summary.puzzles.push(puzzle);
}

fn goal_of<M>(found: &Found<M>, variant: Variant) -> Option<crate::verify::Goal> {
    let probe = Puzzle::new(
        variant,
        found.theme,
        found.moves,
        0,
        String::new(),
        String::new(),
        Vec::new(),
    );
    probe.goal()
}

/// The initial rating of `puzzle` from the engine's effort (see the module documentation).
pub fn rate(puzzle: &Puzzle) -> u16 {
    let Ok(game) = puzzle.game() else {
        return 2400;
    };
    let Some(first) = puzzle.solution.first() else {
        return 2400;
    };
    let first = match first.split_once('=') {
        Some((bare, _)) => bare,
        None => first.get(..4).unwrap_or(first),
    };
    let proof = 60.0 * (1.0 + proof_nodes(puzzle) as f64).log2();
    let rating = |engine: f64| (740.0 + engine + proof).clamp(800.0, 2400.0) as u16;
    let view = game.view(Viewer::Player(puzzle.side_to_move()));
    let legal = game.legal_moves();
    for k in 0..=12u16 {
        let budget = Budget {
            nodes: 32 << k,
            movetime: Duration::from_secs(600),
            max_depth: 64,
            noise: 0,
            chance_plies: 1,
        };
        let mut engine = Engine::with_budget(Level::Master, budget, 1);
        if let Ok(mv) = engine.choose(&view, &legal)
            && mv.to_string() == first
        {
            return rating(125.0 * f64::from(k));
        }
    }
    rating(1600.0)
}

/// The verifier's effort to prove that the puzzle's first move wins (for defence: that it is
/// the only one that holds), in nodes.
pub fn proof_nodes(puzzle: &Puzzle) -> u64 {
    fn prove<A: Arena>(arena: &mut A, puzzle: &Puzzle) -> u64 {
        let first = puzzle.solution.first().map(|t| match t.split_once('=') {
            Some((bare, _)) => bare.to_owned(),
            None => t.get(..4).unwrap_or(t).to_owned(),
        });
        let mut moves = Vec::new();
        arena.moves(&mut moves);
        let Some(mv) = moves
            .into_iter()
            .find(|m| Some(arena.move_text(*m)) == first)
        else {
            return 0;
        };
        let Some(goal) = puzzle.goal() else {
            let mut spent = 0;
            let mut moves = Vec::new();
            arena.moves(&mut moves);
            let _ = solve::defence_counted(arena, &moves, 10_000_000, &mut spent);
            return spent;
        };
        let mut v = Verifier::new(arena, 10_000_000);
        let _ = v.move_wins(mv, goal);
        v.nodes()
    }
    match puzzle.start() {
        Ok(Start::Board { setup, variant, .. }) => match BoardArena::new(&setup, variant) {
            Ok(mut a) => prove(&mut a, puzzle),
            Err(_) => 0,
        },
        Ok(Start::Banqi { position, .. }) => match BanqiArena::new(position) {
            Ok(mut a) => prove(&mut a, puzzle),
            Err(_) => 0,
        },
        Err(_) => 0,
    }
}

/// Re-verifies a puzzle from scratch: its first move is the only one that wins its task
/// against every deal consistent with the solver's view (for defence: the only one that
/// holds). `Ok(false)` means unsound or not unique; `Err` means the budget ran out.
pub fn reverify(puzzle: &Puzzle, budgets: Budgets) -> Result<bool, String> {
    let first = puzzle
        .solution
        .first()
        .map(|t| match t.split_once('=') {
            Some((bare, _)) => bare.to_owned(),
            None => t.get(..4).unwrap_or(t).to_owned(),
        })
        .ok_or("no solution")?;
    let start = puzzle.start().map_err(|e| e.to_string())?;
    let solver = puzzle.side_to_move();
    match start {
        Start::Board {
            setup,
            variant,
            deal,
        } => {
            let mut arena = BoardArena::new(&setup, variant)?;
            let mut real = |a: &mut BoardArena, mv| a.play_real(mv, &deal, solver);
            Ok(check_found(&mut arena, puzzle, &first, budgets)?
                && check_line(&mut arena, puzzle, budgets, &mut real)?)
        }
        Start::Banqi { position, deal } => {
            let mut arena = BanqiArena::new(position)?;
            let mut real = |a: &mut BanqiArena, mv| a.play_real(mv, &deal);
            Ok(check_found(&mut arena, puzzle, &first, budgets)?
                && check_line(&mut arena, puzzle, budgets, &mut real)?)
        }
    }
}

/// Plays the stored line under the real deal: every move is legal, and every later solver
/// move still wins what is left of the task, counting the material already won.
fn check_line<A: Arena>(
    arena: &mut A,
    puzzle: &Puzzle,
    budgets: Budgets,
    real: &mut solve::RealPlay<'_, A>,
) -> Result<bool, String> {
    let mut balance = 0;
    let mut undos = Vec::new();
    let mut ok = true;
    for (i, text) in puzzle.solution.iter().enumerate() {
        let mut moves = Vec::new();
        arena.moves(&mut moves);
        let bare = match text.split_once('=') {
            Some((bare, _)) => bare,
            None => text.get(..4).unwrap_or(text),
        };
        let Some(mv) = moves.into_iter().find(|m| arena.move_text(*m) == bare) else {
            ok = false;
            break;
        };
        let solver_move = i % 2 == 0;
        if solver_move
            && i > 0
            && let Some(goal) = puzzle.goal()
        {
            let goal = solve::remaining(goal, (i / 2) as u32);
            match Verifier::new(arena, budgets.prove).move_wins_from(mv, goal, balance) {
                Ok(true) => {}
                Ok(false) => ok = false,
                Err(_) => return Err("out of budget".to_owned()),
            }
        }
        let played = real(arena, mv);
        ok &= played.text == *text;
        balance += if solver_move {
            played.value
        } else {
            -played.value
        };
        undos.push(played.undo);
        if !ok {
            break;
        }
    }
    // The line ends the task: the opponent has no move, or the solver has made every move.
    let solver_moves = puzzle.solution.len().div_ceil(2);
    ok &= !arena.has_moves()
        || (puzzle.theme != Theme::Mate && solver_moves == usize::from(puzzle.moves));
    while let Some(undo) = undos.pop() {
        arena.undo(undo);
    }
    Ok(ok)
}

fn check_found<A: Arena>(
    arena: &mut A,
    puzzle: &Puzzle,
    first: &str,
    budgets: Budgets,
) -> Result<bool, String> {
    let budget = budgets.prove;
    let out = |_| "out of budget".to_owned();
    let winners = |arena: &mut A, goal| {
        Verifier::new(arena, budget)
            .winning_moves(goal, 2)
            .map_err(out)
    };
    let only_first = |arena: &A, w: &[A::Move]| w.len() == 1 && arena.move_text(w[0]) == first;
    match puzzle.goal() {
        Some(Goal::Mate(n)) => {
            for d in 1..n {
                if !winners(arena, Goal::Mate(d))?.is_empty() {
                    return Ok(false);
                }
            }
            let w = winners(arena, Goal::Mate(n))?;
            Ok(only_first(arena, &w))
        }
        Some(goal) => {
            let w = winners(arena, goal)?;
            Ok(only_first(arena, &w))
        }
        None => {
            let mut moves = Vec::new();
            arena.moves(&mut moves);
            Ok(
                solve::defence(arena, &moves, budget)
                    .is_some_and(|mv| arena.move_text(mv) == first),
            )
        }
    }
}
