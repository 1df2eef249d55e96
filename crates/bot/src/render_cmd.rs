//! `render`: draws one position as a PNG, as the bot would show it to the public.
//!
//! The FEN is read into a public [`View`] (a Jieqi FEN's deal field, if any, is ignored: the
//! picture shows covered pieces face down), the optional last move is marked, and
//! `jieqi-render` draws it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use jieqi_render::{PieceStyle, RenderOptions};
use jieqi_rules::banqi::{BanqiDeal, BanqiGame};
use jieqi_rules::notation::fen;
use jieqi_rules::position::{MoveOptions, Position};
use jieqi_rules::{
    BySide, CapturedTray, Cell, LastAction, Point, Role, Setup, Side, Square, Variant, View, Viewer,
};

/// How the pieces are marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Style {
    /// The traditional characters (帥仕相俥傌炮兵 / 將士象車馬砲卒).
    Characters,
    /// Simple pictures, for players who do not read the characters.
    Symbols,
}

/// `render`: one position to a PNG file.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// xiangqi, jieqi or banqi.
    #[arg(long, default_value = "xiangqi")]
    variant: Variant,
    /// The position (quote it: it has spaces). Default: the variant's start.
    #[arg(long)]
    fen: Option<String>,
    /// The last move to mark, like `h2e2`; in Banqi also one square, like `c3`, for a flip.
    #[arg(long)]
    last: Option<String>,
    /// Draw Black at the bottom (default: Red).
    #[arg(long)]
    black_bottom: bool,
    /// characters or symbols.
    #[arg(long, value_enum, default_value = "characters")]
    style: Style,
    /// Picture width in pixels.
    #[arg(long, default_value_t = 720)]
    width: u32,
    /// Where to write the PNG.
    #[arg(short, long)]
    output: PathBuf,
}

/// Runs `render`.
pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let mut view = match args.variant {
        Variant::Banqi => banqi_view(args.fen.as_deref())?,
        variant => board_view(variant, args.fen.as_deref())?,
    };
    if let Some(last) = &args.last {
        view.last_action = Some(parse_last(last, args.variant)?);
    }
    let options = RenderOptions {
        width: args.width,
        orientation: if args.black_bottom {
            Side::Black
        } else {
            Side::Red
        },
        style: match args.style {
            Style::Characters => PieceStyle::Characters,
            Style::Symbols => PieceStyle::Symbols,
        },
    };
    let png = jieqi_render::render(&view, &options)?;
    std::fs::write(&args.output, png)
        .with_context(|| format!("could not write {}", args.output.display()))?;
    Ok(ExitCode::SUCCESS)
}

/// The public view of a Xiangqi or Jieqi FEN.
fn board_view(variant: Variant, text: Option<&str>) -> anyhow::Result<View> {
    let setup = match text {
        Some(text) => fen::read_full(text).context("the FEN could not be read")?.0,
        None if variant == Variant::Jieqi => Setup::jieqi_start(),
        None => Setup::xiangqi_start(),
    };
    let position = Position::from_setup(setup.clone(), variant, MoveOptions::default())
        .context("the FEN is not a legal position")?;
    let check = if position.is_check() {
        position.general(position.side_to_move()).map(point_of)
    } else {
        None
    };
    Ok(View {
        variant,
        viewer: Viewer::Public,
        files: 9,
        ranks: 10,
        cells: setup.board.to_vec(),
        side_to_move: Some(setup.side_to_move),
        captured: BySide::new_with(|side| captured_tray(&setup, variant, side)),
        last_action: None,
        check,
        ply: 0,
        deal: None,
        fen: fen::write_setup(&setup),
    })
}

/// What `side` has lost, as the public knows it. A Xiangqi FEN need not list captures: every
/// piece missing from the board was taken, and its type is plain. A Jieqi FEN lists the
/// captures whose type is public; the other missing pieces were taken while covered.
fn captured_tray(setup: &Setup, variant: Variant, side: Side) -> CapturedTray {
    let on_board = |role: Option<Role>| {
        setup
            .board
            .iter()
            .filter(|cell| match (cell, role) {
                (Cell::Piece(p), Some(role)) => p.side == side && p.role == role,
                (Cell::Piece(p), None) => p.side == side,
                (Cell::Covered(s), None) => *s == Some(side),
                _ => false,
            })
            .count()
    };
    let repeat = |role: Role, count: usize| std::iter::repeat_n(role, count);
    if variant == Variant::Xiangqi {
        let known = Role::ALL
            .into_iter()
            .flat_map(|role| {
                let start = usize::from(role.start_count());
                repeat(role, start.saturating_sub(on_board(Some(role))))
            })
            .collect();
        return CapturedTray { known, unknown: 0 };
    }
    let known: Vec<Role> = Role::ALL
        .into_iter()
        .flat_map(|role| repeat(role, usize::from(setup.captured[side][role.index()])))
        .collect();
    let lost = 16usize.saturating_sub(on_board(None));
    let unknown = u8::try_from(lost.saturating_sub(known.len())).unwrap_or(u8::MAX);
    CapturedTray { known, unknown }
}

