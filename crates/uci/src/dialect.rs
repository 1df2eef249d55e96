//! Positions and moves as UCI GUIs write them, turned into what the side to move knows.
//!
//! **Xiangqi** is plain FEN (`<placement> w - - 0 1`), letters K A B/E R C N/H P, and moves in
//! coordinates (`h2e2`).
//!
//! **Jieqi** follows Pikafish's `jieqi` branch, which Jieqi GUIs such as JieqiBox speak. The
//! FEN has five fields: placement with `X`/`x` for covered pieces, side to move, the **pool**
//! of pieces still hidden, halfmove clock and move number, e.g.
//! `xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1`.
//! The pool is a list of letter+count entries (`-` when empty), uppercase for Red's hidden
//! pieces and lowercase for Black's, in any order. It is the side to move's knowledge: a
//! covered piece captured without its type being learnt stays in the pool, so the pool may
//! hold more pieces than stand covered on the board (the difference is the captured covered
//! pieces of unknown type). A move that turns a covered piece face up carries the revealed
//! type as a fifth character (`e3e4P`), and a capture of a covered piece may name what was
//! taken the same way; when one move does both, the sixth character names the captured piece
//! (`b2b9Rn`). Pikafish reads a letter's case as the piece's colour, so [`write_move`] writes the
//! revealed letter in the mover's case and a captured one in the other side's (`e3e4P` for Red,
//! `e6e5p` for Black); the letters are read in either case (the side is the board's); a capture
//! named nowhere leaves the pool as it was. JieqiBox's older seven-field form (the pool right
//! after the placement, then `w - - 0 1`) and our own FEN with a `[...]` captured group (six
//! fields) are read too.
//!
//! Whatever the GUI writes, the engine gets a [`View`] of exactly that knowledge and nothing
//! more: there is no way to tell it more than one side knows.

use jieqi_rules::notation::fen::{FenError, read_setup, write_setup};
use jieqi_rules::position::{MoveOptions, Position, PositionError};
use jieqi_rules::{
    BySide, CapturedTray, Cell, GameMove, Move, Piece, Point, Role, Side, Square, Variant, View,
    Viewer,
};
use thiserror::Error;

use crate::command::shorten;

/// Why a `position` command describes no position the engine can play.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DialectError {
    /// The FEN's placement or fields are wrong.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// The pool field is not letter+count entries.
    #[error(
        "bad pool `{0}`: write letter+count entries such as `R2A2C2P5N2B2r2a2c2p5n2b2`, or `-`"
    )]
    Pool(String),
    /// Board and pool together give a side more pieces than an army has.
    #[error("the board and the pool give {side} {count} {role}s, but an army has {}", .role.start_count())]
    TooMany {
        /// Whose pieces.
        side: Side,
        /// Which type.
        role: Role,
        /// Face up on the board plus hidden in the pool.
        count: u32,
    },
    /// More covered pieces than the pool can account for.
    #[error("{side} has {covered} covered pieces but the pool hides only {pool}")]
    PoolTooSmall {
        /// Whose pieces.
        side: Side,
        /// Covered pieces on the board.
        covered: u32,
        /// Pieces of that side in the pool.
        pool: u32,
    },
    /// The rules refuse the position.
    #[error("not a playable position: {0}")]
    Position(#[from] PositionError),
    /// A move of the `moves` list cannot be read or played.
    #[error("move {index} `{text}`: {problem}")]
    Move {
        /// 1-based place in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// What is wrong.
        problem: String,
    },
}

/// A position a GUI described: the board, and the pool of pieces still hidden as the side to
/// move knows it.
#[derive(Clone, Debug)]
pub struct GuiPosition {
    pos: Position,
    pool: BySide<[u8; 7]>,
    ply: u32,
}

impl GuiPosition {
    /// The start of `variant` (Xiangqi or Jieqi; Banqi has no UCI dialect).
    pub fn start(variant: Variant) -> GuiPosition {
        match variant {
            Variant::Jieqi => GuiPosition {
                pos: Position::jieqi_start(),
                pool: BySide::new_with(|_| army_without_general()),
                ply: 0,
            },
            _ => GuiPosition {
                pos: Position::xiangqi_start(),
                pool: BySide::default(),
                ply: 0,
            },
        }
    }

