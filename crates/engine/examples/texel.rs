//! Texel tuning of the evaluation: material values, piece-square tables, tempo and the
//! activity term's weights.
//!
//! The evaluation is linear in its values: a face-up piece adds its material, its opening and
//! endgame table entries weighted by the game's phase; a covered piece adds its side's pool
//! average of the material values; the mover adds a tempo; once no covered piece is left, each
//! chariot and cannon adds its step value for each point of reach above the usual, each horse
//! the value of its number of moves, and the pressure on the enemy palace its weight for each
//! point attacked (scaled by how many pieces attack, a scale the fit holds), and the mover's
//! threatened losses count against it by their weights. So the values
//! can be fitted to game results: find those whose evaluation, through a logistic curve, best
//! predicts who went on to win from each quiet position (Texel's method). Positions come from
//! the engine's own games at a small node budget, in Xiangqi from random openings and in Jieqi
//! from random deals; a position counts as quiet when the mover is not in check, did not just
//! lose a piece, and does not capture next.
//!
//! The shared tables (Jieqi's) were fitted so (the Xiangqi positions relabelled by
//! Fairy-Stockfish, see `src/eval/tables.rs`):
//!
//! ```text
//! cargo run --release -p jieqi-engine --example texel -- generate xiangqi 1300 4000 301 > xq.txt
//! cargo run --release -p jieqi-engine --example texel -- generate jieqi 1600 4000 302 > jq.txt
//! python3 scripts/label-with-fairy-stockfish.py xq.txt xq-labelled.txt 3000
//! cargo run --release -p jieqi-engine --example texel -- tune xq-labelled.txt jq.txt > tables.txt
//! ```
//!
//! and Xiangqi's own tables from them, on Xiangqi positions alone (`tune --xiangqi` starts
//! from Xiangqi's tables, holds the shared material and activity values, and prints only the
//! `XIANGQI_` tables and tempo):
//!
//! ```text
//! cargo run --release -p jieqi-engine --example texel -- generate xiangqi 1300 4000 401 > xq1.txt
//! cargo run --release -p jieqi-engine --example texel -- generate xiangqi 1300 4000 402 > xq2.txt
//! python3 scripts/label-with-fairy-stockfish.py xq1.txt xq1F.txt 3000
//! python3 scripts/label-with-fairy-stockfish.py xq2.txt xq2F.txt 3000
//! cargo run --release -p jieqi-engine --example texel -- tune --xiangqi xq1F.txt xq2F.txt
//! ```
//!
//! (The `generate` runs take about ten minutes each on one core and give some 125,000 and
//! 82,000 positions; the labelling takes about ten minutes on two cores; `tune` twenty
//! seconds. The tables were pasted in, the activity weights it also prints were not. A rerun
//! gives close values, not the same ones: Fairy-Stockfish's values depend a little on what
//! its table holds from the positions it searched before.)
//!
//! `generate VARIANT GAMES NODES SEED` writes one position a line: variant, side to move, the
//! 90 cells from a0 to i9 (`.` empty), the mover's view of each side's unseen pool, and Red's
//! score in the game (1, 0.5 or 0; or any expected score, as the labelling writes).
//! `tune FILES...` starts from the engine's current values (it compiles `src/eval/tables.rs`
//! and `src/eval/activity.rs` in), fits the logistic curve's scale to them and holds it,
//! then minimises the squared error of the prediction with a weak pull towards the current
//! values (so that points rarely seen in the data keep them), and prints the new `VALUES`,
//! tables and `TEMPO` ready to paste into `tables.rs`, then the activity weights for
//! `activity.rs`. Before fitting it reports how far its linear model of the activity term is
//! from the engine's own (which rounds and clamps): a fraction of a point. Tables stay mirror
//! images across the middle file, as the board is, which halves the values to fit. The last
//! tenth of each file is held out and its error reported, to show the fit predicts games it
//! was not fitted on.

#[path = "../src/eval/activity.rs"]
mod activity;
#[path = "../src/eval/tables.rs"]
mod tables;

use std::error::Error;
use std::fmt::Write as _;
use std::time::Duration;

