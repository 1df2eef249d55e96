//! The standings picture through the public API: its rows, the asker's highlight, and
//! names in any script drawn without failing.

use crate::common::swiss_standings;
use jieqi_render::{StandingsTable, TOP_ROWS, render_standings};

/// Width, height and RGB pixels of a PNG.
fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    assert_eq!(info.color_type, png::ColorType::Rgb, "standings are opaque");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn table<'a>(rows: &'a [jieqi_render::StandingsRow], asker: Option<usize>) -> StandingsTable<'a> {
    StandingsTable {
        title: "Club Swiss, after round 9",
        tiebreaks: &["BH-1", "BH", "SB", "DE", "W"],
        rounds: 9,
        rows,
        asker,
    }
}

#[test]
fn a_large_event_draws_the_top_rows_and_the_askers_row_highlighted() {
    let rows = swiss_standings(500, 9);
    let (width, height, pixels) = decode(&render_standings(&table(&rows, Some(377))).unwrap());
    // Title, header, the top rows, the gap and the asker's row: 30 pixels a row.
    let shown = TOP_ROWS + 2;
    assert_eq!(
        height,
        (12.0 + 30.0 * 1.3 + 30.0 * (shown as f64 + 1.0) + 12.0).ceil() as u32
    );
    // The asker's row (the last) is painted in the highlight, from its left edge.
    let y = height - 12 - 15;
    let x = 14;
    let at = ((y * width + x) * 3) as usize;
    assert_eq!(&pixels[at..at + 3], &[0xff, 0xe5, 0x8f]);
    // A row of the top twenty is not.
    let y = 12 + 39 + 30 * 3 + 15;
    let at = ((y * width + x) * 3) as usize;
    assert_ne!(&pixels[at..at + 3], &[0xff, 0xe5, 0x8f]);
}

#[test]
fn a_small_event_draws_every_row_and_no_gap() {
    let rows = swiss_standings(8, 9);
    let (_, height, _) = decode(&render_standings(&table(&rows, Some(5))).unwrap());
    assert_eq!(
        height,
        (12.0_f64 + 30.0 * 1.3 + 30.0 * 9.0 + 12.0).ceil() as u32
    );
}

#[test]
fn hostile_names_are_drawn_without_failing() {
    let mut rows = swiss_standings(12, 3);
    rows[0].name = "\u{202E}\u{0000}\u{FEFF}".to_owned();
    rows[1].name = "🐉".repeat(500);
    rows[2].name = "x".repeat(10_000);
    rows[3].name = "</text><script>".to_owned();
    let png = render_standings(&table(&rows, None)).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn an_arena_row_on_a_streak_has_a_flame_before_its_points() {
    let rows: Vec<jieqi_render::StandingsRow> = (0..3u32)
        .map(|k| jieqi_render::StandingsRow {
            rank: k + 1,
            name: format!("player {k}"),
            points: (12 - 4 * k).to_string(),
            tiebreaks: vec![(3 - k).to_string(), "4".to_owned()],
            rounds: Vec::new(),
            streak: k == 0,
        })
        .collect();
    let arena = StandingsTable {
        title: "Arena t4f7k2",
        tiebreaks: &["W", "G"],
        rounds: 0,
        rows: &rows,
        asker: None,
    };
    let (width, _, pixels) = decode(&render_standings(&arena).unwrap());
    let flame = [0xe8, 0x59, 0x0c];
    // The flame's body beside its yellow core: 5 px right of its centre (12 px into the
    // points column, at 12 + 44 + 250) and 3 px below the row's middle.
    let at = |row: u32| {
        let (x, y) = (12 + 44 + 250 + 12 + 5, 12 + 39 + 30 * (row + 1) + 15 + 3);
        ((y * width + x) * 3) as usize
    };
    assert_eq!(&pixels[at(0)..at(0) + 3], &flame, "on a streak");
    assert_ne!(&pixels[at(1)..at(1) + 3], &flame, "not on a streak");
}
