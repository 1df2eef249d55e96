//! Writing positions and moves down, and reading what players type.
//!
//! Positions are FEN with the Jieqi additions of seed 000 ([`fen`]). Moves come in three
//! notations: coordinates such as `h2e2` ([`uci`]), WXF such as `C2.5` ([`wxf`]) and Chinese
//! such as `炮二平五` ([`chinese`]). The relative notations name a piece by what the player
//! sees, so a covered piece is named by its *fake* type (the type of its start point) and a
//! reveal is written after it (`r9+1=c`).
//!
//! Text a player types is resolved against the legal moves of the position rather than by
//! playing anything here: this module only needs a [`Setup`] and the legal list, so it stays
//! independent of move generation.

pub mod chinese;
pub mod fen;
mod relative;
pub mod uci;
pub mod wxf;

use std::fmt;

use thiserror::Error;

use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{Role, Side, Square};

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveNotation {
    /// From and to points, `h2e2`, with a lowercase reveal suffix when a covered piece turns
    /// face up (`b9c7c`). The store format.
    Coordinates,
    /// WXF relative notation, `C2.5`, `r9+1=c`.
    Wxf,
    /// Chinese relative notation in simplified characters, `炮二平五`, `车9进1=炮`.
    Chinese,
    /// Chinese relative notation in traditional characters, `炮二平五`, `車9進1=砲`.
    ChineseTraditional,
}

impl MoveNotation {
    /// Every notation, in the order [`parse_move`] tries them.
    pub const ALL: [MoveNotation; 4] = [
        MoveNotation::Coordinates,
        MoveNotation::Wxf,
        MoveNotation::Chinese,
        MoveNotation::ChineseTraditional,
    ];

    /// A short name for messages: `coordinates`, `WXF`, `Chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveNotation::Coordinates => "coordinates",
            MoveNotation::Wxf => "WXF",
            MoveNotation::Chinese | MoveNotation::ChineseTraditional => "Chinese",
        }
    }
}

impl fmt::Display for MoveNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move read from text, found in the legal list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParsedMove {
    /// The legal move the text names.
    pub mv: Move,
    /// The revealed type the text carried (`b9c7c`, `r9+1=c`), if any. A player does not know
    /// it and leaves it out; game import and replay use it to fix the deal.
    pub reveal: Option<Role>,
}

/// Why typed text is not a move of the position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveInputError {
    /// Nothing was typed.
    #[error("type a move: coordinates like `h2e2`, WXF like `C2.5`, or Chinese like `炮二平五`")]
    Empty,
    /// The text is in none of the notations.
    #[error(
        "`{text}` is not a move: type coordinates like `h2e2`, WXF like `C2.5`, or Chinese like `炮二平五`"
    )]
    Unreadable {
        /// The text, shortened if long.
        text: String,
    },
    /// The text looks like one notation but breaks its rules.
    #[error("`{text}` is not well-formed {notation}: {problem}")]
    Malformed {
        /// The text, shortened if long.
        text: String,
        /// The notation it looks like.
        notation: MoveNotation,
        /// What is wrong, with an example of the right form.
        problem: String,
    },
    /// Well-formed coordinates of a move that is not legal here; the caller can say why.
    #[error("{0} is not a legal move here")]
    NotLegal(Move),
    /// The piece the text names is not on the board.
    #[error("{side} has no {piece}")]
    NoSuchPiece {
        /// The side to move.
        side: Side,
        /// The piece as the text named it, e.g. `cannon on file 2` or `front cannon`.
        piece: String,
    },
    /// The piece exists but no legal move of it fits the text.
    #[error("no {side} {piece} can {motion}")]
    NoSuchMove {
        /// The side to move.
        side: Side,
        /// The piece as the text named it, e.g. `cannon on file 2`.
        piece: String,
        /// The motion the text asked for, e.g. `traverse to file 5`.
        motion: String,
    },
    /// More than one legal move fits the text.
    #[error("`{text}` fits more than one move: write {}", .options.join(" or "))]
    Ambiguous {
        /// The text, shortened if long.
        text: String,
        /// The moves it fits.
        moves: Vec<Move>,
        /// Each of those moves written unambiguously in the same notation.
        options: Vec<String>,
    },
    /// The text carries a reveal, but the moving piece is already face up.
    #[error(
        "the piece on {from} is already face up, so its move reveals nothing: leave out the reveal"
    )]
    NothingToReveal {
        /// Where the moving piece stands.
        from: Square,
    },
    /// The text says a covered piece turned out to be a general, which never happens.
    #[error(
        "a covered piece is never a general: the reveal must be an advisor, elephant, chariot, cannon, horse or soldier"
    )]
    RevealAsGeneral,
}

/// What a reader made of a text: not its notation at all, its notation with a mistake, or a
/// reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Syntax<T> {
    NotThis,
    Malformed(String),
    Read(T),
}