use jieqi_engine::{Budget, Engine, Level, Pool};
use jieqi_rules::{
    BySide, Cell, Game, GameDeal, GameMove, MoveOptions, Outcome, Piece, Position, Preset, Role,
    Rules, Setup, Side, Square, Variant, Viewer,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plies of uniformly random moves that open each Xiangqi game (Jieqi's deals vary enough).
const XIANGQI_OPENING_PLIES: usize = 6;
/// A game still running after this many plies is scored a draw, as `jieqi-bot match` does.
const MAX_PLIES: usize = 300;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate") if args.len() == 5 => {
            let variant = match args[1].as_str() {
                "xiangqi" => Variant::Xiangqi,
                "jieqi" => Variant::Jieqi,
                other => return Err(format!("no such variant to generate: {other}").into()),
            };
            generate(
                variant,
                args[2].parse()?,
                args[3].parse()?,
                args[4].parse()?,
            )
        }
        Some("tune") if args.len() > 2 && args[1] == "--xiangqi" => {
            tune(Variant::Xiangqi, &args[2..])
        }
        Some("tune") if args.len() > 1 => tune(Variant::Jieqi, &args[1..]),
        _ => Err(
            "usage: texel generate xiangqi|jieqi GAMES NODES SEED | texel tune [--xiangqi] FILES..."
                .into(),
        ),
    }
}

/// Plays `games` engine games of `nodes` nodes a move and prints their quiet positions.
fn generate(variant: Variant, games: u64, nodes: u64, seed: u64) -> Result<(), Box<dyn Error>> {
    let budget = Budget {
        nodes,
        movetime: Duration::from_secs(60),
        max_depth: 64,
        // A little noise so that games from one opening part ways.
        noise: 10,
        chance_plies: 1,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for index in 0..games {
        let deal = GameDeal::shuffled(variant, &mut |n| rng.gen_range(0..n.max(1)));
        let mut game = Game::new(Rules::new(variant, Preset::Standard), deal)?;
        if variant == Variant::Xiangqi {
            for _ in 0..XIANGQI_OPENING_PLIES {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                game.play(legal[rng.gen_range(0..legal.len())])?;
            }
        }
        let mut engines = BySide::new_with(|side| {
            Engine::with_budget(
                Level::Master,
                budget,
                seed ^ (index << 1) ^ side.index() as u64,
            )
        });
        let mut quiet = Vec::new();
        let mut just_captured = false;
        while game.outcome().is_none() && game.ply() < MAX_PLIES {
            let Some(side) = game.side_to_move() else {
                break;
            };
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let view = game.view(Viewer::Player(side));
            let mv = engines[side].choose(&view, &legal)?;
            let captures = match mv {
                GameMove::Board(mv) => view.cells[mv.to.index()] != Cell::Empty,
                GameMove::Banqi(_) => false,
            };
            if view.check.is_none() && !captures && !just_captured {
                quiet.push(record(variant, side, &view.cells, &Pool::from_view(&view)));
            }
            just_captured = captures;
            game.play(mv)?;
        }
        let red_score = match game.outcome() {
            Some(Outcome::Win {
                winner: Side::Red, ..
            }) => "1",
            Some(Outcome::Win { .. }) => "0",
            _ => "0.5",
        };
        for line in quiet {
            println!("{line} {red_score}");
        }
    }
    Ok(())
}

/// The letter of `variant` in the position file: `j` for Jieqi, `x` for Xiangqi.
fn variant_letter(variant: Variant) -> &'static str {
    if variant == Variant::Jieqi { "j" } else { "x" }
}

/// A position as one line of text, without its result.
fn record(variant: Variant, side: Side, cells: &[Cell], pool: &Pool) -> String {
    let mut line = String::new();
    line.push_str(variant_letter(variant));
    line.push(' ');
    line.push(side.fen_char());
    line.push(' ');
    line.extend(cells.iter().map(|c| c.char().unwrap_or('.')));
    for side in Side::ALL {
        line.push(' ');
        let counts: Vec<String> = pool.counts()[side].iter().map(u8::to_string).collect();
        line.push_str(&counts.join(","));
    }
    line
}

