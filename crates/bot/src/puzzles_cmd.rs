//! `jieqi-bot puzzles`: make the shipped puzzle set (`generate`) and check it (`check`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use jieqi_puzzles::{Budgets, GenerateOptions, Puzzle, PuzzleSet, Summary, Theme};
use jieqi_rules::Variant;

/// Make or check puzzle files.
#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Debug, Subcommand)]
enum PuzzlesCommand {
    /// Play the engine against itself and keep verified puzzles (reproducible with --seed).
    Generate(GenerateArgs),
    /// Load puzzle files, time the load and re-verify every puzzle (or a sample).
    Check(CheckArgs),
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// jieqi, xiangqi or banqi.
    #[arg(long)]
    variant: Variant,
    /// How many puzzles to keep.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Seed of the deals and engine choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give up after this many games.
    #[arg(long, default_value_t = 1_000_000)]
    max_games: usize,
    /// Where to write the gzip-compressed puzzle file.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Puzzle files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Re-verify every n-th puzzle only.
    #[arg(long, default_value_t = 1)]
    every: usize,
}

/// Runs `jieqi-bot puzzles ...`.
pub fn run(args: PuzzlesArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        PuzzlesCommand::Generate(args) => generate(args),
        PuzzlesCommand::Check(args) => check(args),
    }
}

fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let options = GenerateOptions {
        variant: args.variant,
        count: args.count,
        seed: args.seed,
        max_games: args.max_games,
        budgets: Budgets::default(),
    };
    let summary = jieqi_puzzles::generate(options, |s| {
        if s.games % 10 == 0 {
            eprintln!(
                "{:>6.0}s  games {:>5}  positions {:>7}  puzzles {:>5}",
                s.elapsed.as_secs_f64(),
                s.games,
                s.positions,
                s.puzzles.len()
            );
        }
    });
    let set = PuzzleSet::new(summary.puzzles.clone());
    std::fs::write(&args.out, set.to_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    report(&summary, &args);
    Ok(ExitCode::SUCCESS)
}

fn report(summary: &Summary, args: &GenerateArgs) {
    println!(
        "{} {} puzzles from {} games ({} positions scanned) in {:.0} s, seed {}, written to {}",
        summary.puzzles.len(),
        args.variant,
        summary.games,
        summary.positions,
        summary.elapsed.as_secs_f64(),
        args.seed,
        args.out.display()
    );
    println!(
        "dropped: {} lines not played out within budget, {} over a theme's share",
        summary.dropped_lines, summary.over_quota
    );
    for ((theme, moves), n) in summary.by_theme() {
        match theme {
            Theme::Mate => println!("  mate in {moves}: {n}"),
            _ => println!(
                "  {theme} ({moves} move{}): {n}",
                if moves == 1 { "" } else { "s" }
            ),
        }
    }
    println!("  ratings: {}", spread(&summary.puzzles));
}

fn spread(puzzles: &[Puzzle]) -> String {
    let mut ratings: Vec<u16> = puzzles.iter().map(|p| p.rating).collect();
    ratings.sort_unstable();
    if ratings.is_empty() {
        return "none".to_owned();
    }
    let at = |q: f64| ratings[((ratings.len() - 1) as f64 * q) as usize];
    format!(
        "min {} / p10 {} / median {} / p90 {} / max {}",
        at(0.0),
        at(0.1),
        at(0.5),
        at(0.9),
        at(1.0)
    )
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut all = Vec::new();
    for file in &args.files {
        let bytes =
            std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        let started = Instant::now();
        let set = PuzzleSet::from_bytes(&bytes).with_context(|| format!("{}", file.display()))?;
        println!(
            "{}: {} puzzles, {} bytes, loaded in {:.1} ms",
            file.display(),
            set.len(),
            bytes.len(),
            started.elapsed().as_secs_f64() * 1000.0
        );
        all.extend(set.puzzles().iter().cloned());
    }
    let started = Instant::now();
    let (mut sound, mut unsound, mut unknown) = (0, 0, 0);
    for puzzle in all.iter().step_by(args.every.max(1)) {
        match jieqi_puzzles::reverify(puzzle, Budgets::default()) {
            Ok(true) => sound += 1,
            Ok(false) => {
                unsound += 1;
                println!("NOT SOUND OR NOT UNIQUE: {}", puzzle.id);
            }
            Err(e) => {
                unknown += 1;
                println!("undecided {}: {e}", puzzle.id);
            }
        }
    }
    println!(
        "re-verified {} puzzles in {:.1} s: {sound} sound and unique, {unsound} not, {unknown} undecided",
        sound + unsound + unknown,
        started.elapsed().as_secs_f64()
    );
    println!("ratings: {}", spread(&all));
    let mut counts = std::collections::BTreeMap::new();
    for p in &all {
        *counts
            .entry((p.variant.name(), p.theme, p.moves))
            .or_insert(0) += 1;
    }
    for ((variant, theme, moves), n) in counts {
        println!("  {variant} {theme} {moves}: {n}");
    }
    Ok(if unsound + unknown == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
