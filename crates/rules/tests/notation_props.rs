//! Properties of the notation: readers never panic on any text, writers and readers round
//! trip on random boards, and every move written in any notation reads back as itself.

use jieqi_rules::notation::fen::{read_full, read_setup, write_full, write_setup};
use jieqi_rules::notation::{MoveNotation, ParsedMove, chinese, parse_move, uci, write_move, wxf};
use jieqi_rules::setup::start_role;
use jieqi_rules::{BySide, Cell, Move, Piece, Role, Setup, Side, Square};
use proptest::prelude::*;

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Red), Just(Side::Black)]
}

/// A role other than the general, as a covered piece can turn out to be.
fn reveal_role() -> impl Strategy<Value = Role> {
    proptest::sample::select(Role::ALL[1..].to_vec())
}

/// A cell of a random board: mostly empty; pieces drawn from `roles`.
fn cell(roles: Vec<Role>) -> impl Strategy<Value = Cell> {
    prop_oneof![
        6 => Just(Cell::Empty),
        4 => (side(), proptest::sample::select(roles)).prop_map(|(s, r)| Cell::Piece(Piece::new(s, r))),
        1 => side().prop_map(|s| Cell::Covered(Some(s))),
    ]
}

fn board_with(roles: Vec<Role>) -> impl Strategy<Value = [Cell; Square::COUNT]> {
    proptest::collection::vec(cell(roles), Square::COUNT).prop_map(|cells| {
        let mut board = [Cell::Empty; Square::COUNT];
        board.copy_from_slice(&cells);
        board
    })
}

/// Any board: all roles, or (to crowd files with soldiers) mostly soldiers.
fn board() -> impl Strategy<Value = [Cell; Square::COUNT]> {
    prop_oneof![
        board_with(Role::ALL.to_vec()),
        board_with(vec![
            Role::Soldier,
            Role::Soldier,
            Role::Soldier,
            Role::Chariot,
            Role::Horse
        ]),
    ]
}

fn captured_counts() -> impl Strategy<Value = [u8; 7]> {
    // The general is never captured; others up to their start count.
    (0..=2u8, 0..=2u8, 0..=2u8, 0..=2u8, 0..=2u8, 0..=5u8)
        .prop_map(|(a, e, r, c, h, p)| [0, a, e, r, c, h, p])
}

fn random_setup() -> impl Strategy<Value = Setup> {
    (
        board(),
        captured_counts(),
        captured_counts(),
        side(),
        any::<u32>(),
        1..=u32::MAX,
    )
        .prop_map(
            |(board, red, black, side_to_move, halfmove_clock, fullmove_number)| Setup {
                board,
                captured: BySide { red, black },
                side_to_move,
                halfmove_clock,
                fullmove_number,
            },
        )
}

/// The piece a player names on `square`: face up, or covered by its start point's type.
fn named(setup: &Setup, square: Square) -> Option<Piece> {
    match setup.cell(square) {
        Cell::Piece(p) => Some(p),
        Cell::Covered(Some(side)) => start_role(side, square).map(|r| Piece::new(side, r)),
        _ => None,
    }
}

/// Every move of the side to move that its named type could make on an empty board: straight
/// lines for general, chariot, cannon and soldier, the usual leaps for the diagonal movers.
/// Legality does not matter to notation; the shapes do.
fn geometric_moves(setup: &Setup) -> Vec<Move> {
    let mut out = Vec::new();
    for from in Square::all() {
        let Some(piece) = named(setup, from) else {
            continue;
        };
        if piece.side != setup.side_to_move {
            continue;
        }
        let (f, r) = (
            i32::from(from.file().index()),
            i32::from(from.rank().index()),
        );
        let steps: &[(i32, i32)] = match piece.role {
            Role::Advisor => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
            Role::Elephant => &[(2, 2), (2, -2), (-2, 2), (-2, -2)],
            Role::Horse => &[
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ],
            Role::General | Role::Chariot | Role::Cannon | Role::Soldier => {
                for to in Square::all() {
                    if to != from && (to.file() == from.file() || to.rank() == from.rank()) {
                        out.push(Move::new(from, to));
                    }
                }
                continue;
            }
        };
        for (df, dr) in steps {
            if let Some(to) = Square::from_coords(f + df, r + dr) {
                out.push(Move::new(from, to));
            }
        }
    }
    out
}

/// Moves picked for a test, each with the reveal to write.
type Picks = Vec<(Move, Option<Role>)>;