/// Fitted values: material by role (the general's stays 0), then each role's opening table
/// as 10 rows of 5 half-files (the middle file and one half of the board, the other half a
/// mirror), then the endgame tables alike, then the tempo, then the activity term's weights:
/// a chariot's and a cannon's step (opening, endgame), a horse's value by its number of moves
/// (opening, endgame, nine of each), the palace pressure of a chariot, a cannon and a
/// horse, an empty-headed cannon's opening value, and the sixteenths of the side to move's
/// dearest threatened loss and of its other losses that count against it.
const MATERIAL: usize = 0;
const TABLES: usize = 7;
const TABLE_LEN: usize = 50;
const ENDGAME: usize = 7 * TABLE_LEN;
const TEMPO: usize = TABLES + 2 * ENDGAME;
/// The first of the activity term's weights; they run to the end.
const ACTIVITY: usize = TEMPO + 1;
const CHARIOT_STEP: usize = ACTIVITY;
const CANNON_STEP: usize = CHARIOT_STEP + 2;
const HORSE_MOVES: usize = CANNON_STEP + 2;
/// The horse's entry for three moves stays 0: every horse has one entry, so together they
/// and the horse's material could all move by the same amount; this pins them.
const HORSE_MOVES_FIXED: usize = HORSE_MOVES + 2 * 3;
const PRESSURE: usize = HORSE_MOVES + 2 * 9;
const EMPTY_HEADED_CANNON: usize = PRESSURE + 3;
const THREAT: usize = EMPTY_HEADED_CANNON + 1;
const PARAMS: usize = THREAT + 2;

/// The fitted opening value of `piece` on `square`: the index of its table entry (the
/// endgame's is [`ENDGAME`] further).
fn table_param(piece: Piece, square: Square) -> usize {
    let file = usize::from(square.file().index());
    let rank = usize::from(square.rank().index());
    // As `tables::pst`: row 0 is the mover's far rank; files fold onto the half from a to e.
    let (row, file) = match piece.side {
        Side::Red => (9 - rank, file),
        Side::Black => (rank, 8 - file),
    };
    TABLES + piece.role.index() * TABLE_LEN + row * 5 + file.min(8 - file)
}

/// One position's evaluation as weights on the values (for Red), and Red's score.
struct Sample {
    terms: Vec<(u16, f32)>,
    red_score: f32,
    /// The engine's activity term for Red with its current weights, where it counts (no
    /// covered piece left): to check that the terms above describe it.
    activity: Option<i32>,
}

/// How `side`'s values count in an evaluation for Red.
fn red_sign(side: Side) -> f32 {
    if side == Side::Red { 1.0 } else { -1.0 }
}

fn parse_sample(line: &str) -> Option<Sample> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [variant, side, cells, red_pool, black_pool, score] = fields[..] else {
        return None;
    };
    let mover = Side::from_fen_char(side.chars().next()?)?;
    let mut pools = [[0u8; 7]; 2];
    for (pool, text) in pools.iter_mut().zip([red_pool, black_pool]) {
        for (count, n) in pool.iter_mut().zip(text.split(',')) {
            *count = n.parse().ok()?;
        }
    }
    let mut board = Vec::with_capacity(Square::COUNT);
    for (index, c) in cells.chars().enumerate() {
        let square = Square::from_index(index)?;
        let cell = if c == '.' {
            Cell::Empty
        } else {
            Cell::from_char(c)?
        };
        board.push((square, cell));
    }
    let mut face_up = 0i32;
    let mut covered = [0i32; 2];
    let mut setup = Setup::empty();
    setup.side_to_move = mover;
    for &(square, cell) in &board {
        setup.board[square.index()] = cell;
        match cell {
            Cell::Piece(piece) => face_up += tables::PHASE_WEIGHTS[piece.role.index()],
            Cell::Covered(Some(side)) => covered[side.index()] += 1,
            Cell::Empty | Cell::Covered(None) => {}
        }
    }
    let phase = tables::phase(face_up, covered, [&pools[0], &pools[1]]);
    let opening = phase as f32 / tables::OPENING_PHASE as f32;
    let mut weights = vec![0f32; PARAMS];
    for (square, cell) in board {
        match cell {
            Cell::Piece(piece) => {
                let sign = red_sign(piece.side);
                weights[MATERIAL + piece.role.index()] += sign;
                let i = table_param(piece, square);
                weights[i] += sign * opening;
                weights[i + ENDGAME] += sign * (1.0 - opening);
            }
            Cell::Covered(Some(side)) => {
                let sign = red_sign(side);
                let pool = &pools[side.index()];
                let total: f32 = pool.iter().map(|&n| f32::from(n)).sum();
                for (role, &n) in pool.iter().enumerate() {
                    if total > 0.0 {
                        weights[MATERIAL + role] += sign * f32::from(n) / total;
                    }
                }
            }
            Cell::Empty | Cell::Covered(None) => {}
        }
    }
    weights[TEMPO] = red_sign(mover);
    let mut activity = None;
    if covered == [0, 0] {
        let variant = if variant == variant_letter(Variant::Jieqi) {
            Variant::Jieqi
        } else {
            Variant::Xiangqi
        };
        let pos = Position::from_setup(setup, variant, MoveOptions::default()).ok()?;
        add_activity(&pos, opening, &mut weights);
        activity = Some(activity::activity(&pos, Side::Red, phase));
    }
    let terms = weights
        .iter()
        .enumerate()
        .filter(|&(_, w)| *w != 0.0)
        .map(|(i, &w)| (i as u16, w))
        .collect();
    Some(Sample {
        terms,
        red_score: score.parse().ok()?,
        activity,
    })
}

