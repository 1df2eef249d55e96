//! Golden verdicts: a corpus of finished games (every variant and preset, every way a game
//! ends, repetition cases included) stored with the verdict this crate gave each of them at
//! a rules revision, in `tests/golden/verdicts-r<revision>.txt`. Replaying the corpus of the
//! current [`RULES_REVISION`] must give every stored verdict again: a change that alters a
//! judgement fails here until the revision is bumped (`src/game/revision.rs`) and a corpus of
//! the new revision is written. Older revisions' corpora stay as they were: a stored game's
//! verdict is history.
//!
//! Write the corpus of the current revision (only after a bump, never to make a failure go
//! away):
//! `JIEQI_BLESS_VERDICTS=1 cargo test --release -p jieqi-rules --test golden_verdicts`
//!
//! One corpus line: variant, preset, start (`start` or a FEN), deal letters (`-` for none),
//! the stored moves, how the game ended beyond its moves, and the verdict, tab-separated.

use std::collections::BTreeSet;
use std::path::PathBuf;

use jieqi_rules::game::{RULES_REVISION, testing::alter_judging};
use jieqi_rules::{
    DrawReason, Game, GameDeal, GameMove, Outcome, PlayedRecord, Preset, Rules, Side, Variant,
    WinReason,
};

/// How a game ended beyond what its moves decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    ByPlay,
    Resigned(Side),
    TimedOut(Side),
    Agreed,
    Aborted,
}

impl Ending {
    fn text(self) -> String {
        match self {
            Ending::ByPlay => "play".to_owned(),
            Ending::Resigned(side) => format!("resign:{}", side_name(side)),
            Ending::TimedOut(side) => format!("timeout:{}", side_name(side)),
            Ending::Agreed => "agree".to_owned(),
            Ending::Aborted => "abort".to_owned(),
        }
    }

    fn read(text: &str) -> Ending {
        match text.split_once(':') {
            Some(("resign", side)) => Ending::Resigned(read_side(side)),
            Some(("timeout", side)) => Ending::TimedOut(read_side(side)),
            _ => match text {
                "play" => Ending::ByPlay,
                "agree" => Ending::Agreed,
                "abort" => Ending::Aborted,
                other => panic!("unknown ending `{other}`"),
            },
        }
    }

    fn apply(self, game: &mut Game) {
        match self {
            Ending::ByPlay => {}
            Ending::Resigned(side) => game.resign(side),
            Ending::TimedOut(side) => game.time_out(side),
            Ending::Agreed => game.agree_draw(),
            Ending::Aborted => game.abort(),
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Red => "red",
        Side::Black => "black",
    }
}

fn read_side(text: &str) -> Side {
    match text {
        "red" => Side::Red,
        "black" => Side::Black,
        other => panic!("unknown side `{other}`"),
    }
}

/// A verdict in the corpus's words (stable, unlike the display texts).
fn verdict_text(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "running".to_owned(),
        Some(Outcome::Aborted) => "aborted".to_owned(),
        Some(Outcome::Draw(reason)) => format!(
            "draw:{}",
            match reason {
                DrawReason::Agreement => "agreement",
                DrawReason::NoProgress => "no-progress",
                DrawReason::Repetition => "repetition",
                DrawReason::TimeoutWithoutMatingMaterial => "timeout-without-mating-material",
            }
        ),
        Some(Outcome::Win { winner, reason }) => format!(
            "win:{}:{}",
            side_name(winner),
            match reason {
                WinReason::Checkmate => "checkmate",
                WinReason::NoLegalMove => "no-legal-move",
                WinReason::Resignation => "resignation",
                WinReason::Timeout => "timeout",
                WinReason::PerpetualCheck => "perpetual-check",
                WinReason::PerpetualChase => "perpetual-chase",
            }
        ),
    }
}

/// One finished game of the corpus.
struct Entry {
    variant: Variant,
    preset: Preset,
    start: String,
    deal: String,
    moves: Vec<String>,
    ending: Ending,
    verdict: String,
}