    /// Reads a FEN: plain Xiangqi FEN and our own six-field FEN (Jieqi if it has covered
    /// pieces, else `variant`), or the five-field Jieqi dialect with its pool.
    ///
    /// ```
    /// use jieqi_rules::Variant;
    /// use jieqi_uci::dialect::GuiPosition;
    ///
    /// let start = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";
    /// let pos = GuiPosition::from_fen(start, Variant::Xiangqi)?;
    /// assert_eq!(pos.variant(), Variant::Jieqi);
    /// assert_eq!(pos.to_fen(), start);
    /// # Ok::<(), jieqi_uci::dialect::DialectError>(())
    /// ```
    pub fn from_fen(text: &str, variant: Variant) -> Result<GuiPosition, DialectError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (setup_fen, pool_field) = match fields.as_slice() {
            [_, _, _, _, _, _] => (text.to_owned(), None),
            // JieqiBox's older form: the pool right after the placement.
            [placement, pool, colour, castling, en_passant, half, full] => (
                format!("{placement} {colour} {castling} {en_passant} {half} {full}"),
                Some(*pool),
            ),
            [placement] => (format!("{placement} w - - 0 1"), None),
            [placement, colour] => (format!("{placement} {colour} - - 0 1"), None),
            [placement, colour, pool, rest @ ..] if rest.len() <= 2 => {
                let half = rest.first().copied().unwrap_or("0");
                let full = rest.get(1).copied().unwrap_or("1");
                (
                    format!("{placement} {colour} - - {half} {full}"),
                    Some(*pool),
                )
            }
            _ => (text.to_owned(), None),
        };
        let mut setup = read_setup(&setup_fen)?;
        let covered = |side: Side| {
            setup
                .board
                .iter()
                .filter(|c| **c == Cell::Covered(Some(side)))
                .count() as u32
        };
        let any_covered = covered(Side::Red) + covered(Side::Black) > 0;
        let variant = if pool_field.is_some() || any_covered {
            Variant::Jieqi
        } else {
            variant
        };
        let face_up = face_up_counts(&setup.board);
        let pool = match pool_field {
            Some(field) => read_pool(field)?,
            // Our own FEN: what is neither face up nor known captured is hidden.
            None if variant == Variant::Jieqi => BySide::new_with(|side| {
                let mut pool = [0u8; 7];
                for role in Role::ALL.into_iter().skip(1) {
                    pool[role.index()] = role
                        .start_count()
                        .saturating_sub(face_up[side][role.index()])
                        .saturating_sub(setup.captured[side][role.index()]);
                }
                pool
            }),
            None => BySide::default(),
        };
        for side in Side::ALL {
            for role in Role::ALL {
                let count =
                    u32::from(face_up[side][role.index()]) + u32::from(pool[side][role.index()]);
                if count > u32::from(role.start_count()) {
                    return Err(DialectError::TooMany { side, role, count });
                }
            }
            let hidden: u32 = pool[side].iter().map(|&n| u32::from(n)).sum();
            if covered(side) > hidden {
                return Err(DialectError::PoolTooSmall {
                    side,
                    covered: covered(side),
                    pool: hidden,
                });
            }
        }
        setup.captured = known_captures(&face_up, &pool);
        let ply = setup
            .fullmove_number
            .saturating_sub(1)
            .saturating_mul(2)
            .saturating_add(u32::from(setup.side_to_move == Side::Black));
        let pos = Position::from_setup(setup, variant, MoveOptions::default())?;
        Ok(GuiPosition { pos, pool, ply })
    }

    /// Plays one move of a `moves` list: coordinates, then the revealed type if the move
    /// turns a covered piece up, then (or instead, for a face-up mover) the type of a covered
    /// piece it captures, if known.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        let bytes = text.as_bytes();
        if !text.is_ascii() || !(4..=6).contains(&bytes.len()) {
            return Err(
                "a move is two points and up to two piece letters, like `h2e2` or `e3e4P`"
                    .to_owned(),
            );
        }
        let square = |s: &str| s.to_ascii_lowercase().parse::<Square>().ok();
        let (Some(from), Some(to)) = (square(&text[0..2]), square(&text[2..4])) else {
            return Err(
                "the first four characters must be two points a0 to i9, like `h2e2`".to_owned(),
            );
        };
        let mv = Move::new(from, to);
        if !self.pos.is_legal(mv) {
            return Err(format!("{mv} is not legal in this position"));
        }
        let mut letters = Vec::with_capacity(2);
        for c in text[4..].chars() {
            match Role::from_char(c) {
                Some(Role::General) | None => {
                    return Err(format!(
                        "`{c}` is not the type of a covered piece: use R A C P N B (or E, H)"
                    ));
                }
                Some(role) => letters.push(role),
            }
        }
        let us = self.pos.side_to_move();
        let reveals = matches!(self.pos.cell(from), Cell::Covered(_));
        let takes_covered = matches!(self.pos.cell(to), Cell::Covered(_));
        let (reveal, taken) = match (reveals, takes_covered, letters.as_slice()) {
            (true, _, []) => {
                return Err(format!(
                    "it turns the covered piece on {from} face up: add what it turned out to be as a fifth letter, like `{mv}p`"
                ));
            }
            (true, true, [r]) => (Some(*r), None),
            (true, true, [r, t]) => (Some(*r), Some(*t)),
            (true, false, [r]) => (Some(*r), None),
            (false, _, []) => (None, None),
            (false, true, [t]) => (None, Some(*t)),
            _ => {
                return Err(
                    "it has more piece letters than it reveals and captures covered pieces"
                        .to_owned(),
                );
            }
        };
        if let Some(role) = reveal {
            take(&mut self.pool, us, role)
                .map_err(|()| format!("{us} has no hidden {role} left to reveal"))?;
        }
        if let Some(role) = taken {
            take(&mut self.pool, !us, role)
                .map_err(|()| format!("{} has no hidden {role} left to lose", !us))?;
        }
        self.pos.play_unchecked(mv, reveal, taken);
        self.ply = self.ply.saturating_add(1);
        Ok(())
    }

    /// Plays a whole `moves` list, saying which move failed.
    pub fn play_all(&mut self, moves: &[String]) -> Result<(), DialectError> {
        for (i, text) in moves.iter().enumerate() {
            self.play(text).map_err(|problem| DialectError::Move {
                index: i + 1,
                text: shorten(text),
                problem,
            })?;
        }
        Ok(())
    }

    /// Xiangqi or Jieqi.
    pub fn variant(&self) -> Variant {
        self.pos.variant()
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    /// The legal moves, as the engine takes them.
    pub fn legal_moves(&self) -> Vec<GameMove> {
        self.pos
            .legal_move_vec()
            .into_iter()
            .map(GameMove::Board)
            .collect()
    }

    /// The side to move's view: the board, and the captures whose type the pool implies it
    /// knows. The engine's unseen pool of this view is exactly the GUI's pool.
    pub fn view(&self) -> View {
        let side = self.pos.side_to_move();
        let cells: Vec<Cell> = Square::all().map(|sq| self.pos.cell(sq)).collect();
        let face_up = face_up_counts(&cells);
        let known = known_captures(&face_up, &self.pool);
        let captured = BySide::new_with(|s| {
            let covered = cells
                .iter()
                .filter(|c| **c == Cell::Covered(Some(s)))
                .count() as u32;
            let hidden: u32 = self.pool[s].iter().map(|&n| u32::from(n)).sum();
            CapturedTray {
                known: Role::ALL
                    .iter()
                    .flat_map(|&r| std::iter::repeat_n(r, usize::from(known[s][r.index()])))
                    .collect(),
                unknown: u8::try_from(hidden.saturating_sub(covered)).unwrap_or(u8::MAX),
            }
        });
        let mut setup = self.pos.to_setup();
        setup.captured = known;
        let check = if self.pos.is_check() {
            self.pos.general(side).map(|sq| Point {
                file: sq.file().index(),
                rank: sq.rank().index(),
            })
        } else {
            None
        };
        View {
            variant: self.pos.variant(),
            viewer: Viewer::Player(side),
            files: 9,
            ranks: 10,
            cells,
            side_to_move: Some(side),
            captured,
            last_action: None,
            check,
            ply: self.ply,
            deal: None,
            fen: write_setup(&setup),
        }
    }

    /// This position in the GUI's dialect: plain Xiangqi FEN, or the five-field Jieqi FEN.
    pub fn to_fen(&self) -> String {
        write_view_fen(&self.view())
    }
}

