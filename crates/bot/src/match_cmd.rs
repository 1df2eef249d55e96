//! `jieqi-bot match`: two contestants (engine levels, `random`, or an external UCI engine)
//! play a series of games through the rules' `Game` facade, so results, repetition and the
//! no-progress draw are the real rules. Deals are seeded; each deal is played twice with the
//! contestants' colours swapped, which cancels most of the luck of the deal; `--opening-plies`
//! starts both games of a pair from the same seeded random moves, so deterministic engines
//! (master has no noise, and Xiangqi has no deal) still play varied games.
//!
//! Adjudication, the whole of it: a game ends as the rules end it (mate, stalemate, the
//! repetition rulings, the no-progress draw of the preset); one still running after
//! `--max-plies` plies is a draw; an external engine that answers a move the game refuses, or
//! none, or nothing within a minute, loses that game.
//!
//! An external engine (`uci:/path/to/engine args...`) is started once for the match and told,
//! before each of its moves, only its own side's view, never the deal: for Jieqi the position
//! in the dialect's FEN with the pool of pieces hidden to it; for Xiangqi (which hides nothing)
//! the start and every move since, so it sees repetitions coming. Moves are written and read in
//! its rank numbering (`--red-ranks 1-10` for Fairy-Stockfish).
//!
//! `--clock 3+2` plays on a game clock instead of a time per move (`clocks`): a contestant
//! whose time runs out before its answer loses on time.

mod clocks;
mod sprt;

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::Context;
use clocks::MatchClock;
use jieqi_clock::TimeControl;
use jieqi_engine::{Budget, Engine, Level, RandomMover};
use jieqi_rules::{
    Game, GameDeal, GameMove, Move, Preset, Rules, Seat, Side, Variant, View, Viewer,
};
use jieqi_uci::client::ExternalEngine;
use jieqi_uci::dialect::write_view_fen;
use jieqi_uci::ranks::Ranks;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sprt::{Pairs, Sprt, Verdict};

/// Play the engine against itself, a random mover or an external UCI engine, and print the
/// score.
///
/// A contestant is a level (novice, casual, club, master), `random`, or an external UCI
/// engine written `uci:PROGRAM [ARGS...]` in one argument (quote it; the words after the
/// program are its arguments, so a path may not contain spaces), for example
/// `--black "uci:/usr/local/bin/pikafish"` or `--black "uci:./jieqi-bot uci --seed 7"`. Give
/// its UCI options with `--black-option "Hash=64"` (repeat for more). It thinks `go nodes N`
/// with `--uci-nodes N`, else `go movetime` with `--movetime-ms` (1000 if not given), or
/// exactly what `--uci-go` says (`--uci-go ""` is a bare `go`: our own engine then plays its
/// `Skill Level`'s budget), or on a game clock with `--clock 3+2` (`go wtime … btime …`, and
/// our levels manage the same clock). External engines play Xiangqi and Jieqi only.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Which game: xiangqi, jieqi or banqi.
    #[arg(long, default_value = "jieqi")]
    variant: Variant,
    /// The first contestant (Red in the first game): novice, casual, club, master, random or
    /// uci:PROGRAM [ARGS...].
    #[arg(long)]
    red: Contestant,
    /// The second contestant (Black in the first game), in the same forms.
    #[arg(long)]
    black: Contestant,
    /// A UCI option for an external first contestant, NAME=VALUE (repeatable).
    #[arg(long = "red-option", value_name = "NAME=VALUE", value_parser = uci_option)]
    red_options: Vec<(String, String)>,
    /// A UCI option for an external second contestant, NAME=VALUE (repeatable).
    #[arg(long = "black-option", value_name = "NAME=VALUE", value_parser = uci_option)]
    black_options: Vec<(String, String)>,
    /// How an external first contestant numbers ranks in its moves: 0-9 (Pikafish,
    /// jieqi-bot) or 1-10 (Fairy-Stockfish).
    #[arg(long, default_value = "0-9")]
    red_ranks: Ranks,
    /// How an external second contestant numbers ranks in its moves: 0-9 or 1-10.
    #[arg(long, default_value = "0-9")]
    black_ranks: Ranks,
    /// Seeded random plies that open both games of each pair (the same moves in both), so
    /// that engines without randomness play varied games.
    #[arg(long, default_value_t = 0)]
    opening_plies: usize,
    /// External engines search this many nodes a move (`go nodes N`) instead of a movetime.
    #[arg(long)]
    uci_nodes: Option<u64>,
    /// What external engines get after `go`, replacing --uci-nodes and --movetime-ms for them.
    #[arg(long, value_name = "LIMITS")]
    uci_go: Option<String>,
    /// Play on a game clock, minutes + increment (`1+0`, `3+2`) or game time then byo-yomi
    /// (`10m|30s`), kept by the match for both contestants: a contestant whose time runs out
    /// loses on time. Replaces --movetime-ms, --uci-nodes and --uci-go.
    #[arg(long, value_name = "CONTROL", value_parser = clocks::live_control,
          conflicts_with_all = ["uci_go", "uci_nodes", "movetime_ms"])]
    clock: Option<TimeControl>,
    /// Write each game's record (tags, result and moves) to this folder, one file a game.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Number of games; the contestants swap colours after each one. With --sprt, the most
    /// the match plays.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Stop as soon as a sequential probability ratio test over game pairs settles whether
    /// the first contestant is at most ELO0 (H0) or at least ELO1 (H1) Elo stronger, each
    /// with a 5 % chance of error, like `--sprt 0,10`.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<Sprt>,
    /// Seed of the deals and of the engines' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rules preset: standard, pychess, tencent or vietnam.
    #[arg(long, default_value = "standard")]
    preset: Preset,
    /// Caps every engine move at this many milliseconds (to fit many games in little time);
    /// an external engine's `go movetime`.
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

