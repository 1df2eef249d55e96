//! The engine as the service sees it: [`Engine::choose`] takes a player's [`View`] and the
//! legal moves, and returns a move. It is given no deal, so it plays fair by construction.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jieqi_rules::banqi::{Action, BanqiSquare};
use jieqi_rules::position::{MoveOptions, Position, PositionError};
use jieqi_rules::{BySide, Cell, GameMove, Move, Setup, Side, Square, Variant, View, Viewer};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::banqi::{BanqiAction, BanqiBoard, BanqiSearch, Spot};
use crate::control::{Control, MATE, MATE_BOUND, fnv1a, root_noise};
use crate::level::{Budget, Level};
use crate::pool::Pool;
use crate::search::{BoardSearch, History, Iteration, Seen};
use crate::tt::Tt;

/// Why the engine could not choose a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The engine was handed the full view (with the deal): it plays only from a player's.
    #[error(
        "the engine plays from one player's view, not the full one with the deal: give it the \
         view of the side to move"
    )]
    FullView,
    /// The view is one player's, but it is the other player's turn.
    #[error("it is not {0}'s turn, so the engine has no move to choose for {0}")]
    NotToMove(Side),
    /// There is nothing to choose from.
    #[error("there is no legal move to choose from: the game is over")]
    NoLegalMove,
    /// The view does not describe a position the engine can search.
    #[error("the view does not describe a playable position: {0}")]
    BadView(#[from] PositionError),
    /// The view's board has the wrong size for its game.
    #[error("the view's board has {cells} points, which is not a {variant} board")]
    BoardSize {
        /// The game the view claims to be.
        variant: Variant,
        /// How many cells it has.
        cells: usize,
    },
}

/// What the last search did, for logs and benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nodes visited.
    pub nodes: u64,
    /// Deepest iteration reached (plies; 0 if the move was chosen without a search).
    pub depth: i32,
    /// The chosen move's score for the mover, in hundredths of a soldier (noise included).
    pub score: i32,
    /// Time spent.
    pub elapsed: Duration,
}

/// A search's value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of a soldier (noise included below master).
    Centi(i32),
    /// A forced mate in this many plies: positive when the mover mates, negative when it is
    /// mated.
    Mate(i32),
}

impl Score {
    /// The score of a search value, such as [`SearchInfo::score`].
    pub fn from_value(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate(MATE - value)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value))
        } else {
            Score::Centi(value)
        }
    }
}

/// One line of an analysis: its value and the moves the engine expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The value of the line's first move for the mover.
    pub score: Score,
    /// The first move and the replies the search expects, as far as it knows them.
    pub pv: Vec<Move>,
}

/// What a search knows after one completed iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The iteration's depth in plies.
    pub depth: i32,
    /// Nodes visited so far in this search.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The best lines, best first (as many as [`Analysis::lines`] asks, if there are).
    pub lines: Vec<Line>,
}

/// How a caller that watches a search (a UCI session) wants it run. The default is what
/// [`Engine::choose`] does: one line, no cancellation, no reports.
#[derive(Default)]
pub struct Analysis<'a> {
    /// Ends the search early, with the best move found so far, once raised.
    pub cancel: Option<Arc<AtomicBool>>,
    /// How many best root moves to keep exact and report (UCI `MultiPV`); 0 counts as 1.
    pub lines: usize,
    /// Size of the transposition table in mebibytes (UCI `Hash`; the table holds at most
    /// 2^22 entries); by default it grows with the node budget up to 2^20 entries.
    pub table_mib: Option<usize>,
    /// Threads searching a Xiangqi or Jieqi position at once (UCI `Threads`); 0 counts as 1.
    /// The others help the one whose move is played by filling the table it reads (lazy SMP),
    /// so more threads make the search deeper but its result no longer repeatable. Iteration
    /// reports count the nodes of that one thread; [`SearchInfo::nodes`] counts all. Two
    /// threads against one at 60 ms a move: +91 Elo (+48, +138) in Xiangqi over 160 self-play
    /// games (depth 11.5 against 10.8), +26 (-4, +57) in Jieqi over 480 (8.8 against 8.5: a
    /// Jieqi reveal starts a new table, so both threads often start from an empty one). The
    /// chat's levels search on one thread, leaving the other core to the other games.
    pub threads: usize,
    /// Called after each completed iteration of a Xiangqi or Jieqi search.
    pub on_iteration: Option<&'a mut dyn FnMut(&Progress)>,
}