/// A random board, its geometric moves, and a few picks among them with reveals for covered
/// movers.
fn board_and_moves() -> impl Strategy<Value = (Setup, Vec<Move>, Picks)> {
    random_setup()
        .prop_filter_map("no piece can move", |setup| {
            let legal = geometric_moves(&setup);
            (!legal.is_empty()).then_some((setup, legal))
        })
        .prop_flat_map(|(setup, legal)| {
            let n = legal.len();
            let picks =
                proptest::collection::vec((0..n, proptest::option::of(reveal_role())), 1..6);
            (Just(setup), Just(legal), picks)
        })
        .prop_map(|(setup, legal, picks)| {
            let chosen = picks
                .into_iter()
                .map(|(i, reveal)| {
                    let mv = legal[i];
                    let covered = matches!(setup.cell(mv.from), Cell::Covered(_));
                    (mv, reveal.filter(|_| covered))
                })
                .collect();
            (setup, legal, chosen)
        })
}

fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-iA-I0-9+\\-.=KAERCHPNBXkaerchpnbx ]{0,8}",
        // Well-formed shapes, which often name a move of a random board.
        "[a-i][0-9][a-i][0-9][aerchpk]?",
        "([KAERCHP][1-9]|[KAERCHP][+-]|[+-][KAERCHP]|\\+\\+|--|[1-9][+-])[+.=\\-][1-9](=[AERCHPK])?",
        "[前中后二]?[炮車馬相仕帥兵][一二三四五六七八九]?[进退平][一二三四五六七八九](=[炮車])?",
        "[炮砲包車车俥馬马傌相象仕士帥将兵卒前后後中进進退平一二三四五六七八九１２５0-9=＝ ]{0,8}",
    ]
}

fn fen_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[1-9kaerchpxKAERCHPXnbNB/\\[\\],0-9wb\\- ]{0,100}",
        // Nearly valid: ten ranks of plausible text and plausible fields.
        ("([1-9kaerchpxKAERCHPX]{1,6}/){9}[1-9kaerchpxKAERCHPX]{1,6}(\\[[AERCHPaerchpKXx,0-9]{0,8}\\])?",
         "[wbr-]", "[-a-z]{1,2}", "[-0-9]{1,2}", "[0-9+]{1,3}", "[0-9]{1,3}", "( [A-Za-z?-]{0,31})?")
            .prop_map(|(p, c, k, e, h, f, d)| format!("{p} {c} {k} {e} {h} {f}{d}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fen_readers_never_panic(text in fen_text()) {
        let setup = read_setup(&text);
        let full = read_full(&text);
        // Whatever reads as a setup reads the same as the setup part of a full FEN.
        if let Ok(setup) = setup {
            prop_assert_eq!(full.map(|(s, _)| s), Ok(setup));
        }
    }

    #[test]
    fn move_readers_never_panic_and_never_misread(text in move_text(), setup in random_setup()) {
        for s in [&setup, &Setup::jieqi_start()] {
            let legal = geometric_moves(s);
            let _ = uci::read(s, &legal, &text);
            let _ = uci::parse(&text);
            let _ = wxf::read(s, &legal, &text);
            let _ = chinese::read(s, &legal, &text);
            let Ok(parsed) = parse_move(s, &legal, &text) else { continue };
            prop_assert!(legal.contains(&parsed.mv));
            // Whatever was read, written again in any notation, reads as the same move.
            for notation in MoveNotation::ALL {
                let written = write_move(s, parsed.mv, parsed.reveal, notation);
                prop_assert_eq!(parse_move(s, &legal, &written), Ok(parsed), "{} from {}", written, text);
            }
        }
    }

    #[test]
    fn random_setups_round_trip_through_fen(setup in random_setup()) {
        let fen = write_setup(&setup);
        prop_assert_eq!(read_setup(&fen), Ok(setup.clone()));
        prop_assert_eq!(write_setup(&read_setup(&fen).expect("just read")), fen);
    }

    #[test]
    fn random_deals_round_trip_through_full_fen(setup in random_setup(), seed in any::<u64>()) {
        // One true type per covered piece, in reading order, case by its side.
        let mut state = seed;
        let deal: Vec<Piece> = (0..10).rev()
            .flat_map(|rank| (0..9).filter_map(move |file| Square::from_coords(file, rank)))
            .filter_map(|sq| match setup.cell(sq) {
                Cell::Covered(Some(side)) => Some(side),
                _ => None,
            })
            .map(|side| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let role = Role::ALL[1 + (state >> 33) as usize % 6];
                Piece::new(side, role)
            })
            .collect();
        let letters: String = deal.iter().map(|p| p.char()).collect();
        let fen = write_full(&setup, &letters);
        prop_assert_eq!(read_full(&fen), Ok((setup, Some(deal))));
    }

    #[test]
    fn every_written_move_reads_back((setup, legal, picks) in board_and_moves()) {
        for (mv, reveal) in picks {
            for notation in MoveNotation::ALL {
                let text = write_move(&setup, mv, reveal, notation);
                prop_assert_eq!(
                    parse_move(&setup, &legal, &text),
                    Ok(ParsedMove { mv, reveal }),
                    "{} written in {} as {}", mv, notation, text
                );
            }
        }
    }
}