/// Who plays: an engine level, the uniformly random mover, or an external UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Contestant {
    Engine(Level),
    Random,
    External { program: PathBuf, args: Vec<String> },
}

impl FromStr for Contestant {
    type Err = String;

    fn from_str(s: &str) -> Result<Contestant, String> {
        if s.trim().eq_ignore_ascii_case("random") {
            return Ok(Contestant::Random);
        }
        if let Some(command) = s.trim().strip_prefix("uci:") {
            let mut words = command.split_whitespace();
            let Some(program) = words.next() else {
                return Err("`uci:` needs the engine's program after it, like `uci:/usr/local/bin/pikafish`".to_owned());
            };
            return Ok(Contestant::External {
                program: PathBuf::from(program),
                args: words.map(str::to_owned).collect(),
            });
        }
        s.parse::<Level>().map(Contestant::Engine).map_err(|_| {
            format!(
                "`{s}` is not a contestant: choose novice, casual, club, master, random or uci:PROGRAM"
            )
        })
    }
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Engine(level) => level.fmt(f),
            Contestant::Random => f.write_str("random"),
            Contestant::External { program, .. } => write!(
                f,
                "uci:{}",
                program.file_name().map_or_else(
                    || program.display().to_string(),
                    |n| n.to_string_lossy().into_owned()
                )
            ),
        }
    }
}

/// `NAME=VALUE` of a UCI option.
fn uci_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("`{text}` is not NAME=VALUE, like `Hash=64`")),
    }
}

/// A contestant during one game. External engines live for the whole match.
enum Player {
    Engine(Box<Engine>),
    Random(Box<RandomMover>),
    External { index: usize, ranks: Ranks },
}

/// What an external engine is told of the game besides the view: for Xiangqi, the start and
/// the moves since (nothing is hidden there, and the moves let it see repetitions).
struct Told<'a> {
    start_fen: &'a str,
    moves: &'a [Move],
}

/// What a player did on its turn.
enum Turn {
    Move(GameMove),
    /// An external engine answered a move the game refuses (or none): it loses the game.
    Forfeit(String),
}

/// Time and work per move of one contestant over the match.
#[derive(Debug, Default)]
struct Effort {
    moves: u64,
    nodes: u64,
    depth: u64,
    total: Duration,
    longest: Duration,
    /// On a clock: the least time it had left after a move, and the games it lost on time.
    least_left: Option<Duration>,
    flags: u32,
}

