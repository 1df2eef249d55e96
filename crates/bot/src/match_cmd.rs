//! `jieqi-bot match`: two contestants (engine levels, or `random`) play a series of games
//! through the rules' `Game` facade, so results, repetition and the no-progress draw are the
//! real rules. Deals are seeded; each deal is played twice with the contestants' colours
//! swapped, which cancels most of the luck of the deal. A ply cap adjudicates a draw.

use std::fmt;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::Context;
use jieqi_engine::{Budget, Engine, Level, RandomMover};
use jieqi_rules::{Game, GameDeal, GameMove, Preset, Rules, Seat, Variant, View, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Play the engine against itself (or a random mover) and print the score.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Which game: xiangqi, jieqi or banqi.
    #[arg(long, default_value = "jieqi")]
    variant: Variant,
    /// The first contestant (Red in the first game): novice, casual, club, master or random.
    #[arg(long)]
    red: Contestant,
    /// The second contestant (Black in the first game).
    #[arg(long)]
    black: Contestant,
    /// Number of games; the contestants swap colours after each one.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Seed of the deals and of the engines' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rules preset: standard, pychess, tencent or vietnam.
    #[arg(long, default_value = "standard")]
    preset: Preset,
    /// Caps every engine move at this many milliseconds (to fit many games in little time).
    #[arg(long)]
    movetime_ms: Option<u64>,
    /// Multiplies every level's node budget (for example 0.1 for quick matches).
    #[arg(long)]
    nodes_scale: Option<f64>,
    /// Plies after which an unfinished game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Print one line per game.
    #[arg(long)]
    verbose: bool,
}

/// Who plays: an engine level or the uniformly random mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contestant {
    Engine(Level),
    Random,
}

impl FromStr for Contestant {
    type Err = String;

    fn from_str(s: &str) -> Result<Contestant, String> {
        if s.trim().eq_ignore_ascii_case("random") {
            return Ok(Contestant::Random);
        }
        s.parse::<Level>().map(Contestant::Engine).map_err(|_| {
            format!("`{s}` is not a contestant: choose novice, casual, club, master or random")
        })
    }
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Engine(level) => level.fmt(f),
            Contestant::Random => f.write_str("random"),
        }
    }
}

/// A contestant during one game.
enum Player {
    Engine(Engine),
    Random(Box<RandomMover>),
}

/// Time and work per move of one contestant over the match.
#[derive(Debug, Default)]
struct Effort {
    moves: u64,
    nodes: u64,
    depth: u64,
    total: Duration,
    longest: Duration,
}

impl Player {
    fn choose(
        &mut self,
        view: &View,
        legal: &[GameMove],
        effort: &mut Effort,
    ) -> anyhow::Result<GameMove> {
        let started = Instant::now();
        let mv = match self {
            Player::Engine(engine) => {
                let mv = engine.choose(view, legal)?;
                if let Some(info) = engine.last_search() {
                    effort.nodes += info.nodes;
                    effort.depth += info.depth.max(0) as u64;
                }
                mv
            }
            Player::Random(mover) => mover.choose(legal)?,
        };
        let spent = started.elapsed();
        effort.moves += 1;
        effort.total += spent;
        effort.longest = effort.longest.max(spent);
        Ok(mv)
    }
}