impl std::fmt::Debug for Analysis<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis")
            .field("cancel", &self.cancel)
            .field("lines", &self.lines)
            .field("table_mib", &self.table_mib)
            .field("threads", &self.threads)
            .field("on_iteration", &self.on_iteration.is_some())
            .finish()
    }
}

/// Positions of this game the engine has seen since the last capture or reveal, to steer
/// clear of repetitions the rules punish.
#[derive(Clone, Debug, Default)]
struct Memory {
    /// Pieces on the board and covered pieces when the memory was last extended: a change
    /// means a capture or a reveal, after which no earlier position can come back.
    signature: (usize, usize),
    last_ply: u32,
    seen: Vec<Seen>,
}

/// The built-in opponent. Keep one per game: it remembers the positions it saw, to avoid
/// losing by perpetual check. It is `Send`, so the service can move it into
/// `tokio::task::spawn_blocking`.
///
/// ```
/// use jieqi_engine::{Engine, Level};
/// use jieqi_rules::{Game, GameDeal, Preset, Rules, Side, Variant, Viewer};
///
/// let game = Game::new(Rules::new(Variant::Xiangqi, Preset::Standard), GameDeal::None)?;
/// let mut engine = Engine::new(Level::Novice, 7);
/// let mv = engine.choose(&game.view(Viewer::Player(Side::Red)), &game.legal_moves())?;
/// assert!(game.legal_moves().contains(&mv));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Engine {
    level: Level,
    budget: Budget,
    seed: u64,
    memory: Memory,
    last: Option<SearchInfo>,
    /// The transposition table of the last board search, kept for the next move's: what the
    /// search of the previous move learnt about the positions ahead is still true, so it
    /// starts deeper. Kept only while the unseen pool it was computed with is unchanged.
    table: Option<(Tt, Pool)>,
    /// The move history of the last board search, kept for the next move's search whatever
    /// was revealed: which moves cut off stays a good guess after a reveal, unlike the
    /// table's values. Kept from move to move and split by side, against one shared history fresh
    /// for each search, at 30,000 nodes a move: +23 Elo (-1, +48) in Xiangqi over 600
    /// self-play games (+31 and +15 on two seeds), -2 (-29, +26) in Jieqi over 600, at no
    /// cost in speed. In Xiangqi it carries the static value's learnt errors too (the
    /// correction history, see `search`), kept whole from move to move.
    history: Option<History>,
}

impl Engine {
    /// An engine of `level`. `seed` decides its random choices (below master): the same seed
    /// and the same views give the same moves; give each game its own seed to vary them.
    pub fn new(level: Level, seed: u64) -> Engine {
        Engine::with_budget(level, level.budget(), seed)
    }

    /// An engine with a custom budget (tests, matches with reduced time).
    pub fn with_budget(level: Level, budget: Budget, seed: u64) -> Engine {
        Engine {
            level,
            budget,
            seed,
            memory: Memory::default(),
            last: None,
            table: None,
            history: None,
        }
    }

    /// The level it was made with.
    pub fn level(&self) -> Level {
        self.level
    }

    /// What a move may spend.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Changes what each move may spend from the next call on (a UCI `go` names its own
    /// limits); the engine keeps its memory of the game.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// What the last call to [`Engine::choose`] did.
    pub fn last_search(&self) -> Option<SearchInfo> {
        self.last
    }

    /// Chooses a move for the side to move of `view` among `legal` (the game's legal moves).
    ///
    /// `view` must be the mover's own view ([`Viewer::Player`]) or the public one; the full
    /// view is refused, so the engine can never be handed the deal. The answer is one of
    /// `legal`. It takes at most the level's time budget; call it from a blocking thread.
    pub fn choose(&mut self, view: &View, legal: &[GameMove]) -> Result<GameMove, EngineError> {
        self.analyse(view, legal, Analysis::default())
    }