impl Player {
    fn choose(
        &mut self,
        view: &View,
        legal: &[GameMove],
        externals: &mut [Option<ExternalEngine>; 2],
        told: Option<&Told<'_>>,
        limits: &str,
        effort: &mut Effort,
    ) -> anyhow::Result<Turn> {
        let started = Instant::now();
        let turn = match self {
            Player::Engine(engine) => {
                let mv = engine.choose(view, legal)?;
                if let Some(info) = engine.last_search() {
                    effort.nodes += info.nodes;
                    effort.depth += info.depth.max(0) as u64;
                }
                Turn::Move(mv)
            }
            Player::Random(mover) => Turn::Move(mover.choose(legal)?),
            Player::External { index, ranks } => {
                let engine = externals[*index]
                    .as_mut()
                    .context("the external engine is not running")?;
                // Its own side's view only, in its dialect: never the deal.
                let answer = match told {
                    Some(told) => {
                        let moves: Vec<String> =
                            told.moves.iter().map(|&mv| ranks.write(mv)).collect();
                        engine.best_move(told.start_fen, &moves, limits, EXTERNAL_PATIENCE)?
                    }
                    None => {
                        engine.best_move(&write_view_fen(view), &[], limits, EXTERNAL_PATIENCE)?
                    }
                };
                effort.nodes += answer.nodes.unwrap_or(0);
                effort.depth += u64::from(answer.depth.unwrap_or(0));
                let chosen = ranks
                    .read(&answer.bestmove)
                    .map(GameMove::Board)
                    .filter(|mv| legal.contains(mv));
                match chosen {
                    Some(mv) => Turn::Move(mv),
                    None => Turn::Forfeit(format!("illegal move `{}`", answer.bestmove)),
                }
            }
        };
        let spent = started.elapsed();
        effort.moves += 1;
        effort.total += spent;
        effort.longest = effort.longest.max(spent);
        Ok(turn)
    }
}

/// How long an external engine may think about one move before the match gives up on it.
const EXTERNAL_PATIENCE: Duration = Duration::from_secs(60);