/// A move as Pikafish's `jieqi` branch writes it: coordinates, then the revealed type if the
/// move turned a covered piece face up, then the type of a covered piece it captured if that
/// is known. Pikafish reads a letter's case as the piece's colour, so the revealed letter is
/// in the `mover`'s case (upper for Red) and the captured one in the other side's; letters are
/// Pikafish's (`N` horse, `B` elephant). [`GuiPosition::play`] reads either case.
///
/// ```
/// use jieqi_rules::{Move, Role, Side};
/// use jieqi_uci::dialect::write_move;
///
/// let mv = Move::new("e3".parse()?, "e4".parse()?);
/// assert_eq!(write_move(mv, Some(Role::Soldier), None, Side::Red), "e3e4P");
/// let mv = Move::new("b2".parse()?, "b9".parse()?);
/// assert_eq!(write_move(mv, Some(Role::Chariot), Some(Role::Horse), Side::Red), "b2b9Rn");
/// assert_eq!(write_move(mv, None, Some(Role::Elephant), Side::Black), "b2b9B");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_move(mv: Move, reveal: Option<Role>, taken: Option<Role>, mover: Side) -> String {
    let mut text = mv.to_string();
    if let Some(role) = reveal {
        text.push(letter(Piece::new(mover, role)));
    }
    if let Some(role) = taken {
        text.push(letter(Piece::new(!mover, role)));
    }
    text
}