impl Entry {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.variant.name(),
            self.preset.name(),
            self.start,
            if self.deal.is_empty() {
                "-"
            } else {
                &self.deal
            },
            self.moves.join(" "),
            self.ending.text(),
            self.verdict
        )
    }

    fn read(line: &str) -> Entry {
        let fields: Vec<&str> = line.split('\t').collect();
        let [variant, preset, start, deal, moves, ending, verdict] = fields[..] else {
            panic!("a corpus line has seven fields: {line}");
        };
        Entry {
            variant: variant.parse().expect("variant"),
            preset: preset.parse().expect("preset"),
            start: start.to_owned(),
            deal: if deal == "-" {
                String::new()
            } else {
                deal.to_owned()
            },
            moves: moves.split_whitespace().map(str::to_owned).collect(),
            ending: Ending::read(ending),
            verdict: verdict.to_owned(),
        }
    }

    /// The verdict today's rules give this game.
    fn judge(&self) -> Result<String, String> {
        let rules = Rules::new(self.variant, self.preset);
        let mut game = if self.start == "start" {
            let deal =
                GameDeal::from_letters(self.variant, &self.deal).map_err(|e| e.to_string())?;
            Game::replay(rules, deal, &self.moves).map_err(|e| e.to_string())?
        } else {
            let mut game = Game::from_fen(rules, &self.start).map_err(|e| e.to_string())?;
            for text in &self.moves {
                game.play_text(text).map_err(|e| format!("{text}: {e}"))?;
            }
            game
        };
        self.ending.apply(&mut game);
        Ok(verdict_text(game.outcome()))
    }
}

fn corpus_path(revision: u32) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("verdicts-r{revision}.txt"))
}

fn corpus(revision: u32) -> Vec<Entry> {
    let path = corpus_path(revision);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "rules revision {revision} has no golden corpus at {} ({e}): after bumping \
             RULES_REVISION write one with `JIEQI_BLESS_VERDICTS=1 cargo test --release -p \
             jieqi-rules --test golden_verdicts`",
            path.display()
        )
    });
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(Entry::read)
        .collect()
}

/// Every game of `corpus` that today's rules judge otherwise, described.
fn mismatches(corpus: &[Entry]) -> Vec<String> {
    corpus
        .iter()
        .enumerate()
        .filter_map(|(i, entry)| match entry.judge() {
            Ok(verdict) if verdict == entry.verdict => None,
            judged => Some(format!(
                "game {} ({} {}): the corpus says {}, today's rules {:?}",
                i + 1,
                entry.variant.name(),
                entry.preset.name(),
                entry.verdict,
                judged
            )),
        })
        .collect()
}

#[test]
fn every_golden_verdict_holds_at_this_revision_and_a_judging_change_breaks_them() {
    if std::env::var_os("JIEQI_BLESS_VERDICTS").is_some() {
        bless();
    }
    let corpus = corpus(RULES_REVISION);
    let wrong = mismatches(&corpus);
    assert!(
        wrong.is_empty(),
        "a judging change needs a new RULES_REVISION (src/game/revision.rs) and its own \
         golden corpus:\n{}",
        wrong.join("\n")
    );
    // The check notices a change: the deliberately altered judgement (every no-progress
    // limit 20 plies shorter) judges some corpus games otherwise.
    alter_judging(true);
    let altered = mismatches(&corpus);
    alter_judging(false);
    assert!(
        altered.len() >= 5,
        "the altered judgement changed only {} verdicts",
        altered.len()
    );
}

