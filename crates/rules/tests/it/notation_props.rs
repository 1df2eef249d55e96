//! Properties of the notation: readers never panic on any text, writers and readers round
//! trip on random boards, and every move written in any notation reads back as itself, on
//! random boards, on boards crowded with covered pieces in tandem, and in random Jieqi games.

use jieqi_rules::notation::fen::{read_full, read_setup, write_full, write_setup};
use jieqi_rules::notation::{MoveNotation, ParsedMove, chinese, parse_move, uci, write_move, wxf};
use jieqi_rules::setup::start_role;
use jieqi_rules::{
    BySide, Cell, Game, GameDeal, GameMove, Move, Piece, Preset, Role, Rules, Setup, Side, Square,
    Variant, Viewer,
};
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

/// A random board whose covered pieces all stand on start points (so each is named by the
/// type of its point), with face-up pieces of those types around: covered and face-up like
/// pieces on one file, the tandems Jieqi makes and Xiangqi never does.
fn covered_tandem_setup() -> impl Strategy<Value = Setup> {
    let roles = vec![
        Role::Soldier,
        Role::Soldier,
        Role::Chariot,
        Role::Horse,
        Role::Cannon,
        Role::Elephant,
        Role::Advisor,
    ];
    (
        random_setup(),
        board_with(roles),
        proptest::collection::vec(any::<bool>(), Square::COUNT),
    )
        .prop_map(|(mut setup, face_up, cover)| {
            for square in Square::all() {
                let i = square.index();
                let start = Side::ALL
                    .into_iter()
                    .find(|&side| start_role(side, square).is_some_and(|r| r != Role::General));
                setup.board[i] = match (start, cover[i]) {
                    (Some(side), true) => Cell::Covered(Some(side)),
                    _ => match face_up[i] {
                        Cell::Covered(_) => Cell::Empty,
                        cell => cell,
                    },
                };
            }
            setup
        })
}

/// Moves picked among the geometric moves of a board, each with the reveal to write.
fn picks_on(setup: Setup) -> impl Strategy<Value = (Setup, Vec<Move>, Picks)> {
    let legal = geometric_moves(&setup);
    let n = legal.len().max(1);
    let picks = proptest::collection::vec((0..n, proptest::option::of(reveal_role())), 1..12);
    (Just(setup), Just(legal), picks).prop_map(|(setup, legal, picks)| {
        let chosen = picks
            .into_iter()
            .filter_map(|(i, reveal)| {
                let mv = *legal.get(i)?;
                let covered = matches!(setup.cell(mv.from), Cell::Covered(_));
                Some((mv, reveal.filter(|_| covered)))
            })
            .collect();
        (setup, legal, chosen)
    })
}

/// Characters only one script uses in Chinese move text.
const SIMPLIFIED_ONLY: &str = "车马帅将进后";
const TRADITIONAL_ONLY: &str = "俥車傌馬帥將砲進後";

/// Checks that `text`, written for `mv` in `notation`, reads back as `mv` with `reveal`, and
/// that Chinese keeps to one script.
fn reads_back(
    setup: &Setup,
    legal: &[Move],
    mv: Move,
    reveal: Option<Role>,
    notation: MoveNotation,
) -> Result<(), TestCaseError> {
    let text = write_move(setup, mv, reveal, notation);
    prop_assert_eq!(
        parse_move(setup, legal, &text),
        Ok(ParsedMove { mv, reveal }),
        "{} written in {:?} as {}",
        mv,
        notation,
        text
    );
    let other_script = match notation {
        MoveNotation::Chinese => TRADITIONAL_ONLY,
        MoveNotation::ChineseTraditional => SIMPLIFIED_ONLY,
        MoveNotation::Coordinates | MoveNotation::Wxf => "",
    };
    prop_assert!(
        !text.chars().any(|c| other_script.contains(c)),
        "{} mixes scripts",
        text
    );
    Ok(())
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
                reads_back(&setup, &legal, mv, reveal, notation)?;
            }
        }
    }

    #[test]
    fn moves_of_covered_tandems_read_back(
        (setup, legal, picks) in covered_tandem_setup().prop_flat_map(picks_on)
    ) {
        for (mv, reveal) in picks {
            for notation in MoveNotation::ALL {
                reads_back(&setup, &legal, mv, reveal, notation)?;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every legal move of every position of a random Jieqi game, written in every notation
    /// from the public position (with and without the reveal a covered mover makes), reads
    /// back as itself.
    #[test]
    fn every_legal_move_of_random_jieqi_games_reads_back(seed in any::<u64>(), choices in proptest::collection::vec(any::<u32>(), 0..120)) {
        let mut pick = seeded_pick(seed);
        let deal = GameDeal::shuffled(Variant::Jieqi, &mut pick);
        let Ok(mut game) = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal) else {
            return Err(TestCaseError::fail("a shuffled deal starts a game"));
        };
        for choice in choices {
            let legal: Vec<Move> = game
                .legal_moves()
                .into_iter()
                .filter_map(|m| match m {
                    GameMove::Board(mv) => Some(mv),
                    GameMove::Banqi(_) => None,
                })
                .collect();
            let Some(&next) = legal.get(choice as usize % legal.len().max(1)) else {
                break;
            };
            let setup = read_setup(&game.fen(Viewer::Public)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            for &mv in &legal {
                let covered = matches!(setup.cell(mv.from), Cell::Covered(_));
                let reveals = if covered { vec![None, Some(Role::Cannon)] } else { vec![None] };
                for reveal in reveals {
                    for notation in MoveNotation::ALL {
                        reads_back(&setup, &legal, mv, reveal, notation)?;
                    }
                }
            }
            if game.play(GameMove::Board(next)).is_err() || game.outcome().is_some() {
                break;
            }
        }
    }
}

/// A seeded SplitMix64 `pick(n)` for dealing.
fn seeded_pick(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed;
    move |n: u32| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        u32::try_from(z % u64::from(n.max(1))).unwrap_or(0)
    }
}
