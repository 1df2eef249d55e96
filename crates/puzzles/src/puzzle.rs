//! A [`Puzzle`]: a start position as the solver sees it, the task, the solution line and a
//! rating; and its one-line text form, the unit of the shipped files (see `set`).

use std::fmt;
use std::str::FromStr;

use jieqi_rules::banqi::{BanqiDeal, BanqiPosition};
use jieqi_rules::deal::Deal;
use jieqi_rules::notation::fen;
use jieqi_rules::{Game, Preset, Rules, Setup, Side, Variant};
use thiserror::Error;

use crate::arena::{BanqiArena, BoardArena};
use crate::verify::{BANQI_MATERIAL_GAIN, Goal, MATERIAL_GAIN};

/// What kind of tactic a puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Mate (or leave the opponent without a legal move) within the puzzle's number of moves.
    Mate,
    /// Win material.
    Material,
    /// Win material with a move that turns a covered piece face up or takes one: it works
    /// whatever the covered pieces turn out to be, because of how a covered piece must move
    /// from its point.
    Reveal,
    /// In check: find the only move that does not allow a quick mate.
    Defence,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 4] = [Theme::Mate, Theme::Material, Theme::Reveal, Theme::Defence];

    /// The name in the puzzle files.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Mate => "mate",
            Theme::Material => "material",
            Theme::Reveal => "reveal",
            Theme::Defence => "defence",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Theme, FormatError> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| FormatError::Field("theme", s.chars().take(20).collect()))
    }
}

/// The task shown with the board. Its `Display` is English; the service may translate from
/// the fields instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Task {
    /// The solver's side.
    pub side: Side,
    /// The theme.
    pub theme: Theme,
    /// How many moves of the solver the solution has.
    pub moves: u8,
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side.name();
        match self.theme {
            Theme::Mate => write!(f, "{side} to move: mate in {}", self.moves),
            Theme::Material => write!(f, "{side} to move and win material"),
            Theme::Reveal => write!(
                f,
                "{side} to move and win material, whatever the covered pieces are"
            ),
            Theme::Defence => write!(f, "{side} to move: find the only move that holds"),
        }
    }
}

/// One puzzle.
///
/// `fen` is the solver's view (covered pieces as `X`/`x`, captured pieces as the solver knows
/// them); the deal under the covered or face-down pieces is kept private: it is used only to
/// play the line out ([`crate::Attempt`]) and must never be shown while the puzzle runs.
#[derive(Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// A stable identifier: variant letter and 8 hex digits (`j1f3a09bc`).
    pub id: String,
    /// The game.
    pub variant: Variant,
    /// The tactic.
    pub theme: Theme,
    /// The solver's moves in the solution (1 to 3).
    pub moves: u8,
    /// The initial rating (Glicko-2 scale), from the engine's effort to find the first move.
    pub rating: u16,
    /// The start position as the solver sees it.
    pub fen: String,
    /// The true types under the covered (Jieqi) or face-down (Banqi) pieces in FEN reading
    /// order; empty for Xiangqi.
    pub(crate) deal: String,
    /// The solution: solver moves and the opponent's replies, alternating, in record notation
    /// (reveals included: `b9c7c`, `c3=R`). Show it only when the attempt is over.
    pub solution: Vec<String>,
}

impl fmt::Debug for Puzzle {
    // The deal is a secret: never in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Puzzle")
            .field("id", &self.id)
            .field("variant", &self.variant)
            .field("theme", &self.theme)
            .field("moves", &self.moves)
            .field("rating", &self.rating)
            .field("fen", &self.fen)
            .finish_non_exhaustive()
    }
}

/// Why a puzzle line or file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FormatError {
    /// The file does not start with the expected header.
    #[error("not a puzzle file of this version: expected the header `{HEADER}`")]
    Header,
    /// A line has the wrong number of fields.
    #[error("line {0}: a puzzle line has 8 tab-separated fields")]
    Fields(usize),
    /// A field cannot be read.
    #[error("bad {0}: `{1}`")]
    Field(&'static str, String),
    /// The position or deal is not valid.
    #[error("bad position: {0}")]
    Position(String),
    /// The file is not valid gzip or UTF-8.
    #[error("cannot read the puzzle file: {0}")]
    Io(String),
}

/// The first line of a puzzle file.
pub const HEADER: &str = "jieqi-puzzles 1";

/// The start position with its secret, ready to search or play. Short-lived, so the size
/// difference between the variants does not matter.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Start {
    Board {
        setup: Setup,
        variant: Variant,
        deal: Deal,
    },
    Banqi {
        position: BanqiPosition,
        deal: BanqiDeal,
    },
}

