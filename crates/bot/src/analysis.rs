//! The analysis subcommands: `perft`, `moves` and `fen`. They read a position, check it with
//! the rules crate, and print plain text that scripts and other engines can compare against.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use jieqi_rules::banqi::{self, BanqiDeal, BanqiGame, BanqiPosition};
use jieqi_rules::deal::Deal;
use jieqi_rules::notation::fen;
use jieqi_rules::position::{MoveOptions, Position};
use jieqi_rules::{Setup, Variant};

/// `perft`: counts the leaves of the move tree.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// xiangqi, jieqi or banqi.
    #[arg(long, default_value = "xiangqi")]
    variant: Variant,
    /// The position (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// True types of the covered pieces, in FEN reading order (Jieqi), or the pieces under the
    /// face-down squares (Banqi). Jieqi without it: every covered piece is its fake type.
    /// Banqi without it: the fixed documented deal.
    #[arg(long)]
    deal: Option<String>,
    /// How many plies deep.
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

/// `moves`: the legal moves of a position.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// xiangqi, jieqi or banqi.
    #[arg(long, default_value = "xiangqi")]
    variant: Variant,
    /// The position (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
}

/// `fen`: checks a FEN and prints it canonically.
#[derive(Debug, clap::Args)]
pub struct FenArgs {
    /// xiangqi, jieqi or banqi.
    #[arg(long, default_value = "xiangqi")]
    variant: Variant,
    /// The FEN to check (quote it: it has spaces).
    fen: String,
}

/// A Xiangqi or Jieqi position read from the command line, with the deal its covered
/// pieces are played with.
fn board_position(
    variant: Variant,
    fen: Option<&str>,
    deal: Option<&str>,
) -> anyhow::Result<(Position, Deal)> {
    let (setup, fen_deal) = match fen {
        Some(text) => fen::read_full(text).context("the FEN cannot be read")?,
        None if variant == Variant::Jieqi => (Setup::jieqi_start(), None),
        None => (Setup::xiangqi_start(), None),
    };
    let deal = match (deal, fen_deal) {
        (Some(letters), _) => {
            let pieces = letters
                .chars()
                .map(|c| {
                    jieqi_rules::Piece::from_char(c).with_context(|| {
                        format!(
                            "`{c}` in --deal is not a piece letter (K A E R C H P, case by side)"
                        )
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            Deal::from_pieces(&setup, &pieces).context("the deal does not fit the position")?
        }
        (None, Some(pieces)) => Deal::from_pieces(&setup, &pieces)
            .context("the FEN's deal field does not fit the position")?,
        (None, None) => Deal::identity(&setup),
    };
    let position = Position::from_setup(setup, variant, MoveOptions::default())
        .context("the position is not legal")?;
    Ok((position, deal))
}

fn banqi_game(fen: Option<&str>, deal: Option<&str>) -> anyhow::Result<BanqiGame> {
    let (position, fen_deal) = match fen {
        Some(text) => BanqiPosition::from_full_fen(text).context("the FEN cannot be read")?,
        None => (BanqiPosition::start(), None),
    };
    let deal = match (deal, fen_deal) {
        (Some(letters), _) => BanqiDeal::for_position(&position, letters)
            .context("the deal does not fit the position")?,
        (None, Some(deal)) => deal,
        // Not anyone's secret: the documented fixed deal, for analysis.
        (None, None) => BanqiDeal::fixed_for(&position),
    };
    BanqiGame::from_position(position, deal).context("the deal does not fit the position")
}

pub fn perft(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let fen = args.fen.as_deref();
    let deal = args.deal.as_deref();
    let total = match args.variant {
        Variant::Banqi => {
            let game = banqi_game(fen, deal)?;
            if args.divide {
                let lines = banqi::divide(&game, args.depth)
                    .into_iter()
                    .map(|(action, count)| format!("{action}: {count}"));
                print_lines(lines)?;
            }
            banqi::perft(&game, args.depth)
        }
        variant => {
            let (mut position, deal) = board_position(variant, fen, deal)?;
            if args.divide {
                let divided = jieqi_rules::perft::divide(&mut position, &deal, args.depth);
                print_lines(divided.iter().map(|(mv, count)| format!("{mv}: {count}")))?;
                divided.iter().map(|(_, count)| count).sum()
            } else {
                jieqi_rules::perft::perft(&mut position, &deal, args.depth)
            }
        }
    };
    print_lines([total.to_string()])?;
    Ok(ExitCode::SUCCESS)
}

pub fn moves(args: MovesArgs) -> anyhow::Result<ExitCode> {
    let mut texts: Vec<String> = match args.variant {
        Variant::Banqi => banqi_game(args.fen.as_deref(), None)?
            .legal_actions()
            .iter()
            .map(ToString::to_string)
            .collect(),
        variant => board_position(variant, args.fen.as_deref(), None)?
            .0
            .legal_move_vec()
            .iter()
            .map(ToString::to_string)
            .collect(),
    };
    texts.sort();
    print_lines(texts)?;
    Ok(ExitCode::SUCCESS)
}

pub fn fen(args: FenArgs) -> anyhow::Result<ExitCode> {
    let canonical = match args.variant {
        Variant::Banqi => canonical_banqi_fen(&args.fen),
        variant => canonical_board_fen(variant, &args.fen),
    };
    match canonical {
        Ok(text) => {
            print_lines([text])?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            // One line, naming the field and the problem, as scripts expect.
            eprintln!("{error:#}");
            Ok(ExitCode::from(2))
        }
    }
}

fn canonical_board_fen(variant: Variant, text: &str) -> anyhow::Result<String> {
    let (setup, deal) = fen::read_full(text)?;
    if variant == Variant::Xiangqi
        && setup
            .board
            .iter()
            .any(|c| matches!(c, jieqi_rules::Cell::Covered(_)))
    {
        bail!("placement: covered pieces (X/x) belong to Jieqi, not Xiangqi");
    }
    let position = Position::from_setup(setup, variant, MoveOptions::default())?;
    let setup = position.to_setup();
    Ok(match deal {
        Some(pieces) => {
            let deal = Deal::from_pieces(&setup, &pieces)?;
            fen::write_full(&setup, &deal.letters())
        }
        None => fen::write_setup(&setup),
    })
}

fn canonical_banqi_fen(text: &str) -> anyhow::Result<String> {
    Ok(match BanqiPosition::from_full_fen(text)? {
        (position, Some(deal)) => position.to_full_fen(&deal),
        (position, None) => position.to_fen(),
    })
}

/// Prints one line each. A reader that stops early (`| head`) is not an error.
fn print_lines(lines: impl IntoIterator<Item = String>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let written = lines
        .into_iter()
        .try_for_each(|line| writeln!(out, "{line}"))
        .and_then(|()| out.flush());
    match written {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