/// Who won one game, from the first-named contestant's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Result3 {
    Win,
    Draw,
    Loss,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    let rules = Rules::new(args.variant, args.preset);
    let contestants = [args.red, args.black];
    let mut efforts = [Effort::default(), Effort::default()];
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut capped = 0u32;
    let started = Instant::now();
    for index in 0..args.games {
        // Games 2k and 2k+1 share a deal with colours swapped.
        let mut deal_rng =
            ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003) ^ u64::from(index / 2));
        let deal = GameDeal::shuffled(args.variant, &mut |n| deal_rng.gen_range(0..n.max(1)));
        let mut game = Game::new(rules.clone(), deal).context("could not start a game")?;
        // first_seat[i]: the seat contestant i plays in this game.
        let first_seat = if index % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let mut players = [0usize, 1].map(|i| make_player(contestants[i], &args, index, i));
        while game.outcome().is_none() && game.ply() < args.max_plies {
            let seat = game.seat_to_move();
            let i = if seat == first_seat { 0 } else { 1 };
            let viewer = match game.side_to_move() {
                Some(side) => Viewer::Player(side),
                None => Viewer::Public,
            };
            let view = game.view(viewer);
            let legal = game.legal_moves();
            let mv = players[i]
                .choose(&view, &legal, &mut efforts[i])
                .with_context(|| {
                    format!("{} could not move in game {}", contestants[i], index + 1)
                })?;
            game.play(mv).with_context(|| {
                format!(
                    "{} chose a move the game refused in game {}",
                    contestants[i],
                    index + 1
                )
            })?;
        }
        let first_side = game.side_of(first_seat);
        let result = match game.outcome().and_then(|o| o.winner()) {
            Some(winner) if Some(winner) == first_side => Result3::Win,
            Some(_) => Result3::Loss,
            None => Result3::Draw,
        };
        if game.outcome().is_none() {
            capped += 1;
        }
        match result {
            Result3::Win => wins += 1,
            Result3::Draw => draws += 1,
            Result3::Loss => losses += 1,
        }
        if args.verbose {
            let how = match game.outcome() {
                Some(outcome) => outcome.to_string(),
                None => format!("draw: ply cap of {} reached", args.max_plies),
            };
            let colour = first_side
                .map(|s| s.to_string())
                .unwrap_or_else(|| "?".to_owned());
            println!(
                "game {:>3}: {} as {colour}: {how} after {} plies",
                index + 1,
                contestants[0],
                game.ply()
            );
        }
    }
    let played = f64::from(args.games);
    let score = f64::from(wins) + 0.5 * f64::from(draws);
    let percent = 100.0 * score / played;
    println!(
        "{} vs {} ({}, {} games, seed {}): {} wins, {} draws, {} losses for {}; score {:.1}/{} = {:.1}%{}",
        contestants[0],
        contestants[1],
        args.variant,
        args.games,
        args.seed,
        wins,
        draws,
        losses,
        contestants[0],
        score,
        args.games,
        percent,
        elo_text(score / played)
    );
    if capped > 0 {
        println!(
            "{capped} game(s) reached the ply cap of {} and were scored as draws",
            args.max_plies
        );
    }
    for (contestant, effort) in contestants.iter().zip(&efforts) {
        if effort.moves > 0 {
            println!(
                "  {contestant}: {} moves, {:.1} ms a move on average, longest {} ms, {} nodes and depth {:.1} a move",
                effort.moves,
                effort.total.as_secs_f64() * 1000.0 / effort.moves as f64,
                effort.longest.as_millis(),
                effort.nodes / effort.moves,
                effort.depth as f64 / effort.moves as f64,
            );
        }
    }
    println!("  took {:.0} s", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

fn make_player(contestant: Contestant, args: &MatchArgs, game: u32, which: usize) -> Player {
    let seed = args
        .seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(u64::from(game) * 2 + which as u64);
    match contestant {
        Contestant::Random => Player::Random(Box::new(RandomMover::new(seed))),
        Contestant::Engine(level) => {
            let budget = match_budget(level.budget(), args);
            Player::Engine(Engine::with_budget(level, budget, seed))
        }
    }
}

fn match_budget(budget: Budget, args: &MatchArgs) -> Budget {
    let mut budget = budget;
    if let Some(scale) = args.nodes_scale
        && scale.is_finite()
        && scale > 0.0
    {
        budget.nodes = ((budget.nodes as f64) * scale).max(1.0) as u64;
    }
    if let Some(ms) = args.movetime_ms {
        budget.movetime = budget.movetime.min(Duration::from_millis(ms.max(1)));
    }
    budget
}

/// The rating difference a score implies, for the summary line.
fn elo_text(fraction: f64) -> String {
    if fraction <= 0.0 || fraction >= 1.0 {
        return String::new();
    }
    // `+ 0.0` turns the -0 of an even score into 0.
    let elo = -400.0 * (1.0 / fraction - 1.0).log10() + 0.0;
    format!(" (about {elo:+.0} Elo)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contestants_read_levels_and_random() {
        assert_eq!("random".parse(), Ok(Contestant::Random));
        assert_eq!("Club".parse(), Ok(Contestant::Engine(Level::Club)));
        assert!("grandmaster".parse::<Contestant>().is_err());
        assert_eq!(Contestant::Engine(Level::Master).to_string(), "master");
    }

    #[test]
    fn elo_of_an_even_score_is_zero_and_of_a_whitewash_is_left_out() {
        assert_eq!(elo_text(0.5), " (about +0 Elo)");
        assert_eq!(elo_text(1.0), "");
        assert!(elo_text(0.75).contains("+191"));
    }
}