/// A view as a GUI reads it: plain Xiangqi FEN (`... w - - 0 1`, letters N and B for horse
/// and elephant), or for Jieqi the five-field FEN with the pool of the view's hidden pieces.
/// This is how `jieqi-bot match` tells an external engine its own side's knowledge.
pub fn write_view_fen(view: &View) -> String {
    let mut placement = String::with_capacity(96);
    for rank in (0..10usize).rev() {
        let mut empty = 0u8;
        for file in 0..9usize {
            let cell = view
                .cells
                .get(rank * 9 + file)
                .copied()
                .unwrap_or(Cell::Empty);
            let letter = match cell {
                Cell::Empty => None,
                Cell::Piece(p) => Some(letter(p)),
                Cell::Covered(Some(Side::Red)) => Some('X'),
                Cell::Covered(_) => Some('x'),
            };
            match letter {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    placement.push(c);
                }
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = view.side_to_move.unwrap_or(Side::Red);
    let mut clocks = view.fen.split_whitespace().skip(4);
    let half = clocks.next().unwrap_or("0");
    let full = clocks.next().unwrap_or("1");
    if view.variant != Variant::Jieqi {
        return format!("{placement} {} - - {half} {full}", side.fen_char());
    }
    let pool = jieqi_engine::Pool::from_view(view);
    let mut field = String::new();
    for side in Side::ALL {
        for role in POOL_ORDER {
            let n = pool.count(side, role);
            if n > 0 {
                field.push(letter(Piece::new(side, role)));
                field.push_str(&n.to_string());
            }
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    format!("{placement} {} {field} {half} {full}", side.fen_char())
}

/// The order JieqiBox writes pools in.
const POOL_ORDER: [Role; 6] = [
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Soldier,
];

/// The letter Pikafish and JieqiBox use: N for horse, B for elephant, case by side.
fn letter(piece: Piece) -> char {
    let upper = match piece.role {
        Role::Horse => 'N',
        Role::Elephant => 'B',
        role => role.upper_char(),
    };
    match piece.side {
        Side::Red => upper,
        Side::Black => upper.to_ascii_lowercase(),
    }
}

fn army_without_general() -> [u8; 7] {
    let mut army = Role::ALL.map(Role::start_count);
    army[Role::General.index()] = 0;
    army
}

fn face_up_counts(cells: &[Cell]) -> BySide<[u8; 7]> {
    let mut counts = BySide::<[u8; 7]>::default();
    for cell in cells {
        if let Cell::Piece(p) = cell {
            let slot = &mut counts[p.side][p.role.index()];
            *slot = slot.saturating_add(1);
        }
    }
    counts
}

/// Captured pieces whose type the viewer knows: what is neither face up nor hidden.
fn known_captures(face_up: &BySide<[u8; 7]>, pool: &BySide<[u8; 7]>) -> BySide<[u8; 7]> {
    BySide::new_with(|side| {
        let mut known = [0u8; 7];
        for role in Role::ALL.into_iter().skip(1) {
            let i = role.index();
            known[i] = role
                .start_count()
                .saturating_sub(face_up[side][i])
                .saturating_sub(pool[side][i]);
        }
        known
    })
}

fn take(pool: &mut BySide<[u8; 7]>, side: Side, role: Role) -> Result<(), ()> {
    let slot = &mut pool[side][role.index()];
    if *slot == 0 {
        return Err(());
    }
    *slot -= 1;
    Ok(())
}

fn read_pool(field: &str) -> Result<BySide<[u8; 7]>, DialectError> {
    let bad = || DialectError::Pool(shorten(field));
    let mut pool = BySide::<[u8; 7]>::default();
    if field == "-" {
        return Ok(pool);
    }
    let mut chars = field.chars().peekable();
    while let Some(c) = chars.next() {
        let piece = match Piece::from_char(c) {
            Some(p) if p.role != Role::General => p,
            _ => return Err(bad()),
        };
        let mut count: u32 = 0;
        let mut digits = 0;
        while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
            chars.next();
            digits += 1;
            count = count.saturating_mul(10).saturating_add(d);
        }
        if digits == 0 {
            count = 1;
        }
        let slot = &mut pool[piece.side][piece.role.index()];
        let total = u32::from(*slot) + count;
        if total > u32::from(piece.role.start_count()) {
            return Err(DialectError::TooMany {
                side: piece.side,
                role: piece.role,
                count: total,
            });
        }
        *slot = total as u8;
    }
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::{Game, GameDeal, Preset, Rules};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const JIEQI_START: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";

    #[test]
    fn the_jieqi_start_reads_as_the_start() {
        let read = GuiPosition::from_fen(JIEQI_START, Variant::Xiangqi).expect("start");
        assert_eq!(read.view(), GuiPosition::start(Variant::Jieqi).view());
        assert_eq!(GuiPosition::start(Variant::Jieqi).to_fen(), JIEQI_START);
        // Pikafish's own order, and a pool letter without a count.
        let pikafish = JIEQI_START.replace("A2B2N2R2C2P5a2b2n2r2c2p5", "R2A2C2P5N2B2r2a2c2p4pn2b2");
        let read = GuiPosition::from_fen(&pikafish, Variant::Xiangqi).expect("start");
        assert_eq!(read.to_fen(), JIEQI_START);
    }

    #[test]
    fn the_older_seven_field_form_reads_alike() {
        let older = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX A2B2N2R2C2P5a2b2n2r2c2p5 w - - 0 1";
        let read = GuiPosition::from_fen(older, Variant::Xiangqi).expect("older form");
        assert_eq!(read.to_fen(), JIEQI_START);
    }

    #[test]
    fn xiangqi_fen_keeps_its_variant_and_reads_n_and_b() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let pos = GuiPosition::from_fen(fen, Variant::Xiangqi).expect("start");
        assert_eq!(pos.variant(), Variant::Xiangqi);
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(pos.view(), GuiPosition::start(Variant::Xiangqi).view());
    }

    #[test]
    fn a_reveal_needs_its_letter_and_takes_it_from_the_pool() {
        let mut pos = GuiPosition::start(Variant::Jieqi);
        assert!(
            pos.play("e3e4")
                .expect_err("no letter")
                .contains("fifth letter")
        );
        pos.play("e3e4R").expect("revealed as a chariot");
        assert!(
            pos.to_fen().contains(" b A2B2N2R1C2P5a2b2n2r2c2p5 "),
            "{}",
            pos.to_fen()
        );
        assert!(pos.play("e6e5k").is_err());
        pos.play("e6e5r").expect("black chariot");
        pos.play("e4e5")
            .expect("a capture of a face-up piece, giving check");
        assert!(pos.play("a6a5c").is_err(), "Black must answer the check");
        pos.play("d9e8A").expect("a black advisor blocks");
        assert!(pos.play("e5e9").is_err(), "the advisor is in the way");
    }

    #[test]
    fn too_few_hidden_pieces_is_an_error() {
        let fen = JIEQI_START.replace("A2B2N2R2C2P5a2b2n2r2c2p5", "A2B2N2R2C2P4a2b2n2r2c2p5");
        assert!(matches!(
            GuiPosition::from_fen(&fen, Variant::Jieqi),
            Err(DialectError::PoolTooSmall {
                side: Side::Red,
                covered: 15,
                pool: 14
            })
        ));
        let fen = JIEQI_START.replace("A2B2N2R2C2P5a2b2n2r2c2p5", "A3B2N2R2C2P5a2b2n2r2c2p5");
        assert!(GuiPosition::from_fen(&fen, Variant::Jieqi).is_err());
        assert!(GuiPosition::from_fen(&JIEQI_START.replace("A2", "Q2"), Variant::Jieqi).is_err());
    }

    /// Plays seeded random Jieqi games in the rules' `Game` and, move by move, rebuilds each
    /// player's view from what a GUI would send that player: the start and the moves with the
    /// letters the player saw. The rebuilt view must be the player's own view.
    #[test]
    fn moves_with_letters_rebuild_each_players_view() {
        for seed in 0..12u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let deal = GameDeal::shuffled(Variant::Jieqi, &mut |n| rng.gen_range(0..n.max(1)));
            let mut game =
                Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("a game");
            // Per player: the move texts as that player knows them.
            let mut known: BySide<Vec<String>> = BySide::default();
            while game.outcome().is_none() && game.ply() < 120 {
                let side = game.side_to_move().expect("a side");
                let mut rebuilt = GuiPosition::start(Variant::Jieqi);
                rebuilt.play_all(&known[side]).expect("replayable");
                let mut expected = game.view(Viewer::Player(side));
                expected.last_action = None;
                assert_eq!(rebuilt.view(), expected, "seed {seed} ply {}", game.ply());
                // The dialect FEN says the same.
                let again = GuiPosition::from_fen(&rebuilt.to_fen(), Variant::Jieqi).expect("fen");
                assert_eq!(again.view().cells, expected.cells);
                assert_eq!(again.view().captured, expected.captured);
                let legal = game.legal_moves();
                let mv = legal[rng.gen_range(0..legal.len())];
                let played = game.play(mv).expect("legal");
                let jieqi_rules::PlayedRecord::Board(record) = played.record else {
                    panic!("a board move")
                };
                for viewer in Side::ALL {
                    // Letters in Pikafish's case (colour of the piece); the capturer alone
                    // learns what a covered piece it took was.
                    let taken = record
                        .captured
                        .filter(|c| c.was_covered && viewer == side)
                        .map(|c| c.piece.role);
                    let text = write_move(record.mv, record.reveal, taken, side);
                    // Pikafish reads a Red reveal as an uppercase letter, a Black one as
                    // lowercase.
                    if let (Some(letter), Some(_)) = (text.chars().nth(4), record.reveal) {
                        assert_eq!(letter.is_ascii_uppercase(), side == Side::Red, "{text}");
                    }
                    known[viewer].push(text);
                }
            }
        }
    }
}