/// The public view of a Banqi FEN (or the start, every piece face down).
fn banqi_view(text: Option<&str>) -> anyhow::Result<View> {
    let game = match text {
        Some(text) => BanqiGame::from_fen(text).context("the Banqi FEN could not be read")?,
        None => BanqiGame::new(BanqiDeal::fixed()),
    };
    Ok(game.view(Viewer::Public))
}

fn point_of(square: Square) -> Point {
    Point {
        file: square.file().index(),
        rank: square.rank().index(),
    }
}

/// A point written as a file letter and a rank digit: `a`–`i` and `0`–`9` on the 9 x 10
/// board, `a`–`h` and `1`–`4` in Banqi.
fn parse_point(file: char, rank: char, variant: Variant) -> Option<Point> {
    let (files, first_rank, ranks) = match variant {
        Variant::Banqi => (8, '1', 4),
        Variant::Xiangqi | Variant::Jieqi => (9, '0', 10),
    };
    let file = u8::try_from(u32::from(file).checked_sub(u32::from('a'))?).ok()?;
    let rank = u8::try_from(u32::from(rank).checked_sub(u32::from(first_rank))?).ok()?;
    (file < files && rank < ranks).then_some(Point { file, rank })
}

/// `--last`: two points for a move, or one for a Banqi flip.
fn parse_last(text: &str, variant: Variant) -> anyhow::Result<LastAction> {
    let chars: Vec<char> = text.trim().to_ascii_lowercase().chars().collect();
    let point = |pair: &[char]| match pair {
        [file, rank] => parse_point(*file, *rank, variant),
        _ => None,
    };
    let action = match chars.as_slice() {
        [a, b, c, d] => point(&[*a, *b])
            .zip(point(&[*c, *d]))
            .map(|(from, to)| LastAction::Move { from, to }),
        [a, b] if variant == Variant::Banqi => point(&[*a, *b]).map(LastAction::Flip),
        _ => None,
    };
    match action {
        Some(action) => Ok(action),
        None if variant == Variant::Banqi => bail!(
            "`{text}` is not a move: write two squares like `a1a2`, or one like `c3` for a flip"
        ),
        None => {
            bail!("`{text}` is not a move: write two points like `h2e2` (files a–i, ranks 0–9)")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_moves_read_as_two_points_or_a_banqi_flip() {
        assert_eq!(
            parse_last("h2e2", Variant::Jieqi).ok(),
            Some(LastAction::Move {
                from: Point { file: 7, rank: 2 },
                to: Point { file: 4, rank: 2 }
            })
        );
        assert_eq!(
            parse_last("c3", Variant::Banqi).ok(),
            Some(LastAction::Flip(Point { file: 2, rank: 2 }))
        );
        for bad in ["", "h2", "h2e", "j2e2", "h2e2x", "é2e2"] {
            assert!(parse_last(bad, Variant::Jieqi).is_err(), "{bad}");
        }
        assert!(parse_last("a5a4", Variant::Banqi).is_err());
    }

    #[test]
    fn a_jieqi_fen_shows_covered_captures_as_unknown() {
        // Red has lost one covered piece (15 on the board) and Black a known chariot.
        let text = "rxxxkxxxr/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/1XXXKXXXX b - - 0 1";
        let view = board_view(Variant::Jieqi, Some(text)).expect("a legal position");
        assert_eq!(view.captured.red.unknown, 1);
        assert!(view.captured.red.known.is_empty());
        assert_eq!(view.captured.black.unknown, 0);
    }

    #[test]
    fn a_xiangqi_check_is_marked_on_the_general() {
        let view = board_view(
            Variant::Xiangqi,
            Some("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"),
        )
        .expect("a legal position");
        assert_eq!(view.check, Some(Point { file: 4, rank: 9 }));
        assert_eq!(view.captured.black.known.len(), 15);
    }
}