/// Who won one game, from the first-named contestant's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Result3 {
    Win,
    Draw,
    Loss,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    // A reader that stops early (`| head`) closes the pipe: the next write fails with
    // `BrokenPipe`, which `main` takes as the end of the run (println! would panic).
    let mut out = std::io::stdout();
    let rules = Rules::new(args.variant, args.preset);
    let contestants = [args.red.clone(), args.black.clone()];
    let option_lists = [&args.red_options, &args.black_options];
    let mut externals: [Option<ExternalEngine>; 2] = [None, None];
    for (i, contestant) in contestants.iter().enumerate() {
        if let Contestant::External {
            program,
            args: engine_args,
        } = contestant
        {
            anyhow::ensure!(
                args.variant != Variant::Banqi,
                "external engines play Xiangqi and Jieqi only"
            );
            externals[i] = Some(ExternalEngine::start(
                program,
                engine_args,
                option_lists[i],
            )?);
        } else if !option_lists[i].is_empty() {
            anyhow::bail!("UCI options are for external (uci:...) contestants only");
        }
    }
    let limits = match (&args.uci_go, args.uci_nodes, args.movetime_ms) {
        (Some(limits), _, _) => limits.trim().to_owned(),
        (None, Some(nodes), _) => format!("nodes {nodes}"),
        (None, None, Some(ms)) => format!("movetime {ms}"),
        (None, None, None) => "movetime 1000".to_owned(),
    };
    if let Some(dir) = &args.records {
        fs::create_dir_all(dir)
            .with_context(|| format!("could not create the records folder {}", dir.display()))?;
    }
    let mut efforts = [Effort::default(), Effort::default()];
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut capped = 0u32;
    let mut pairs = Pairs::default();
    // The first contestant's half-points in the first game of the pair being played.
    let mut pair_halves = 0u8;
    let mut verdict = Verdict::Undecided;
    let started = Instant::now();
    for index in 0..args.games {
        // Games 2k and 2k+1 share a deal with colours swapped.
        let mut deal_rng =
            ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003) ^ u64::from(index / 2));
        let deal = GameDeal::shuffled(args.variant, &mut |n| deal_rng.gen_range(0..n.max(1)));
        let mut game = Game::new(rules.clone(), deal).context("could not start a game")?;
        // Xiangqi hides nothing, so an external engine is told the start and the moves.
        let start_fen = write_view_fen(&game.view(Viewer::Public));
        let mut moves: Vec<Move> = Vec::new();
        for _ in 0..args.opening_plies {
            let legal = game.legal_moves();
            if game.outcome().is_some() || legal.is_empty() {
                break;
            }
            let mv = legal[deal_rng.gen_range(0..legal.len())];
            game.play(mv).context("a random opening move was refused")?;
            if let GameMove::Board(mv) = mv {
                moves.push(mv);
            }
        }
        // first_seat[i]: the seat contestant i plays in this game.
        let first_seat = if index % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let mut players = [0usize, 1].map(|i| make_player(&contestants[i], &args, index, i));
        for external in externals.iter_mut().flatten() {
            external.new_game()?;
        }
        let mut forfeit: Option<String> = None;
        let mut clock = args.clock.map(MatchClock::start);
        while game.outcome().is_none() && game.ply() < args.max_plies {
            let seat = game.seat_to_move();
            let i = if seat == first_seat { 0 } else { 1 };
            let viewer = match game.side_to_move() {
                Some(side) => Viewer::Player(side),
                None => Viewer::Public,
            };
            let view = game.view(viewer);
            let legal = game.legal_moves();
            let told = (args.variant == Variant::Xiangqi).then(|| Told {
                start_fen: &start_fen,
                moves: &moves,
            });
            // On a clock, the engine's limits are what its clock says now.
            let clock_limits = clock.as_ref().map(MatchClock::uci_limits);
            if let (Some(clock), Player::Engine(engine)) = (&clock, &mut players[i]) {
                let base = match_budget(engine.level().budget(), &args);
                engine.set_budget(base.on_clock(&clock.reading(seat)));
            }
            let turn = players[i]
                .choose(
                    &view,
                    &legal,
                    &mut externals,
                    told.as_ref(),
                    clock_limits.as_deref().unwrap_or(&limits),
                    &mut efforts[i],
                )
                .with_context(|| {
                    format!("{} could not move in game {}", contestants[i], index + 1)
                })?;
            let mv = match turn {
                Turn::Move(mv) => mv,
                Turn::Forfeit(why) => {
                    let loser = game.side_to_move().unwrap_or(Side::Red);
                    forfeit = Some(format!("{} ({loser}) lost by {why}", contestants[i]));
                    game.resign(loser);
                    break;
                }
            };
            if let Some(clock) = &mut clock {
                match clock.press(seat) {
                    Ok(left) => {
                        let least = efforts[i].least_left.get_or_insert(left);
                        *least = (*least).min(left);
                    }
                    Err(_) => {
                        let loser = game.side_to_move().unwrap_or(Side::Red);
                        forfeit = Some(format!("{} ({loser}) lost on time", contestants[i]));
                        efforts[i].flags += 1;
                        game.resign(loser);
                        break;
                    }
                }
            }
            if let GameMove::Board(mv) = mv {
                moves.push(mv);
            }
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
        let halves = match result {
            Result3::Win => {
                wins += 1;
                2
            }
            Result3::Draw => {
                draws += 1;
                1
            }
            Result3::Loss => {
                losses += 1;
                0
            }
        };
        if index % 2 == 0 {
            pair_halves = halves;
        } else {
            pairs.add(pair_halves + halves);
            if let Some(test) = args.sprt {
                verdict = pairs.verdict(test);
            }
        }
        let how = match (&forfeit, game.outcome()) {
            (Some(why), _) => why.clone(),
            (None, Some(outcome)) => outcome.to_string(),
            (None, None) => format!("draw: ply cap of {} reached", args.max_plies),
        };
        if let Some(dir) = &args.records {
            let path = dir.join(format!("game-{:03}.txt", index + 1));
            let red = if first_side == Some(Side::Red) { 0 } else { 1 };
            let record = game_record(
                &game,
                &args,
                index,
                [&contestants[red], &contestants[1 - red]],
                &how,
            );
            fs::write(&path, record)
                .with_context(|| format!("could not write {}", path.display()))?;
        }
        if args.verbose {
            let colour = first_side
                .map(|s| s.to_string())
                .unwrap_or_else(|| "?".to_owned());
            writeln!(
                out,
                "game {:>3}: {} as {colour}: {how} after {} plies",
                index + 1,
                contestants[0],
                game.ply()
            )?;
        }
        if verdict != Verdict::Undecided {
            break;
        }
    }
    // Fewer than --games where the SPRT stopped the match.
    let played = wins + draws + losses;
    let score = f64::from(wins) + 0.5 * f64::from(draws);
    let percent = 100.0 * score / f64::from(played);
    writeln!(
        out,
        "{} vs {} ({}, {} games, seed {}): {} wins, {} draws, {} losses for {}; score {:.1}/{} = {:.1}%{}",
        contestants[0],
        contestants[1],
        args.variant,
        played,
        args.seed,
        wins,
        draws,
        losses,
        contestants[0],
        score,
        played,
        percent,
        elo_text(wins, draws, losses)
    )?;
    if capped > 0 {
        writeln!(
            out,
            "{capped} game(s) reached the ply cap of {} and were scored as draws",
            args.max_plies
        )?;
    }
    if let Some(test) = args.sprt {
        writeln!(
            out,
            "{}",
            sprt_text(test, &pairs, verdict, [&contestants[0], &contestants[1]])
        )?;
    }
    for (contestant, effort) in contestants.iter().zip(&efforts) {
        if effort.moves > 0 {
            writeln!(
                out,
                "  {contestant}: {} moves, {:.1} ms a move on average, longest {} ms, {} nodes and depth {:.1} a move",
                effort.moves,
                effort.total.as_secs_f64() * 1000.0 / effort.moves as f64,
                effort.longest.as_millis(),
                effort.nodes / effort.moves,
                effort.depth as f64 / effort.moves as f64,
            )?;
            if let Some(least) = effort.least_left {
                writeln!(
                    out,
                    "    on the clock: lost on time {} time(s), least time left after a move {} ms",
                    effort.flags,
                    least.as_millis()
                )?;
            }
        }
    }
    writeln!(out, "  took {:.0} s", started.elapsed().as_secs_f64())?;
    Ok(ExitCode::SUCCESS)
}