#[test]
fn the_corpus_has_every_variant_preset_and_ending() {
    let corpus = corpus(RULES_REVISION);
    assert!(corpus.len() >= 200, "{} games", corpus.len());
    let combos: BTreeSet<(Variant, Preset)> =
        corpus.iter().map(|e| (e.variant, e.preset)).collect();
    assert_eq!(combos.len(), Variant::ALL.len() * Preset::ALL.len());
    let reasons: BTreeSet<&str> = corpus
        .iter()
        .map(|e| e.verdict.rsplit(':').next().unwrap_or(""))
        .collect();
    for reason in [
        "checkmate",
        "no-legal-move",
        "resignation",
        "timeout",
        "perpetual-check",
        "perpetual-chase",
        "agreement",
        "no-progress",
        "repetition",
        "aborted",
    ] {
        assert!(
            reasons.contains(reason),
            "no game ends by {reason}: {reasons:?}"
        );
    }
    for variant in Variant::ALL {
        assert!(
            corpus
                .iter()
                .any(|e| e.variant == variant && e.verdict == "draw:repetition"),
            "no {} game drawn by repetition",
            variant.name()
        );
    }
}

/// A small deterministic generator (the corpus must come out the same on every machine).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % u64::from(n.max(1))) as u32
    }
}

fn is_capture(game: &Game, mv: GameMove) -> bool {
    let mut after = game.clone();
    match after.play(mv).map(|p| p.record) {
        Ok(PlayedRecord::Board(r)) => r.captured.is_some(),
        Ok(PlayedRecord::Banqi(r)) => r.captured.is_some(),
        Err(_) => false,
    }
}

fn wins_at_once(game: &Game, mv: GameMove) -> bool {
    let mut after = game.clone();
    let mover = game.side_to_move();
    after.play(mv).is_ok() && after.outcome().and_then(Outcome::winner).is_some() && mover.is_some()
}

/// Plays `plies` moves at most, taking a win when there is one and a capture most of the time.
fn play_greedy(game: &mut Game, rng: &mut Lcg, plies: usize) {
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return;
        }
        let mv = if let Some(win) = moves.iter().copied().find(|&m| wins_at_once(game, m)) {
            win
        } else {
            let captures: Vec<GameMove> = moves
                .iter()
                .copied()
                .filter(|&m| is_capture(game, m))
                .collect();
            if !captures.is_empty() && rng.below(10) < 7 {
                captures[rng.below(captures.len() as u32) as usize]
            } else {
                moves[rng.below(moves.len() as u32) as usize]
            }
        };
        game.play(mv).expect("a legal move");
    }
}

/// Shuffles two pieces back and forth (each side one quiet move and its way back) until the
/// game ends or `plies` pass. Tries a few random pairs until one can go back and forth.
fn play_shuffle(game: &mut Game, rng: &mut Lcg, plies: usize) {
    for _ in 0..40 {
        let mut trial = game.clone();
        let Some(cycle) = shuffle_cycle(&mut trial, rng) else {
            continue;
        };
        for i in 0..plies {
            if trial.outcome().is_some() || trial.play(cycle[i % 4]).is_err() {
                break;
            }
        }
        *game = trial;
        return;
    }
}

/// Plays a quiet move, a quiet reply, and both back; the four moves, if they can be played.
fn shuffle_cycle(game: &mut Game, rng: &mut Lcg) -> Option<[GameMove; 4]> {
    let mut cycle = Vec::new();
    while cycle.len() < 4 {
        if game.outcome().is_some() {
            return None;
        }
        let moves = game.legal_moves();
        let pick = if cycle.len() < 2 {
            let quiet: Vec<GameMove> = moves
                .iter()
                .copied()
                .filter(|&m| reverse(m).is_some() && !is_capture(game, m))
                .collect();
            *quiet.get(rng.below(quiet.len() as u32) as usize)?
        } else {
            reverse(cycle[cycle.len() - 2]).filter(|m| moves.contains(m))?
        };
        game.play(pick).ok()?;
        cycle.push(pick);
    }
    cycle.try_into().ok()
}

fn reverse(mv: GameMove) -> Option<GameMove> {
    match mv {
        GameMove::Board(m) => Some(GameMove::Board(jieqi_rules::Move::new(m.to, m.from))),
        GameMove::Banqi(jieqi_rules::banqi::Action::Move { from, to }) => {
            Some(GameMove::Banqi(jieqi_rules::banqi::Action::Move {
                from: to,
                to: from,
            }))
        }
        GameMove::Banqi(_) => None,
    }
}

