//! `jieqi-bot`: the binary. Start-up only: it parses the command line, reads configuration and
//! hands over to the crates that do the work. Each subcommand lives in its own module
//! (`run_cmd.rs` starts the platforms, the delivery loops and the clock).
//!
//! In the repository: `docs/README.md` indexes the contributor documentation,
//! `docs/configuration.md` lists every setting, and `docs/architecture.md` describes what runs
//! where when several processes share one database.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analysis;
mod config;
mod http;
mod local_cmd;
mod logging;
mod match_cmd;
mod puzzles_cmd;
mod render_cmd;
mod run_cmd;
mod shutdown;
mod uci_cmd;

/// Play Jieqi, Xiangqi and Banqi with friends in Discord, Telegram or a terminal.
#[derive(Debug, Parser)]
#[command(name = "jieqi-bot", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree (a move generator check).
    Perft(analysis::PerftArgs),
    /// List the legal moves of a position, one a line, sorted.
    Moves(analysis::MovesArgs),
    /// Check a FEN and print it in canonical form.
    Fen(analysis::FenArgs),
    /// Draw one position as a PNG picture.
    Render(render_cmd::RenderArgs),
    /// Play the engine against itself, a random mover or an external UCI engine.
    // Boxed: its many options make it far larger than the other commands.
    Match(Box<match_cmd::MatchArgs>),
    /// Speak UCI on standard input and output, for Xiangqi and Jieqi GUIs.
    Uci(uci_cmd::UciArgs),
    /// Play the chat surface in this terminal, with no account.
    ///
    /// Each input line is one player's message in one shared chat: `name: text`, e.g.
    /// `alice: /challenge @bob`, then `bob: /accept` and `alice: /move h2e2`. `dm alice: /peek`
    /// writes to the bot in private; `bob: [button] acc_c4f7k` presses the button whose data is
    /// printed under a message. Lines starting with `#` are comments.
    Local(local_cmd::LocalArgs),
    /// Run the bot on every platform that has a token.
    Run(run_cmd::RunArgs),
    /// Make or check the puzzle set.
    Puzzles(puzzles_cmd::PuzzlesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The terminal game keeps its screen for the chat: only warnings by default there.
    logging::init(match cli.command {
        Command::Local(_) | Command::Uci(_) => "warn",
        _ => "info",
    });
    let result = match cli.command {
        Command::Perft(args) => analysis::perft(args),
        Command::Moves(args) => analysis::moves(args),
        Command::Fen(args) => analysis::fen(args),
        Command::Render(args) => render_cmd::run(args),
        Command::Match(args) => match_cmd::run(*args),
        Command::Local(args) => local_cmd::run(args),
        Command::Uci(args) => uci_cmd::run(args),
        Command::Run(args) => run_cmd::run(args),
        Command::Puzzles(args) => puzzles_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`jieqi-bot match ... | head`): stop quietly, as command-line
        // tools do.
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// True if `error` comes from writing to a pipe whose reader has closed it.
fn closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