/// One game's record: PGN-style tags, then the moves in coordinates with the reveal letters
/// (the deal is public once the game is over).
fn game_record(
    game: &Game,
    args: &MatchArgs,
    index: u32,
    [red, black]: [&Contestant; 2],
    how: &str,
) -> String {
    let result = match game.outcome().and_then(|o| o.winner()) {
        Some(Side::Red) => "1-0",
        Some(Side::Black) => "0-1",
        None => "1/2-1/2",
    };
    let mut text = String::new();
    for (tag, value) in [
        ("Event", "jieqi-bot match".to_owned()),
        ("Round", (index + 1).to_string()),
        ("Variant", args.variant.to_string()),
        ("Red", red.to_string()),
        ("Black", black.to_string()),
        ("Seed", args.seed.to_string()),
        ("Deal", (index / 2 + 1).to_string()),
        ("Result", result.to_owned()),
        ("Termination", how.to_owned()),
        ("PlyCount", game.ply().to_string()),
    ] {
        text.push_str(&format!("[{tag} \"{}\"]\n", value.replace('"', "'")));
    }
    text.push('\n');
    for (i, pair) in game.move_record_texts().chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text.push_str(result);
    text.push('\n');
    text
}

fn make_player(contestant: &Contestant, args: &MatchArgs, game: u32, which: usize) -> Player {
    let seed = args
        .seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(u64::from(game) * 2 + which as u64);
    match contestant {
        Contestant::Random => Player::Random(Box::new(RandomMover::new(seed))),
        Contestant::Engine(level) => {
            let budget = match_budget(level.budget(), args);
            Player::Engine(Box::new(Engine::with_budget(*level, budget, seed)))
        }
        Contestant::External { .. } => Player::External {
            index: which,
            ranks: if which == 0 {
                args.red_ranks
            } else {
                args.black_ranks
            },
        },
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

/// The SPRT's line of the summary: the hypotheses, the pairs, the LLR against its bounds and
/// what it settled.
fn sprt_text(test: Sprt, pairs: &Pairs, verdict: Verdict, names: [&Contestant; 2]) -> String {
    let (lower, upper) = sprt::bounds();
    let [ll, ld, even, wd, ww] = pairs.counts();
    let [first, second] = names;
    let settled = match verdict {
        Verdict::AcceptH1 => format!(
            "H1 accepted: {first} is at least {:+} Elo stronger than {second}",
            test.elo1()
        ),
        Verdict::AcceptH0 => format!(
            "H0 accepted: {first} is at most {:+} Elo stronger than {second}",
            test.elo0()
        ),
        Verdict::Undecided => "undecided: the games ran out first".to_owned(),
    };
    format!(
        "SPRT {test}: {} pairs (by the first contestant's points: 0: {ll}, 1/2: {ld}, 1: {even}, 3/2: {wd}, 2: {ww}), LLR {:.2} (bounds {lower:.2}, {upper:.2}), {settled}",
        pairs.len(),
        pairs.llr(test),
    )
}

/// The rating difference a score fraction implies (`None` at 0 and 1, where it is unbounded).
fn elo_of(fraction: f64) -> Option<f64> {
    (fraction > 0.0 && fraction < 1.0)
        // `+ 0.0` turns the -0 of an even score into 0.
        .then(|| -400.0 * (1.0 / fraction - 1.0).log10() + 0.0)
}

/// The rating difference the games imply, with its 95 % interval from the games' own spread
/// (normal approximation of the mean score), for the summary line.
fn elo_text(wins: u32, draws: u32, losses: u32) -> String {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return String::new();
    }
    let mean = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    let variance = (f64::from(wins) * (1.0 - mean).powi(2)
        + f64::from(draws) * (0.5 - mean).powi(2)
        + f64::from(losses) * mean.powi(2))
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    let bound = |fraction: f64| {
        elo_of(fraction).map_or_else(
            || if fraction <= 0.0 { "-inf" } else { "+inf" }.to_owned(),
            |elo| format!("{elo:+.0}"),
        )
    };
    match elo_of(mean) {
        Some(elo) => format!(
            " (about {elo:+.0} Elo, 95% interval {} to {})",
            bound(mean - margin),
            bound(mean + margin)
        ),
        None => String::new(),
    }
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
    fn external_contestants_read_program_and_arguments() {
        assert_eq!(
            "uci:/opt/bin/jieqi-bot uci --seed 3".parse(),
            Ok(Contestant::External {
                program: PathBuf::from("/opt/bin/jieqi-bot"),
                args: vec!["uci".to_owned(), "--seed".to_owned(), "3".to_owned()],
            })
        );
        assert!("uci:".parse::<Contestant>().is_err());
        let pikafish: Contestant = "uci:/usr/local/bin/pikafish".parse().expect("a contestant");
        assert_eq!(pikafish.to_string(), "uci:pikafish");
        assert_eq!(
            uci_option("Skill Level = 5"),
            Ok(("Skill Level".to_owned(), "5".to_owned()))
        );
        assert!(uci_option("Hash").is_err());
    }

    #[test]
    fn elo_of_an_even_score_is_zero_and_of_a_whitewash_is_left_out() {
        assert_eq!(
            elo_text(5, 0, 5),
            " (about +0 Elo, 95% interval -252 to +252)"
        );
        assert_eq!(elo_text(0, 10, 0), " (about +0 Elo, 95% interval +0 to +0)");
        assert_eq!(elo_text(4, 0, 0), "");
        assert!(elo_text(3, 0, 1).contains("+191"));
        assert_eq!(
            elo_text(30, 10, 60),
            " (about -108 Elo, 95% interval -180 to -43)"
        );
    }
}