impl Start {
    pub(crate) fn read(variant: Variant, fen: &str, deal: &str) -> Result<Start, FormatError> {
        let bad = |e: String| FormatError::Position(e.chars().take(200).collect());
        match variant {
            Variant::Banqi => {
                let position = BanqiPosition::from_fen(fen).map_err(|e| bad(e.to_string()))?;
                let deal =
                    BanqiDeal::for_position(&position, if deal.is_empty() { "-" } else { deal })
                        .map_err(|e| bad(e.to_string()))?;
                BanqiArena::new(position.clone()).map_err(bad)?;
                Ok(Start::Banqi { position, deal })
            }
            Variant::Xiangqi | Variant::Jieqi => {
                let setup = fen::read_setup(fen).map_err(|e| bad(e.to_string()))?;
                let pieces = deal
                    .chars()
                    .map(|c| {
                        jieqi_rules::Piece::from_char(c)
                            .ok_or_else(|| bad(format!("`{c}` is not a piece letter")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let deal = Deal::from_pieces(&setup, &pieces).map_err(|e| bad(e.to_string()))?;
                BoardArena::new(&setup, variant).map_err(bad)?;
                Ok(Start::Board {
                    setup,
                    variant,
                    deal,
                })
            }
        }
    }

    pub(crate) fn side_to_move(&self) -> Side {
        match self {
            Start::Board { setup, .. } => setup.side_to_move,
            Start::Banqi { position, .. } => position.side_to_move().unwrap_or(Side::Red),
        }
    }
}

impl Puzzle {
    /// Builds a puzzle and checks that its position and deal can be played. The id is made
    /// from the position and solution.
    pub(crate) fn new(
        variant: Variant,
        theme: Theme,
        moves: u8,
        rating: u16,
        fen: String,
        deal: String,
        solution: Vec<String>,
    ) -> Puzzle {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in fen.bytes().chain(solution.join(" ").bytes()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let letter = match variant {
            Variant::Xiangqi => 'x',
            Variant::Jieqi => 'j',
            Variant::Banqi => 'b',
        };
        Puzzle {
            id: format!("{letter}{:08x}", (hash ^ (hash >> 32)) as u32),
            variant,
            theme,
            moves,
            rating,
            fen,
            deal,
            solution,
        }
    }

    /// The solver's side (the side to move in `fen`).
    pub fn side_to_move(&self) -> Side {
        self.start().map_or(Side::Red, |s| s.side_to_move())
    }

    /// The task to show with the board.
    pub fn task(&self) -> Task {
        Task {
            side: self.side_to_move(),
            theme: self.theme,
            moves: self.moves,
        }
    }

    /// What the solver must achieve, as the verifier reads it (`None` for defence, which
    /// accepts only the stored move).
    pub fn goal(&self) -> Option<Goal> {
        let moves = u32::from(self.moves);
        match self.theme {
            Theme::Mate => Some(Goal::Mate(moves)),
            Theme::Material | Theme::Reveal => Some(Goal::Material {
                moves,
                gain: if self.variant == Variant::Banqi {
                    BANQI_MATERIAL_GAIN
                } else {
                    MATERIAL_GAIN
                },
            }),
            Theme::Defence => None,
        }
    }

    pub(crate) fn start(&self) -> Result<Start, FormatError> {
        Start::read(self.variant, &self.fen, &self.deal)
    }

    /// A rules [`Game`] at the puzzle's start, holding the deal: draw the board with
    /// `game.view(Viewer::Player(puzzle.side_to_move()))` (never the full view).
    pub fn game(&self) -> Result<Game, FormatError> {
        let full = if self.deal.is_empty() {
            self.fen.clone()
        } else {
            format!("{} {}", self.fen, self.deal)
        };
        Game::from_fen(Rules::new(self.variant, Preset::Standard), &full)
            .map_err(|e| FormatError::Position(e.to_string()))
    }

    /// The puzzle as one line of a puzzle file (no newline).
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id,
            self.variant.name(),
            self.theme,
            self.moves,
            self.rating,
            self.fen,
            if self.deal.is_empty() {
                "-"
            } else {
                &self.deal
            },
            self.solution.join(" ")
        )
    }

    /// Reads a line written by [`Puzzle::to_line`]; `number` is for the error message. The
    /// position and deal are checked.
    pub fn from_line(line: &str, number: usize) -> Result<Puzzle, FormatError> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, variant, theme, moves, rating, fen, deal, solution] = fields[..] else {
            return Err(FormatError::Fields(number));
        };
        let field = |name: &'static str, text: &str| {
            FormatError::Field(name, text.chars().take(40).collect())
        };
        if id.is_empty() || id.len() > 16 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(field("id", id));
        }
        let variant: Variant = variant.parse().map_err(|_| field("variant", variant))?;
        let theme: Theme = theme.parse()?;
        let moves: u8 = moves
            .parse()
            .ok()
            .filter(|m| (1..=3).contains(m))
            .ok_or_else(|| field("moves", moves))?;
        let rating: u16 = rating.parse().map_err(|_| field("rating", rating))?;
        let solution: Vec<String> = solution.split_whitespace().map(str::to_owned).collect();
        if solution.is_empty() || solution.len() > 2 * usize::from(moves) {
            return Err(field("solution", &solution.join(" ")));
        }
        let deal = if deal == "-" { "" } else { deal };
        Start::read(variant, fen, deal)?;
        Ok(Puzzle {
            id: id.to_owned(),
            variant,
            theme,
            moves,
            rating,
            fen: fen.to_owned(),
            deal: deal.to_owned(),
            solution,
        })
    }
}
