//! Views built by hand for the tests, the benchmark and the sample pictures: the rules
//! crate's game code is not needed to draw a position.
#![allow(dead_code)]

use jieqi_rules::{
    BySide, CapturedTray, Cell, LastAction, Piece, Point, Role, Setup, Side, Variant, View, Viewer,
};

/// The point named like `e0` (file letter, rank digit) of the 9 x 10 board.
pub fn point(name: &str) -> Point {
    let b = name.as_bytes();
    Point {
        file: b[0] - b'a',
        rank: b[1] - b'0',
    }
}

/// A face-up piece.
pub fn piece(side: Side, role: Role) -> Cell {
    Cell::Piece(Piece::new(side, role))
}

/// The Jieqi start, as the public sees it.
pub fn jieqi_start() -> View {
    let setup = Setup::jieqi_start();
    View {
        variant: Variant::Jieqi,
        viewer: Viewer::Public,
        files: 9,
        ranks: 10,
        cells: setup.board.to_vec(),
        side_to_move: Some(Side::Red),
        captured: BySide::default(),
        last_action: None,
        check: None,
        ply: 0,
        deal: None,
        fen: String::new(),
    }
}

/// Sets the cell at a named point of a 9 x 10 view.
pub fn put(view: &mut View, name: &str, cell: Cell) {
    let p = point(name);
    view.cells[usize::from(p.rank) * 9 + usize::from(p.file)] = cell;
}

/// A Jieqi game some moves in, as the public sees it: Black's horse has just given check.
pub fn jieqi_midgame() -> View {
    let mut view = jieqi_start();
    for (name, cell) in [
        ("h2", Cell::Empty),
        ("e2", piece(Side::Red, Role::Horse)),
        ("e3", Cell::Empty),
        ("e4", piece(Side::Red, Role::Soldier)),
        ("a0", Cell::Empty),
        ("a2", piece(Side::Red, Role::Chariot)),
        ("b7", Cell::Empty),
        ("e7", piece(Side::Black, Role::Chariot)),
        ("c6", Cell::Empty),
        ("c5", piece(Side::Black, Role::Soldier)),
        ("h7", Cell::Empty),
        ("h3", piece(Side::Black, Role::Cannon)),
        ("g3", Cell::Empty),
        ("b2", Cell::Empty),
        ("d2", piece(Side::Black, Role::Horse)),
        ("i9", Cell::Empty),
        ("i8", piece(Side::Black, Role::Elephant)),
    ] {
        put(&mut view, name, cell);
    }
    view.captured = BySide {
        red: CapturedTray {
            known: vec![Role::Soldier],
            unknown: 2,
        },
        black: CapturedTray {
            known: vec![Role::Advisor],
            unknown: 1,
        },
    };
    view.last_action = Some(LastAction::Move {
        from: point("c4"),
        to: point("d2"),
    });
    view.check = Some(point("e0"));
    view.ply = 18;
    view
}

/// A Banqi game a dozen turns in; the last action turned a piece face up.
pub fn banqi_midgame() -> View {
    let mut cells = vec![Cell::Covered(None); 32];
    let mut put =
        |file: u8, rank: u8, cell: Cell| cells[usize::from(rank) * 8 + usize::from(file)] = cell;
    put(0, 0, piece(Side::Red, Role::Chariot));
    put(2, 0, Cell::Empty);
    put(3, 1, piece(Side::Black, Role::Cannon));
    put(4, 1, piece(Side::Red, Role::General));
    put(5, 2, Cell::Empty);
    put(6, 2, piece(Side::Black, Role::Soldier));
    put(1, 3, piece(Side::Black, Role::Horse));
    put(7, 3, piece(Side::Red, Role::Elephant));
    put(2, 2, piece(Side::Red, Role::Soldier));
    put(6, 0, Cell::Empty);
    View {
        variant: Variant::Banqi,
        viewer: Viewer::Public,
        files: 8,
        ranks: 4,
        cells,
        side_to_move: Some(Side::Black),
        captured: BySide {
            red: CapturedTray {
                known: vec![Role::Advisor, Role::Soldier],
                unknown: 0,
            },
            black: CapturedTray {
                known: vec![Role::Horse],
                unknown: 0,
            },
        },
        last_action: Some(LastAction::Flip(Point { file: 2, rank: 2 })),
        check: None,
        ply: 14,
        deal: None,
        fen: String::new(),
    }
}

/// A Swiss's standings after `rounds` rounds, `players` rows, names in several scripts
/// and a few hostile ones (very long, an RTL override, control characters, emoji).
pub fn swiss_standings(players: usize, rounds: usize) -> Vec<jieqi_render::StandingsRow> {
    use jieqi_render::{Outcome, RoundCell, StandingsRow};
    const NAMES: [&str; 12] = [
        "王天一",
        "Nguyễn Thành Bảo",
        "許銀川",
        "Lại Lý Huynh",
        "김민준",
        "Anna Kowalska",
        "さくら 田中",
        "Đặng Hữu Trang",
        "\u{202E}evil override\u{202C} name",
        "A very long name that goes on and on past the column's end",
        "dragon 🐉 player\u{0007}",
        "<b>markup</b> & co",
    ];
    (0..players)
        .map(|k| {
            let half_points = (players - k) * 2 * rounds / players;
            let cells = (0..rounds)
                .map(|r| {
                    if (k + r) % 13 == 5 {
                        return RoundCell::Bye {
                            half_points: (r % 3) as u8,
                        };
                    }
                    let outcome = match (k * 7 + r * 3) % 5 {
                        0 | 1 => Outcome::Win,
                        2 => Outcome::Draw,
                        3 => Outcome::Loss,
                        _ if r + 1 == rounds => Outcome::Playing,
                        _ => Outcome::ForfeitWin,
                    };
                    RoundCell::Game {
                        opponent: ((k * 31 + r * 17) % players + 1) as u32,
                        side: if (k + r) % 2 == 0 {
                            Side::Red
                        } else {
                            Side::Black
                        },
                        outcome,
                    }
                })
                .collect();
            StandingsRow {
                rank: k as u32 + 1,
                name: if k < NAMES.len() {
                    NAMES[k].to_owned()
                } else {
                    format!("Player {k}")
                },
                points: format!(
                    "{}{}",
                    half_points / 2,
                    if half_points % 2 == 1 { ".5" } else { "" }
                ),
                tiebreaks: vec![
                    format!("{}.5", 20 + (players - k) % 9),
                    format!("{}", 24 + (players - k) % 11),
                    format!("{}.25", 10 + (players - k) % 7),
                    "0".to_owned(),
                    format!("{}", (players - k) % 6),
                ],
                rounds: cells,
                streak: false,
            }
        })
        .collect()
}