    /// [`Engine::choose`], run as `analysis` asks: cancellable from another thread, with
    /// several exact lines and a report after each iteration. With the default analysis it
    /// is `choose` exactly.
    pub fn analyse(
        &mut self,
        view: &View,
        legal: &[GameMove],
        mut analysis: Analysis<'_>,
    ) -> Result<GameMove, EngineError> {
        match view.viewer {
            Viewer::Full => return Err(EngineError::FullView),
            Viewer::Player(side) if view.side_to_move.is_some_and(|s| s != side) => {
                return Err(EngineError::NotToMove(side));
            }
            _ => {}
        }
        if legal.is_empty() {
            return Err(EngineError::NoLegalMove);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ fnv1a(&view.fen) ^ u64::from(view.ply));
        let mut control = Control::with_cancel(&self.budget, analysis.cancel.clone());
        let (mv, depth, score) = match view.variant {
            Variant::Xiangqi | Variant::Jieqi => {
                self.choose_board(view, legal, &mut control, &mut rng, &mut analysis)?
            }
            Variant::Banqi => self.choose_banqi(view, legal, &mut control, &mut rng)?,
        };
        self.last = Some(SearchInfo {
            nodes: control.nodes,
            depth,
            score,
            elapsed: control.elapsed(),
        });
        Ok(mv)
    }

