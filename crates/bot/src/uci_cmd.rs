//! `jieqi-bot uci`: the built-in engine as a UCI engine on standard input and output, for
//! Xiangqi GUIs (Pikafish's dialect) and Jieqi GUIs such as JieqiBox (the dialect of
//! Pikafish's `jieqi` branch). The protocol itself lives in the `jieqi-uci` crate.

use std::process::ExitCode;

use jieqi_rules::Variant;
use jieqi_uci::{Session, Settings, Sink};

/// Speak UCI on standard input and output (for GUIs and other engines' match tools).
#[derive(Debug, clap::Args)]
pub struct UciArgs {
    /// The game of `position startpos` and of FENs without covered pieces: xiangqi or jieqi
    /// (the GUI can change it with `setoption name UCI_Variant`). A FEN with covered pieces or
    /// with the Jieqi dialect's pool field is Jieqi either way.
    #[arg(long, default_value = "xiangqi", value_parser = board_variant)]
    variant: Variant,
    /// Seed of the engine's random choices below master (`Skill Level` under 16).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn board_variant(text: &str) -> Result<Variant, String> {
    match text.parse::<Variant>() {
        Ok(variant @ (Variant::Xiangqi | Variant::Jieqi)) => Ok(variant),
        _ => Err(format!(
            "`{text}` is not a UCI game: choose xiangqi or jieqi"
        )),
    }
}

pub fn run(args: UciArgs) -> anyhow::Result<ExitCode> {
    let sink = Sink::new(Box::new(std::io::stdout()));
    let mut session = Session::new(
        sink,
        Settings {
            variant: args.variant,
            seed: args.seed,
        },
    );
    session.run(std::io::stdin().lock());
    Ok(ExitCode::SUCCESS)
}