fn entry(game: &Game, preset: Preset, deal: &str, ending: Ending) -> Entry {
    let mut finished = game.clone();
    ending.apply(&mut finished);
    Entry {
        variant: game.variant(),
        preset,
        start: "start".to_owned(),
        deal: deal.to_owned(),
        moves: game.move_record_texts(),
        ending,
        verdict: verdict_text(finished.outcome()),
    }
}

/// Games started from a FEN whose cycle is judged by the repetition rules (see
/// `tests/repetition.rs`): the cycle is played until the game ends or a move is refused.
const CYCLES: &[(Variant, &str, &[&str], &[&str])] = &[
    (
        Variant::Xiangqi,
        "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1",
        &["a1a9"],
        &["e9e8", "a9a8", "e8e9", "a8a9"],
    ),
    (
        Variant::Xiangqi,
        "4k3r/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
        &[],
        &["a1a2", "i9i8", "a2a1", "i8i9"],
    ),
    (
        Variant::Xiangqi,
        "4k4/9/1r7/9/1PP6/9/9/2C6/9/5K3 w - - 0 1",
        &[],
        &["c2b2", "b7c7", "b2c2", "c7b7"],
    ),
    (
        Variant::Xiangqi,
        "3rk4/9/9/3r5/4H4/9/9/9/9/5K3 w - - 0 1",
        &[],
        &["e5c4", "d6d7", "c4e5", "d7d6"],
    ),
    (
        Variant::Xiangqi,
        "4k4/9/1c7/9/9/9/9/9/2R6/3K5 w - - 0 1",
        &[],
        &["c1b1", "b7c7", "b1c1", "c7b7"],
    ),
    (
        Variant::Jieqi,
        "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1",
        &["a1a9"],
        &["e9e8", "a9a8", "e8e9", "a8a9"],
    ),
    (
        Variant::Jieqi,
        "4k4/9/1r7/9/2P6/9/9/1XC6/9/3K5 w - - 0 1 P",
        &[],
        &["c5b5", "b7c7", "b5c5", "c7b7"],
    ),
    (
        Variant::Jieqi,
        "4k4/9/1r7/9/2P6/9/9/2C6/9/3K5 w - - 0 1",
        &[],
        &["c5b5", "b7c7", "b5c5", "c7b7"],
    ),
];

fn cycle_entry(
    variant: Variant,
    preset: Preset,
    fen: &str,
    opening: &[&str],
    cycle: &[&str],
) -> Entry {
    let mut game = Game::from_fen(Rules::new(variant, preset), fen).expect("fen");
    let mut played = Vec::new();
    for text in opening.iter().chain(cycle.iter().cycle().take(4 * 8)) {
        if game.outcome().is_some() || game.play_text(text).is_err() {
            break;
        }
        played.push((*text).to_owned());
    }
    let ending = match (game.outcome(), game.side_to_move()) {
        (None, Some(side)) => Ending::Resigned(side),
        _ => Ending::ByPlay,
    };
    ending.apply(&mut game);
    Entry {
        variant,
        preset,
        start: fen.to_owned(),
        deal: String::new(),
        moves: played,
        ending,
        verdict: verdict_text(game.outcome()),
    }
}

/// Black has a general and an advisor, Red a general and a chariot.
const BARE_FEN: &str = "3ak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
const BARE_OPENING: [&str; 3] = ["a0a1", "d9e8", "a1a2"];

fn timeout_entry(preset: Preset, moves: &[&str], loser: Side) -> Entry {
    let rules = Rules::new(Variant::Xiangqi, preset);
    let mut game = Game::from_fen(rules, BARE_FEN).expect("fen");
    for text in moves {
        game.play_text(text).expect("a legal move");
    }
    let ending = Ending::TimedOut(loser);
    ending.apply(&mut game);
    Entry {
        variant: Variant::Xiangqi,
        preset,
        start: BARE_FEN.to_owned(),
        deal: String::new(),
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        ending,
        verdict: verdict_text(game.outcome()),
    }
}