    fn choose_board(
        &mut self,
        view: &View,
        legal: &[GameMove],
        control: &mut Control,
        rng: &mut ChaCha8Rng,
        analysis: &mut Analysis<'_>,
    ) -> Result<(GameMove, i32, i32), EngineError> {
        let wanted: Vec<Move> = legal
            .iter()
            .filter_map(|m| match m {
                GameMove::Board(mv) => Some(*mv),
                GameMove::Banqi(_) => None,
            })
            .collect();
        let pos = position_from_view(view, &wanted)?;
        let mut root: Vec<Move> = pos.legal_move_vec();
        root.retain(|mv| wanted.contains(mv));
        if root.is_empty() {
            // The game allows moves our position does not (a rule we do not model): any of
            // the game's moves is better than none.
            return random_move(legal, rng).map(|mv| (mv, 0, 0));
        }
        let earlier = self.remember(view, pos.zobrist(), pos.is_check());
        let noise = root_noise(rng, root.len(), self.budget.noise);
        let tt_size = match analysis.table_mib {
            Some(mib) => crate::tt::entries_in(mib),
            None => (self.budget.nodes as usize).min(1 << 20),
        };
        let pool = Pool::from_view(view);
        // After a Jieqi reveal or capture the scores were averaged over another pool. Keeping
        // only the table's best moves then was tried and lost in self-play (45.5 % in 200
        // Jieqi games), so such a change starts a new table.
        let tt = match self.table.take() {
            Some((tt, kept)) if tt.len() == Tt::rounded(tt_size) && kept == pool => tt,
            _ => Tt::new(tt_size),
        };
        let started = std::time::Instant::now();
        let history = self.history.take().map_or_else(History::new, History::aged);
        // Helpers stop when the main search is done (it alone keeps the node budget, which
        // it spends on its own), at the depth cap or, at the latest, when the time is up.
        let helper_budget = Budget {
            nodes: u64::MAX,
            ..self.budget
        };
        let done = Arc::new(AtomicBool::new(false));
        let at = RootSearch {
            pos: &pos,
            pool,
            moves: &root,
            noise: &noise,
            earlier: &earlier,
            budget: self.budget,
        };
        let (result, history, helper_nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..analysis.threads.max(1))
                .map(|helper| {
                    let (history, done, tt) = (history.clone(), done.clone(), &tt);
                    scope.spawn(move || {
                        let mut control = Control::with_cancel(&helper_budget, Some(done));
                        let mut search = at.search(&mut control, (tt, history));
                        // Every other helper a ply ahead of the main search.
                        search.ahead_by(helper as i32 % 2);
                        search.run_observed(at.moves, at.noise, at.budget.max_depth, 1, None);
                        control.nodes
                    })
                })
                .collect();
            let (result, history) = at.main_search(control, (&tt, history), analysis, started);
            done.store(true, Ordering::Relaxed);
            // A helper that panicked leaves the main search's move as good as it was.
            let helper_nodes: u64 = helpers.into_iter().filter_map(|h| h.join().ok()).sum();
            (result, history, helper_nodes)
        });
        // The search's node count is every thread's.
        control.nodes += helper_nodes;
        self.table = Some((tt, pool));
        self.history = Some(history);
        let Some(result) = result else {
            return random_move(legal, rng).map(|mv| (mv, 0, 0));
        };
        self.remember_reply(&pos, result.mv);
        Ok((GameMove::Board(result.mv), result.depth, result.score))
    }

    fn choose_banqi(
        &mut self,
        view: &View,
        legal: &[GameMove],
        control: &mut Control,
        rng: &mut ChaCha8Rng,
    ) -> Result<(GameMove, i32, i32), EngineError> {
        if view.cells.len() != crate::banqi::SQUARES {
            return Err(EngineError::BoardSize {
                variant: view.variant,
                cells: view.cells.len(),
            });
        }
        let Some(board) = BanqiBoard::from_view(view) else {
            // Before the first flip every flip is alike: colours are not even assigned.
            return random_move(legal, rng).map(|mv| (mv, 0, 0));
        };
        let mut generated = Vec::new();
        board.actions(&mut generated, true);
        let root: Vec<BanqiAction> = generated
            .into_iter()
            .filter(|a| to_action(*a).is_some_and(|x| legal.contains(&GameMove::Banqi(x))))
            .collect();
        if root.is_empty() {
            return random_move(legal, rng).map(|mv| (mv, 0, 0));
        }
        let earlier: Vec<u64> = self
            .remember(view, board.key(), false)
            .iter()
            .map(|s| s.key)
            .collect();
        let noise = root_noise(rng, root.len(), self.budget.noise);
        let mut search =
            BanqiSearch::new(board.clone(), control, self.budget.chance_plies, &earlier);
        let result = search.run(&root, &noise, self.budget.max_depth);
        if let Some(BanqiAction::Move { from, to }) = result.map(|r| r.action)
            && board.spots[usize::from(to)] == Spot::Empty
        {
            // Our own quiet move's position may come back too; flips and captures start afresh.
            let mut after = board;
            after.play_move(from, to);
            self.memory.seen.push(Seen {
                key: after.key(),
                in_check: false,
            });
        }
        let found =
            result.and_then(|r| Some((GameMove::Banqi(to_action(r.action)?), r.depth, r.score)));
        match found {
            Some(found) => Ok(found),
            None => random_move(legal, rng).map(|mv| (mv, 0, 0)),
        }
    }

    /// Records the view's position (its `key`) and returns the positions that may repeat.
    fn remember(&mut self, view: &View, key: u64, in_check: bool) -> Vec<Seen> {
        let pieces = view.cells.iter().filter(|c| **c != Cell::Empty).count();
        let covered = view
            .cells
            .iter()
            .filter(|c| matches!(c, Cell::Covered(_)))
            .count();
        let signature = (pieces, covered);
        if signature != self.memory.signature || view.ply < self.memory.last_ply {
            self.memory.seen.clear();
            self.memory.signature = signature;
        }
        self.memory.last_ply = view.ply;
        let earlier = self.memory.seen.clone();
        self.memory.seen.push(Seen { key, in_check });
        earlier
    }

    /// Records the position after our own quiet move (captures and reveals start afresh).
    fn remember_reply(&mut self, pos: &Position, mv: Move) {
        if pos.is_capture(mv) || matches!(pos.cell(mv.from), Cell::Covered(_)) {
            return;
        }
        let mut after = pos.clone();
        after.play_unchecked(mv, None, None);
        self.memory.seen.push(Seen {
            key: after.zobrist(),
            in_check: after.is_check(),
        });
    }
}