/// Reads a move typed in any notation and finds it among `legal`, the legal moves of `setup`
/// (whose side to move is the mover).
///
/// Tries coordinates (`h2e2`, `b9c7c`, case-insensitive, `h2-e2` too), then WXF (`C2.5`,
/// `C+.5`, `+C.5`, `r9+1=c`, either case), then Chinese (`炮二平五`, `前炮进一`, traditional or
/// simplified, ASCII or full-width digits). Well-formed coordinates of a move that is not in
/// `legal` give [`MoveInputError::NotLegal`] so the caller can explain why.
///
/// ```
/// use jieqi_rules::{Move, Setup, Square};
/// use jieqi_rules::notation::{parse_move, MoveInputError};
///
/// let setup = Setup::xiangqi_start();
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let legal = [Move::new(sq("h2"), sq("e2")), Move::new(sq("b0"), sq("c2"))];
/// for text in ["h2e2", "C2.5", "炮二平五"] {
///     assert_eq!(parse_move(&setup, &legal, text)?.mv, legal[0]);
/// }
/// assert_eq!(parse_move(&setup, &legal, "H8+7")?.mv, legal[1]);
/// assert!(matches!(
///     parse_move(&setup, &legal, "h2h9"),
///     Err(MoveInputError::NotLegal(_))
/// ));
/// # Ok::<(), MoveInputError>(())
/// ```
pub fn parse_move(setup: &Setup, legal: &[Move], text: &str) -> Result<ParsedMove, MoveInputError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveInputError::Empty);
    }
    match uci::syntax(text) {
        Syntax::Read(read) => return uci::resolve(setup, legal, read),
        Syntax::Malformed(problem) => {
            return Err(malformed(text, MoveNotation::Coordinates, problem));
        }
        Syntax::NotThis => {}
    }
    match wxf::syntax(text) {
        Syntax::Read(read) => {
            return relative::resolve(setup, legal, text, &read, MoveNotation::Wxf);
        }
        Syntax::Malformed(problem) => return Err(malformed(text, MoveNotation::Wxf, problem)),
        Syntax::NotThis => {}
    }
    match chinese::syntax(text) {
        Syntax::Read(read) => relative::resolve(setup, legal, text, &read, MoveNotation::Chinese),
        Syntax::Malformed(problem) => Err(malformed(text, MoveNotation::Chinese, problem)),
        Syntax::NotThis => Err(MoveInputError::Unreadable {
            text: shorten(text),
        }),
    }
}

/// Writes `mv` in `notation`. `setup` is the position before the move; `reveal` is the true
/// type of the moving piece if the move turned it face up (`None` otherwise, or when the
/// writer must not tell it).
///
/// WXF and Chinese name a covered piece by its fake type. Chinese is written in one script:
/// simplified for [`MoveNotation::Chinese`], traditional for
/// [`MoveNotation::ChineseTraditional`]. A move those notations cannot
/// describe (no piece on its from point, a straight mover going sideways and forward at once,
/// or a file crowded beyond what WXF defines) is written in coordinates, which
/// [`parse_move`] reads back.
///
/// ```
/// use jieqi_rules::{Move, Role, Setup, Square};
/// use jieqi_rules::notation::{write_move, MoveNotation};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let cannon = Move::new(sq("h2"), sq("e2"));
/// let setup = Setup::xiangqi_start();
/// assert_eq!(write_move(&setup, cannon, None, MoveNotation::Coordinates), "h2e2");
/// assert_eq!(write_move(&setup, cannon, None, MoveNotation::Wxf), "C2.5");
/// assert_eq!(write_move(&setup, cannon, None, MoveNotation::Chinese), "炮二平五");
///
/// // A covered piece on Red's chariot point advancing one, revealed as a cannon.
/// let jieqi = Setup::jieqi_start();
/// let up = Move::new(sq("a0"), sq("a1"));
/// assert_eq!(write_move(&jieqi, up, Some(Role::Cannon), MoveNotation::Coordinates), "a0a1c");
/// assert_eq!(write_move(&jieqi, up, Some(Role::Cannon), MoveNotation::Wxf), "R9+1=C");
/// assert_eq!(write_move(&jieqi, up, Some(Role::Cannon), MoveNotation::Chinese), "车九进一=炮");
/// assert_eq!(
///     write_move(&jieqi, up, Some(Role::Cannon), MoveNotation::ChineseTraditional),
///     "俥九進一=炮"
/// );
/// ```
pub fn write_move(setup: &Setup, mv: Move, reveal: Option<Role>, notation: MoveNotation) -> String {
    match notation {
        MoveNotation::Coordinates => uci::write(mv, reveal),
        MoveNotation::Wxf => wxf::write(setup, mv, reveal),
        MoveNotation::Chinese => chinese::write_in(chinese::Script::Simplified, setup, mv, reveal),
        MoveNotation::ChineseTraditional => {
            chinese::write_in(chinese::Script::Traditional, setup, mv, reveal)
        }
    }
}

pub(crate) fn malformed(text: &str, notation: MoveNotation, problem: String) -> MoveInputError {
    MoveInputError::Malformed {
        text: shorten(text),
        notation,
        problem,
    }
}

/// Long input is cut so that an error message stays a sentence.
pub(crate) fn shorten(text: &str) -> String {
    const KEEP: usize = 24;
    if text.chars().count() <= KEEP {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(KEEP).collect();
        short.push('…');
        short
    }
}
