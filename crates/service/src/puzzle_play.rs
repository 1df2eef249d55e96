//! Puzzles as a chat sees them: opening one (the board from the solver's side and the task),
//! judging an answer, playing the opponent's reply, and ending it with the solution and the
//! rating changes.
//!
//! A chat holds at most one open puzzle ([`OpenPuzzle`] in its record): the puzzle's id and
//! the moves played, so the position is rebuilt by playing the line again (after a restart,
//! in another process). In a private chat the one who asked solves it alone; in a group the
//! chat solves it together: each right move moves the line on for everyone, the one who
//! plays its last move is credited with the solve, and a wrong answer fails only the one who
//! gave it (told to them alone where the platform allows) while the puzzle stays open.
//!
//! Hidden information: the picture and every text come from the solver's view and the moves
//! played; the deal under covered pieces is used only by [`Attempt`] to play the line out.

use jieqi_puzzles::{Answer as Verdict, Attempt, AttemptError, Puzzle, Task, Theme};
use jieqi_rules::{Game, Variant};

use crate::announce::{side_key, variant_key};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::i18n::Language;
use crate::ids::{ChatId, User, UserId};
use crate::message::{Destination, Image, Message, MessageKind};
use crate::pictures::puzzle_board;
use crate::puzzle_set::{puzzle_rater, schedule_chat, shipped};
use crate::ratings::{puzzle_start, puzzle_update};
use crate::settings::ChatSettings;
use crate::store::{ChatRecord, DailySlot, OpenPuzzle, PlayerRecord, PuzzleStats, UnixTime};

/// Puzzle ids a chat remembers having had, so its daily puzzle does not repeat for months.
const CHAT_REMEMBERS: usize = 200;

/// Seconds in a day, for the daily schedule (UTC).
const DAY: UnixTime = 24 * 60 * 60;

/// An open puzzle rebuilt: the attempt that judges the next answer, and the rules game along
/// the line for its picture and legal moves.
pub(crate) struct Solving {
    pub puzzle: &'static Puzzle,
    pub attempt: Attempt,
    pub game: Game,
}

/// The move as a player types it: a stored move without what it revealed (`b9c7c` -> `b9c7`,
/// Banqi `c3=R` -> `c3`).
fn typed(variant: Variant, stored: &str) -> &str {
    match variant {
        Variant::Banqi => stored.split('=').next().unwrap_or(stored),
        _ => stored.get(..4).unwrap_or(stored),
    }
}

/// Plays `line` again from the puzzle's start. `None` if the puzzle is no longer shipped or
/// the line no longer plays (a puzzle set changed under a stored line).
pub(crate) fn resume(id: &str, line: &[String]) -> Option<Solving> {
    let puzzle = shipped().get(id)?;
    let mut attempt = Attempt::new(puzzle).ok()?;
    let mut game = puzzle.game().ok()?;
    for (ply, stored) in line.iter().enumerate() {
        let text = typed(puzzle.variant, stored);
        if ply % 2 == 0 {
            match attempt.play(text) {
                Ok(Verdict::Continue { reply }) if line.get(ply + 1) == Some(&reply) => {}
                Ok(Verdict::Continue { .. } | Verdict::Solved | Verdict::Wrong) | Err(_) => {
                    return None;
                }
            }
        }
        game.play_text(text).ok()?;
    }
    Some(Solving {
        puzzle,
        attempt,
        game,
    })
}

/// The legal moves of the open puzzle of `chat`, as typed (for Discord's autocomplete).
pub(crate) fn legal_move_texts(chat: &ChatRecord) -> Vec<String> {
    chat.puzzles
        .open
        .as_ref()
        .and_then(|open| resume(&open.id, &open.line))
        .map(|solving| solving.game.legal_move_texts())
        .unwrap_or_default()
}

/// The task in `lang`: "Red to move: mate in 2".
fn task_text(ctx: &Ctx<'_>, lang: Language, task: Task) -> String {
    let side = ctx.say_in(lang, &Sentence::new(side_key(task.side)));
    let key = match task.theme {
        Theme::Mate => "puzzle-task-mate",
        Theme::Material => "puzzle-task-material",
        Theme::Reveal => "puzzle-task-reveal",
        Theme::Defence => "puzzle-task-defence",
    };
    ctx.say_in(
        lang,
        &Sentence::new(key)
            .arg("side", side)
            .arg("moves", u64::from(task.moves)),
    )
}

/// The board as the solver sees it now, from the solver's side.
fn picture(ctx: &Ctx<'_>, solving: &Solving, settings: &ChatSettings) -> Option<Image> {
    let plies = solving.game.ply();
    puzzle_board(
        &solving.game,
        solving.puzzle.side_to_move(),
        settings.style,
        ctx.inner.config.board_width,
        format!("puzzle-{}-{plies}.png", solving.puzzle.id),
    )
}