/// Adds the activity term's weights of `pos` (Red's minus Black's), blended by the
/// `opening` share of the phase, as `activity::activity` reckons it but unclamped.
fn add_activity(pos: &Position, opening: f32, weights: &mut [f32]) {
    // Per side: palace points attacked by chariots, cannons and horses, and attackers.
    let mut palace = [[0f32; 3]; 2];
    let mut attackers = [0usize; 2];
    let mut threats = activity::Threats::new();
    for (sq, piece, reach) in pos.attacker_reaches() {
        threats.add(sq, piece, reach.hits);
        let sign = red_sign(piece.side);
        let free = reach.free as f32;
        // The opening weight this piece's value is on (the endgame's is next), how many
        // times it counts, and the piece's index among the palace attackers.
        let (first, amount, attacker) = match piece.role {
            Role::Chariot => (CHARIOT_STEP, free - activity::CHARIOT_USUAL as f32, 0),
            Role::Cannon => (CANNON_STEP, free - activity::CANNON_USUAL as f32, 1),
            _ => (HORSE_MOVES + 2 * (reach.free as usize).min(8), 1.0, 2),
        };
        weights[first] += sign * amount * opening;
        weights[first + 1] += sign * amount * (1.0 - opening);
        if reach.palace > 0 {
            palace[piece.side.index()][attacker] += reach.palace as f32;
            attackers[piece.side.index()] += 1;
        }
    }
    for side in Side::ALL {
        let sign = red_sign(side);
        let scale = activity::PRESSURE_SCALE[attackers[side.index()].min(4)] as f32 / 4.0;
        for (role, points) in palace[side.index()].iter().enumerate() {
            weights[PRESSURE + role] += sign * points * scale;
        }
        if activity::empty_headed_cannon(pos, side) {
            weights[EMPTY_HEADED_CANNON] += sign * opening;
        }
    }
    let mover = pos.side_to_move();
    let losses = threats.losses(pos, mover);
    weights[THREAT] -= red_sign(mover) * losses.dearest as f32 / 16.0;
    weights[THREAT + 1] -= red_sign(mover) * losses.others as f32 / 16.0;
}

