//! Writes the sample pictures under `docs/` (boards from views built by hand, and a
//! standings table):
//! `cargo run -p jieqi-render --example samples -- [OUT_DIR] [--all]` (`--all` adds the
//! symbol style, Black at the bottom, a full view, a small one and a GIF, to look at).

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::{banqi_midgame, jieqi_midgame, jieqi_start};
use jieqi_render::{
    PieceStyle, RenderOptions, StandingsTable, render, render_gif, render_standings,
};
use jieqi_rules::{Cell, Piece, Point, Role, Side, Viewer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "docs".to_owned()));
    std::fs::create_dir_all(&out)?;
    let jieqi = jieqi_midgame();
    let banqi = banqi_midgame();
    let default = RenderOptions::default();
    let symbols = RenderOptions {
        style: PieceStyle::Symbols,
        ..default
    };
    let black = RenderOptions {
        orientation: Side::Black,
        ..default
    };
    std::fs::write(out.join("sample-jieqi.png"), render(&jieqi, &default)?)?;
    std::fs::write(out.join("sample-banqi.png"), render(&banqi, &default)?)?;
    let rows = common::swiss_standings(60, 7);
    let table = StandingsTable {
        title: "Club Swiss, after round 7 of 9",
        tiebreaks: &["BH-1", "BH", "SB", "DE", "W"],
        rounds: 7,
        rows: &rows,
        asker: Some(41),
    };
    std::fs::write(out.join("sample-standings.png"), render_standings(&table)?)?;
    if std::env::args().nth(2).as_deref() == Some("--all") {
        std::fs::write(
            out.join("sample-jieqi-symbols.png"),
            render(&jieqi, &symbols)?,
        )?;
        std::fs::write(out.join("sample-jieqi-black.png"), render(&jieqi, &black)?)?;
        std::fs::write(
            out.join("sample-banqi-symbols.png"),
            render(&banqi, &symbols)?,
        )?;
        let mut full = jieqi.clone();
        full.viewer = Viewer::Full;
        full.deal = Some(
            full.cells
                .iter()
                .enumerate()
                .filter(|(_, c)| matches!(c, Cell::Covered(_)))
                .map(|(i, c)| {
                    let side = if let Cell::Covered(Some(s)) = c {
                        *s
                    } else {
                        Side::Red
                    };
                    let p = Point {
                        file: (i % 9) as u8,
                        rank: (i / 9) as u8,
                    };
                    (p, Piece::new(side, Role::ALL[i % 7]))
                })
                .collect(),
        );
        std::fs::write(out.join("sample-jieqi-full.png"), render(&full, &default)?)?;
        let small = RenderOptions {
            width: 320,
            ..default
        };
        std::fs::write(out.join("sample-jieqi-320.png"), render(&jieqi, &small)?)?;
        let start = jieqi_start();
        let gif = render_gif(
            &[start, jieqi.clone()],
            &RenderOptions {
                width: 360,
                ..default
            },
        )?;
        std::fs::write(out.join("sample-jieqi.gif"), gif)?;
    }
    Ok(())
}