/// The whole solution, numbered by the solver's moves: "1. h2e2 e9e8 2. e2e8".
fn solution_text(puzzle: &Puzzle) -> String {
    puzzle
        .solution
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Picks a puzzle of `variant` near `rating` that `seen` does not hold (any puzzle of the
/// variant once all were seen).
pub(crate) fn pick(
    variant: Variant,
    rating: f64,
    seen: &[String],
    salt: u64,
) -> Option<&'static Puzzle> {
    let set = shipped();
    set.pick(variant, rating, |id| seen.iter().any(|s| s == id), salt)
        .or_else(|| set.pick(variant, rating, |_| false, salt))
}

/// Opens `puzzle` in `chat` (ending the one open there, unsolved): posts the board and task
/// to the chat and records the open puzzle. The chat record is saved by the caller's change.
pub(crate) async fn open(
    ctx: &mut Ctx<'_>,
    chat: &mut ChatRecord,
    puzzle: &'static Puzzle,
    opener: &UserId,
    daily: bool,
) -> Step {
    let lang = chat.settings.language;
    if let Some(old) = chat.puzzles.open.take()
        && let Some(old_puzzle) = shipped().get(&old.id)
    {
        let text = ctx.say_in(
            lang,
            &Sentence::new("puzzle-replaced")
                .arg("id", old.id.as_str())
                .arg("solution", solution_text(old_puzzle)),
        );
        let message = Message::text(
            Destination::Chat(chat.chat.clone()),
            MessageKind::Result,
            text,
        );
        ctx.post(message, None).await?;
    }
    let Some(solving) = resume(&puzzle.id, &[]) else {
        return refuse(Sentence::new("refuse-puzzle-unavailable"));
    };
    // An example of how to write a move here, never the answer itself.
    let answer = puzzle.solution.first().map(|m| typed(puzzle.variant, m));
    let example = solving
        .game
        .legal_move_texts()
        .into_iter()
        .find(|m| Some(m.as_str()) != answer)
        .unwrap_or_default();
    let text = ctx.say_in(
        lang,
        &Sentence::new(if daily {
            "puzzle-posted-daily"
        } else {
            "puzzle-posted"
        })
        .arg("id", puzzle.id.as_str())
        .arg(
            "variant",
            ctx.say_in(lang, &Sentence::new(variant_key(puzzle.variant))),
        )
        .arg("rating", u64::from(puzzle.rating))
        .arg("task", task_text(ctx, lang, puzzle.task()))
        .arg("example", example),
    );
    let text = if puzzle.variant == Variant::Xiangqi {
        text
    } else {
        format!(
            "{text}\n{}",
            ctx.say_in(lang, &Sentence::new("puzzle-covered"))
        )
    };
    let image = picture(ctx, &solving, &chat.settings);
    let message = Message::text(
        Destination::Chat(chat.chat.clone()),
        MessageKind::Board,
        text,
    )
    .with_image(image);
    ctx.post(message, None).await?;
    chat.puzzles.open = Some(OpenPuzzle {
        id: puzzle.id.clone(),
        line: Vec::new(),
        opened_by: opener.clone(),
        opened_at: ctx.now,
        failed: Vec::new(),
        daily,
    });
    chat.puzzles.ended = None;
    if !chat.puzzles.seen.contains(&puzzle.id) {
        chat.puzzles.seen.push(puzzle.id.clone());
        let extra = chat.puzzles.seen.len().saturating_sub(CHAT_REMEMBERS);
        chat.puzzles.seen.drain(..extra);
    }
    Ok(())
}

/// Rates one attempt: the solver against the puzzle (whose own rating learns too). Returns
/// the solver's new stats and the rating change.
async fn rate(
    ctx: &mut Ctx<'_>,
    mut player: PlayerRecord,
    puzzle: &Puzzle,
    solved: bool,
) -> Step<(PuzzleStats, f64)> {
    let rater_id = puzzle_rater(&puzzle.id);
    let mut rater = match ctx.player_record_by_id(&rater_id).await? {
        Some(rater) => rater,
        None => {
            let mut fresh = PlayerRecord::new(&User::new(rater_id, puzzle.id.as_str()));
            fresh.puzzle.rating = puzzle_start(puzzle.rating);
            fresh
        }
    };
    let before = player.puzzle.rating.rating;
    let (stats, learned) = puzzle_update(&player.puzzle, &rater.puzzle.rating, solved);
    player.puzzle = stats.clone();
    rater.puzzle.rating = learned;
    ctx.save_player(player);
    ctx.save_player(rater);
    let change = stats.rating.rating - before;
    Ok((stats, change))
}

fn rating_args(sentence: Sentence, stats: &PuzzleStats, change: f64) -> Sentence {
    sentence
        .arg("rating", format!("{:.0}", stats.rating.rating))
        .arg("change", format!("{change:+.0}"))
        .arg("streak", u64::from(stats.streak))
}

/// `/move` on the chat's open puzzle: judges `text` from `user`. The chat record is the one
/// the request holds; the caller has locked the chat.
pub(crate) async fn answer(
    ctx: &mut Ctx<'_>,
    mut chat: ChatRecord,
    user: &User,
    private_chat: bool,
    text: &str,
) -> Step {
    let Some(mut open) = chat.puzzles.open.clone() else {
        return refuse(Sentence::new("refuse-no-puzzle"));
    };
    if open.failed.contains(&user.id) {
        return refuse(Sentence::new("refuse-puzzle-failed-already").arg("id", open.id.as_str()));
    }
    let Some(mut solving) = resume(&open.id, &open.line) else {
        // The set no longer has it: close it so the chat can ask for another.
        chat.puzzles.open = None;
        ctx.save_chat(chat);
        return refuse(Sentence::new("refuse-puzzle-unavailable"));
    };
    let lang = chat.settings.language;
    // The text is echoed: cut short (input can be any length).
    let shown = crate::request::clean_text(text, 32);
    let verdict = match solving.attempt.play(text) {
        Ok(verdict) => verdict,
        Err(AttemptError::Over) => {
            return refuse(Sentence::new("refuse-puzzle-over").arg("id", open.id.as_str()));
        }
        Err(AttemptError::RevealTyped(bare)) => {
            return refuse(Sentence::new("refuse-puzzle-reveal-typed").arg("move", bare));
        }
        Err(AttemptError::NotAMove(reason)) => {
            let key = if solving.puzzle.variant == Variant::Banqi {
                "refuse-puzzle-not-a-move-banqi"
            } else {
                "refuse-puzzle-not-a-move"
            };
            return refuse(Sentence::new(key).arg("text", shown).arg("reason", reason));
        }
    };
    let puzzle = solving.puzzle;
    // The stored form of the move just accepted (none after a wrong one).
    let played = solving
        .attempt
        .played()
        .get(open.line.len())
        .cloned()
        .unwrap_or_default();
    let mut player = ctx.player_record(user).await?;
    player.name = user.name.clone();
    player.puzzle.saw(&puzzle.id);
    let chat_id = chat.chat.clone();
    match verdict {
        Verdict::Wrong => {
            // The move the stored line expected, when the line so far is the stored one.
            let on_line = open
                .line
                .iter()
                .zip(&puzzle.solution)
                .all(|(a, b)| typed(puzzle.variant, a) == typed(puzzle.variant, b));
            let expected = puzzle
                .solution
                .get(open.line.len())
                .filter(|_| on_line)
                .map(|m| typed(puzzle.variant, m).to_owned());
            let (stats, change) = rate(ctx, player, puzzle, false).await?;
            if private_chat {
                let sentence = match expected {
                    Some(expected) => Sentence::new("puzzle-failed").arg("expected", expected),
                    None => Sentence::new("puzzle-failed-off-line"),
                };
                let sentence = rating_args(
                    sentence
                        .arg("move", shown)
                        .arg("id", puzzle.id.as_str())
                        .arg("solution", solution_text(puzzle)),
                    &stats,
                    change,
                );
                let text = ctx.say_in(lang, &sentence);
                ctx.post(
                    Message::text(Destination::Chat(chat_id), MessageKind::Result, text),
                    None,
                )
                .await?;
                chat.puzzles.open = None;
                chat.puzzles.ended = Some(open.id);
            } else {
                // In a group the answer stays open for the others: the one who was wrong is
                // told alone (the expected move would give it away), and sees the solution
                // when the puzzle ends.
                let sentence = rating_args(
                    Sentence::new("puzzle-wrong-in-group")
                        .arg("move", shown)
                        .arg("id", puzzle.id.as_str()),
                    &stats,
                    change,
                );
                ctx.reply_text(MessageKind::Notice, true, &sentence);
                open.failed.push(user.id.clone());
                chat.puzzles.open = Some(open);
            }
        }
        Verdict::Continue { reply } => {
            for stored in [&played, &reply] {
                // The attempt played both under the real deal; the picture's game follows.
                if solving
                    .game
                    .play_text(typed(puzzle.variant, stored))
                    .is_err()
                {
                    return refuse(Sentence::new("refuse-puzzle-unavailable"));
                }
            }
            open.line.push(played.clone());
            open.line.push(reply.clone());
            ctx.save_player(player);
            let text = ctx.say_in(
                lang,
                &Sentence::new("puzzle-continue")
                    .arg("player", &user.name)
                    .arg("move", played)
                    .arg("reply", reply)
                    .arg(
                        "side",
                        ctx.say_in(lang, &Sentence::new(side_key(puzzle.side_to_move()))),
                    ),
            );
            let image = picture(ctx, &solving, &chat.settings);
            ctx.post(
                Message::text(Destination::Chat(chat_id), MessageKind::Board, text)
                    .with_image(image),
                None,
            )
            .await?;
            chat.puzzles.open = Some(open);
        }
        Verdict::Solved => {
            // The final board shows the last move; should it not play (it always does: the
            // attempt just played it), the board before it is still right to show.
            let _ = solving.game.play_text(typed(puzzle.variant, &played));
            let (stats, change) = rate(ctx, player, puzzle, true).await?;
            let sentence = rating_args(
                Sentence::new("puzzle-solved")
                    .arg("player", &user.name)
                    .arg("move", played)
                    .arg("id", puzzle.id.as_str())
                    .arg("solution", solution_text(puzzle)),
                &stats,
                change,
            );
            let text = ctx.say_in(lang, &sentence);
            let image = picture(ctx, &solving, &chat.settings);
            ctx.post(
                Message::text(Destination::Chat(chat_id), MessageKind::Result, text)
                    .with_image(image),
                None,
            )
            .await?;
            chat.puzzles.open = None;
            chat.puzzles.ended = Some(open.id);
        }
    }
    ctx.save_chat(chat);
    Ok(())
}

/// When a daily puzzle at `hour` (UTC) is next due after `now`.
pub(crate) fn next_daily(now: UnixTime, hour: u8) -> UnixTime {
    let today = now - now % DAY + UnixTime::from(hour) * 60 * 60;
    if today > now { today } else { today + DAY }
}

/// Sets `chat`'s daily puzzle to `hour` (or off): the chat's record and the schedule record.
pub(crate) async fn set_daily(ctx: &mut Ctx<'_>, chat: &mut ChatRecord, hour: Option<u8>) -> Step {
    let mut schedule = ctx.chat_record(&schedule_chat()).await?;
    schedule
        .puzzles
        .schedule
        .retain(|slot| slot.chat != chat.chat);
    if let Some(hour) = hour {
        schedule.puzzles.schedule.push(DailySlot {
            chat: chat.chat.clone(),
            next_at: next_daily(ctx.now, hour),
        });
    }
    chat.puzzles.daily_hour = hour;
    ctx.save_chat(schedule);
    Ok(())
}

/// The chats whose daily puzzle is due at `now`, from the schedule record.
pub(crate) fn due_daily(schedule: &ChatRecord, now: UnixTime) -> Vec<ChatId> {
    schedule
        .puzzles
        .schedule
        .iter()
        .filter(|slot| slot.next_at <= now)
        .map(|slot| slot.chat.clone())
        .collect()
}

/// Posts `chat`'s daily puzzle if it is still due (another process may have posted it
/// already: then the schedule says so and nothing happens), and moves its slot to the next
/// day. Called by the timer in a fresh context; the commit's revision check on the schedule
/// record makes it once per day whichever process gets there first.
pub(crate) async fn post_daily(ctx: &mut Ctx<'_>, chat_id: &ChatId) -> Step {
    ctx.lock_chat(chat_id).await;
    let mut schedule = ctx.chat_record(&schedule_chat()).await?;
    let Some(slot) = schedule
        .puzzles
        .schedule
        .iter_mut()
        .find(|slot| slot.chat == *chat_id)
    else {
        return Ok(());
    };
    if slot.next_at > ctx.now {
        return Ok(());
    }
    let mut chat = ctx.chat_record(chat_id).await?;
    let Some(hour) = chat.puzzles.daily_hour else {
        // Turned off since: drop the slot.
        schedule
            .puzzles
            .schedule
            .retain(|slot| slot.chat != *chat_id);
        ctx.save_chat(schedule);
        return Ok(());
    };
    slot.next_at = next_daily(ctx.now, hour);
    ctx.save_chat(schedule);
    let day = ctx.now / DAY;
    let Some(puzzle) = pick(
        Variant::Jieqi,
        DAILY_RATING,
        &chat.puzzles.seen,
        day.wrapping_mul(31).wrapping_add(ctx.now),
    ) else {
        return Ok(());
    };
    let opener = crate::puzzle_set::schedule_user();
    open(ctx, &mut chat, puzzle, &opener, true).await?;
    ctx.save_chat(chat);
    Ok(())
}

/// The rating a daily puzzle is picked near: a chat holds people of every strength, so the
/// middle of the scale.
const DAILY_RATING: f64 = 1500.0;