/// The engine's current values in the fitted layout (mirrored entries averaged), with the
/// piece-square tables and tempo of `tables`.
fn current_params(tables: &tables::Tables) -> Vec<f64> {
    let mut params = vec![0f64; PARAMS];
    let mut counts = vec![0f64; PARAMS];
    for role in Role::ALL {
        params[MATERIAL + role.index()] = f64::from(tables::VALUES[role.index()]);
        for square in Square::all() {
            let piece = Piece::new(Side::Red, role);
            let i = table_param(piece, square);
            let (opening, endgame) = tables.pst(piece, square);
            params[i] += f64::from(opening);
            params[i + ENDGAME] += f64::from(endgame);
            counts[i] += 1.0;
            counts[i + ENDGAME] += 1.0;
        }
    }
    for i in TABLES..TEMPO {
        params[i] /= counts[i];
    }
    params[TEMPO] = f64::from(tables.tempo);
    let steps = [activity::CHARIOT_STEP, activity::CANNON_STEP];
    for (first, (opening, endgame)) in [CHARIOT_STEP, CANNON_STEP].into_iter().zip(steps) {
        params[first] = f64::from(opening);
        params[first + 1] = f64::from(endgame);
    }
    for (moves, &(opening, endgame)) in activity::HORSE_MOVES.iter().enumerate() {
        params[HORSE_MOVES + 2 * moves] = f64::from(opening);
        params[HORSE_MOVES + 2 * moves + 1] = f64::from(endgame);
    }
    let pressure = [
        activity::PRESSURE_CHARIOT,
        activity::PRESSURE_CANNON,
        activity::PRESSURE_HORSE,
    ];
    for (i, weight) in pressure.into_iter().enumerate() {
        params[PRESSURE + i] = f64::from(weight);
    }
    params[EMPTY_HEADED_CANNON] = f64::from(activity::EMPTY_HEADED_CANNON);
    params[THREAT] = f64::from(activity::THREAT_DEAREST);
    params[THREAT + 1] = f64::from(activity::THREAT_OTHERS);
    params
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn evaluate(sample: &Sample, params: &[f64]) -> f64 {
    sample
        .terms
        .iter()
        .map(|&(i, w)| f64::from(w) * params[usize::from(i)])
        .sum()
}

/// Mean squared error of the predicted score at logistic scale `k`.
fn error(samples: &[Sample], params: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (f64::from(s.red_score) - sigmoid(k * evaluate(s, params))).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// Pull towards the current values, per value and squared centipawn, against the error.
const PRIOR: f64 = 2e-9;
const EPOCHS: usize = 1500;
const LEARNING_RATE: f64 = 1.0;

/// Fits the values to the positions of `files`, starting from `variant`'s tables (and the
/// shared material and activity values). Xiangqi's own tables and tempo share the material
/// values and the activity term with Jieqi, so their fit holds those and prints only the
/// tables and the tempo (a role's tables can still shift as a whole, as its material would).
fn tune(variant: Variant, files: &[String]) -> Result<(), Box<dyn Error>> {
    let xiangqi = variant == Variant::Xiangqi;
    // The last tenth of each file: its last games.
    let (mut samples, mut held_out) = (Vec::new(), Vec::new());
    for file in files {
        let text = std::fs::read_to_string(file)?;
        let mut parsed: Vec<Sample> = text.lines().filter_map(parse_sample).collect();
        held_out.extend(parsed.split_off(parsed.len() * 9 / 10));
        samples.extend(parsed);
    }
    if samples.is_empty() || held_out.is_empty() {
        return Err("too few positions in the files given".into());
    }
    let start = current_params(tables::Tables::of(variant));
    // The linear model of the activity term against the engine's own (which rounds and is
    // clamped): they should agree to within a point or two.
    let with_activity: Vec<(&Sample, i32)> = samples
        .iter()
        .filter_map(|s| Some((s, s.activity?)))
        .collect();
    let gap: f64 = with_activity
        .iter()
        .map(|&(s, engine)| {
            let modelled: f64 = s
                .terms
                .iter()
                .filter(|&&(i, _)| usize::from(i) >= ACTIVITY)
                .map(|&(i, w)| f64::from(w) * start[usize::from(i)])
                .sum();
            (modelled - f64::from(engine)).abs()
        })
        .sum();
    eprintln!(
        "{} positions with the activity term; its model is off by {:.2} on average",
        with_activity.len(),
        gap / with_activity.len().max(1) as f64
    );
    // The logistic scale that fits the current evaluation best, found on a grid: it then
    // stays fixed, so the fitted values keep the evaluation's unit.
    let k = (1..=100)
        .map(|i| f64::from(i) * 0.0001)
        .min_by(|&a, &b| error(&samples, &start, a).total_cmp(&error(&samples, &start, b)))
        .unwrap_or(0.003);
    eprintln!(
        "{} positions, {} held out; scale {k:.4}; error {:.6}, held out {:.6}",
        samples.len(),
        held_out.len(),
        error(&samples, &start, k),
        error(&held_out, &start, k)
    );
    // Adam on the whole set at each step.
    let mut params = start.clone();
    let (mut m, mut v) = (vec![0f64; PARAMS], vec![0f64; PARAMS]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    for epoch in 1..=EPOCHS {
        let mut gradient: Vec<f64> = params
            .iter()
            .zip(&start)
            .map(|(p, s)| 2.0 * PRIOR * (p - s) * samples.len() as f64)
            .collect();
        for sample in &samples {
            let predicted = sigmoid(k * evaluate(sample, &params));
            let slope = -2.0
                * (f64::from(sample.red_score) - predicted)
                * predicted
                * (1.0 - predicted)
                * k;
            for &(i, w) in &sample.terms {
                gradient[usize::from(i)] += slope * f64::from(w);
            }
        }
        // The general has no material value: losing it is mate.
        gradient[MATERIAL + Role::General.index()] = 0.0;
        if xiangqi {
            gradient[MATERIAL..TABLES].fill(0.0);
            gradient[ACTIVITY..].fill(0.0);
        }
        gradient[HORSE_MOVES_FIXED] = 0.0;
        gradient[HORSE_MOVES_FIXED + 1] = 0.0;
        for i in 0..PARAMS {
            let g = gradient[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            params[i] -= LEARNING_RATE * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if epoch % 100 == 0 {
            eprintln!(
                "epoch {epoch}: error {:.6}, held out {:.6}",
                error(&samples, &params, k),
                error(&held_out, &params, k)
            );
        }
    }
    print!("{}", as_rust(&params, xiangqi));
    Ok(())
}

/// The fitted values as the constants of `src/eval/tables.rs` and `src/eval/activity.rs`;
/// for `xiangqi`, only Xiangqi's own tables and tempo (the rest was held).
fn as_rust(params: &[f64], xiangqi: bool) -> String {
    let mut out = String::new();
    let prefix = if xiangqi { "XIANGQI_" } else { "" };
    if !xiangqi {
        let material: Vec<String> = (0..7)
            .map(|r| format!("{}", params[MATERIAL + r].round() as i32))
            .collect();
        let _ = writeln!(
            out,
            "pub const VALUES: [i32; 7] = [{}];",
            material.join(", ")
        );
    }
    for role in Role::ALL {
        let _ = writeln!(out, "\n#[rustfmt::skip]");
        let name = role.name().to_uppercase();
        let _ = writeln!(out, "const {prefix}{name}: [[i32; 90]; 2] = [[");
        for offset in [0, ENDGAME] {
            if offset == ENDGAME {
                let _ = writeln!(out, "], [");
            }
            for row in 0..10 {
                // Row 0 is rank 9, read from Red's side, as the tables are written.
                let entries: Vec<String> = (0..9)
                    .filter_map(|file| Square::from_coords(file, 9 - row))
                    .map(|square| {
                        let i = table_param(Piece::new(Side::Red, role), square) + offset;
                        format!("{:>4}", params[i].round() as i32)
                    })
                    .collect();
                let _ = writeln!(out, "   {},", entries.join(","));
            }
        }
        let _ = writeln!(out, "]];");
    }
    let _ = writeln!(
        out,
        "\npub const {prefix}TEMPO: i32 = {};",
        params[TEMPO].round() as i32
    );
    let pair = |i: usize| {
        format!(
            "({}, {})",
            params[i].round() as i32,
            params[i + 1].round() as i32
        )
    };
    if xiangqi {
        return out;
    }
    let _ = writeln!(out, "\n// activity.rs");
    let _ = writeln!(
        out,
        "const CHARIOT_STEP: (i32, i32) = {};",
        pair(CHARIOT_STEP)
    );
    let _ = writeln!(
        out,
        "const CANNON_STEP: (i32, i32) = {};",
        pair(CANNON_STEP)
    );
    let horse: Vec<String> = (0..9).map(|moves| pair(HORSE_MOVES + 2 * moves)).collect();
    let _ = writeln!(
        out,
        "const HORSE_MOVES: [(i32, i32); 9] = [{}];",
        horse.join(", ")
    );
    for (i, name) in ["CHARIOT", "CANNON", "HORSE"].into_iter().enumerate() {
        let _ = writeln!(
            out,
            "const PRESSURE_{name}: i32 = {};",
            params[PRESSURE + i].round() as i32
        );
    }
    let _ = writeln!(
        out,
        "const EMPTY_HEADED_CANNON: i32 = {};",
        params[EMPTY_HEADED_CANNON].round() as i32
    );
    for (i, name) in ["DEAREST", "OTHERS"].into_iter().enumerate() {
        let _ = writeln!(
            out,
            "const THREAT_{name}: i32 = {};",
            params[THREAT + i].round() as i32
        );
    }
    out
}