/// Writes the corpus of the current revision.
fn bless() {
    let mut entries = Vec::new();
    let mut rng = Lcg(0x6a71_0024);
    for variant in Variant::ALL {
        for preset in Preset::ALL {
            let rules = Rules::new(variant, preset);
            let fresh = |rng: &mut Lcg| {
                let deal = GameDeal::shuffled(variant, &mut |n| rng.below(n));
                let letters = deal.letters();
                (Game::new(rules.clone(), deal).expect("a new game"), letters)
            };
            // Played out: mates, no legal move, no progress, repetition as it comes.
            for _ in 0..10 {
                let (mut game, deal) = fresh(&mut rng);
                play_greedy(&mut game, &mut rng, 400);
                let ending = match (game.outcome(), game.side_to_move()) {
                    (None, Some(side)) => Ending::Resigned(side),
                    (None, None) => Ending::Aborted,
                    _ => Ending::ByPlay,
                };
                entries.push(entry(&game, preset, &deal, ending));
            }
            // Repetition: a few moves, then two pieces back and forth.
            for opening in [2, 6, 12] {
                let (mut game, deal) = fresh(&mut rng);
                play_greedy(&mut game, &mut rng, opening);
                play_shuffle(&mut game, &mut rng, 300);
                let ending = match (game.outcome(), game.side_to_move()) {
                    (None, Some(side)) => Ending::Agreed.or_resign(side, opening),
                    (None, None) => Ending::Aborted,
                    _ => Ending::ByPlay,
                };
                entries.push(entry(&game, preset, &deal, ending));
            }
            // Ended from outside: resignation, agreement, time-out (and one too early: an
            // abort), an abort.
            for (plies, ending) in [
                (9, Ending::Resigned(Side::Black)),
                (14, Ending::Agreed),
                (11, Ending::TimedOut(Side::Red)),
                (1, Ending::TimedOut(Side::Black)),
                (0, Ending::Aborted),
            ] {
                let (mut game, deal) = fresh(&mut rng);
                play_greedy(&mut game, &mut rng, plies);
                let ending = match ending {
                    Ending::Resigned(_) | Ending::TimedOut(_) if game.outcome().is_some() => {
                        Ending::ByPlay
                    }
                    Ending::Resigned(_) => {
                        Ending::Resigned(game.side_to_move().unwrap_or(Side::Red))
                    }
                    Ending::TimedOut(_) => {
                        Ending::TimedOut(game.side_to_move().unwrap_or(Side::Red))
                    }
                    other => other,
                };
                entries.push(entry(&game, preset, &deal, ending));
            }
        }
    }
    for preset in Preset::ALL {
        for (variant, fen, opening, cycle) in CYCLES {
            entries.push(cycle_entry(*variant, preset, fen, opening, cycle));
        }
    }
    // Time-outs with one side unable to mate (a general and an advisor against a chariot):
    // `pychess` draws the time-out against it, every other preset scores it a loss.
    for preset in Preset::ALL {
        for (plies, loser) in [(2, Side::Red), (3, Side::Black)] {
            entries.push(timeout_entry(preset, &BARE_OPENING[..plies], loser));
        }
    }
    let mut text = format!(
        "# Golden verdicts of rules revision {RULES_REVISION}: {} finished games. Written by\n\
         # `JIEQI_BLESS_VERDICTS=1 cargo test --release -p jieqi-rules --test golden_verdicts`;\n\
         # never edited by hand. Fields: variant, preset, start, deal, moves, ending, verdict.\n",
        entries.len()
    );
    for e in &entries {
        text.push_str(&e.line());
        text.push('\n');
    }
    let path = corpus_path(RULES_REVISION);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("the golden folder");
    std::fs::write(&path, text).expect("the corpus written");
}

impl Ending {
    /// A repetition game the rules did not end: agreed drawn or resigned, alternately.
    fn or_resign(self, side: Side, n: usize) -> Ending {
        if n % 4 == 2 {
            self
        } else {
            Ending::Resigned(side)
        }
    }
}