/// What every thread of one Xiangqi or Jieqi search starts from.
#[derive(Clone, Copy)]
struct RootSearch<'r> {
    pos: &'r Position,
    pool: Pool,
    /// The root moves (legal in the game too), each with its noise bonus in `noise`.
    moves: &'r [Move],
    noise: &'r [i32],
    /// Positions of the game that may repeat.
    earlier: &'r [Seen],
    budget: Budget,
}

impl<'r> RootSearch<'r> {
    /// A search of the root with its own `control`, on the shared table.
    fn search<'a>(&self, control: &'a mut Control, memory: (&'a Tt, History)) -> BoardSearch<'a> {
        BoardSearch::new(
            self.pos.clone(),
            self.pool,
            control,
            memory,
            self.budget.chance_plies,
            self.earlier,
        )
    }

    /// The search whose move is played, reporting to `analysis`: its result and the history
    /// it leaves for the next move's search.
    fn main_search(
        &self,
        control: &mut Control,
        memory: (&Tt, History),
        analysis: &mut Analysis<'_>,
        started: std::time::Instant,
    ) -> (Option<crate::search::SearchResult>, History) {
        let mut search = self.search(control, memory);
        let mut report = analysis.on_iteration.as_deref_mut().map(|watch| {
            move |iteration: &Iteration| {
                watch(&Progress {
                    depth: iteration.depth,
                    nodes: iteration.nodes,
                    elapsed: started.elapsed(),
                    lines: iteration
                        .lines
                        .iter()
                        .map(|(value, pv)| Line {
                            score: Score::from_value(*value),
                            pv: pv.clone(),
                        })
                        .collect(),
                })
            }
        });
        let result = search.run_observed(
            self.moves,
            self.noise,
            self.budget.max_depth,
            analysis.lines,
            report.as_mut().map(|r| r as &mut dyn FnMut(&Iteration)),
        );
        (result, search.into_history())
    }
}

/// A uniformly random move of `legal` (the fallback when there is nothing to search).
fn random_move(legal: &[GameMove], rng: &mut ChaCha8Rng) -> Result<GameMove, EngineError> {
    legal.choose(rng).copied().ok_or(EngineError::NoLegalMove)
}

/// The rules' action for one of the engine's (its squares are always on the board).
fn to_action(action: BanqiAction) -> Option<Action> {
    let square = |i: u8| BanqiSquare::from_index(usize::from(i));
    match action {
        BanqiAction::Flip(sq) => square(sq).map(Action::Flip),
        BanqiAction::Move { from, to } => Some(Action::Move {
            from: square(from)?,
            to: square(to)?,
        }),
    }
}

/// The board of a Xiangqi or Jieqi view as a position. The game's `legal` moves tell which
/// move options it plays with: if one of them is only legal when a covered advisor may leave
/// its palace (the PyChess reading), that option is on.
pub(crate) fn position_from_view(view: &View, legal: &[Move]) -> Result<Position, EngineError> {
    if view.cells.len() != Square::COUNT {
        return Err(EngineError::BoardSize {
            variant: view.variant,
            cells: view.cells.len(),
        });
    }
    let mut setup = Setup::empty();
    for (slot, cell) in setup.board.iter_mut().zip(&view.cells) {
        *slot = *cell;
    }
    setup.captured = BySide::new_with(|side| {
        let mut counts = [0u8; 7];
        for role in &view.captured[side].known {
            counts[role.index()] = counts[role.index()].saturating_add(1);
        }
        counts
    });
    setup.side_to_move = view.side_to_move.unwrap_or(Side::Red);
    let mut fields = view.fen.split_whitespace().skip(4);
    setup.halfmove_clock = fields.next().and_then(|f| f.parse().ok()).unwrap_or(0);
    setup.fullmove_number = fields.next().and_then(|f| f.parse().ok()).unwrap_or(1);
    let strict = Position::from_setup(setup.clone(), view.variant, MoveOptions::default())?;
    let generated = strict.legal_move_vec();
    if legal.iter().all(|mv| generated.contains(mv)) {
        return Ok(strict);
    }
    let loose = MoveOptions {
        covered_advisor_may_leave_palace: true,
    };
    Ok(Position::from_setup(setup, view.variant, loose)?)
}
