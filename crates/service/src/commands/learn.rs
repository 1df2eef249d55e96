//! `/learn [number | list | restart | stop]`: the rules course. Each step is a task on a
//! board picture, answered with `/move` (see `move.rs`: a game of the caller's in the chat
//! comes first, then their open lesson). A person's place (lesson, step, moves played in the
//! step) is kept on their player record and changed in the request's one transaction, so it
//! survives restarts and a repeated update is answered once; the course crate rebuilds the
//! position from it.

use jieqi_course::{COURSE, Place, StepState, Verdict};

use crate::context::{Ctx, Halt, Sentence, Step, refuse};
use crate::message::MessageKind;
use crate::pictures::lesson_picture;
use crate::settings::Orientation;
use crate::store::{CourseProgress, ImageRecipe, PlayerRecord};

/// A player record's place in the course in the course crate's own terms (the store's
/// record knows nothing of the course).
pub(crate) trait CoursePlace {
    /// The course's own form of the place.
    fn place(&self) -> Place;
    /// Moves to `place`, keeping whether it is open.
    fn go_to(&mut self, place: &Place);
}

impl CoursePlace for CourseProgress {
    fn place(&self) -> Place {
        Place {
            lesson: usize::try_from(self.lesson).unwrap_or(usize::MAX),
            step: usize::try_from(self.step).unwrap_or(usize::MAX),
            moves: self.moves.clone(),
        }
    }

    fn go_to(&mut self, place: &Place) {
        self.lesson = u32::try_from(place.lesson).unwrap_or(u32::MAX);
        self.step = u32::try_from(place.step).unwrap_or(u32::MAX);
        self.moves = place.moves.clone();
    }
}

#[derive(Debug)]
pub(crate) struct Learn {
    action: Action,
}

#[derive(Debug, PartialEq, Eq)]
enum Action {
    /// Start, or go on where they left off.
    Resume,
    /// Open the lesson of this index.
    Lesson(usize),
    /// Start again from the first lesson.
    Restart,
    /// The lessons, with where they are.
    List,
    /// Pause: `/move` goes back to games only.
    Stop,
}

impl Learn {
    pub(crate) fn parse(args: &[&str]) -> Result<Learn, Sentence> {
        let action = match args {
            [] => Action::Resume,
            [word] => match word.to_lowercase().as_str() {
                "restart" | "reset" => Action::Restart,
                "list" | "lessons" => Action::List,
                "stop" | "pause" => Action::Stop,
                number => match number.parse::<usize>() {
                    Ok(n) if (1..=COURSE.len()).contains(&n) => Action::Lesson(n - 1),
                    Ok(_) => {
                        return Err(Sentence::new("refuse-learn-no-such-lesson")
                            .arg("number", super::shown(word))
                            .arg("total", COURSE.len()));
                    }
                    Err(_) => return Err(usage()),
                },
            },
            _ => return Err(usage()),
        };
        Ok(Learn { action })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let user = ctx.user()?;
        let mut player = ctx.player_record(user).await?;
        let course = &mut player.course;
        let intro = match self.action {
            Action::List => {
                let lessons = lesson_list(ctx, course);
                ctx.reply_text(
                    MessageKind::Guide,
                    false,
                    &Sentence::new("learn-list").arg("lessons", lessons),
                );
                return Ok(());
            }
            Action::Stop => {
                let key = if course.started {
                    "learn-stopped"
                } else {
                    "learn-not-started"
                };
                if course.open {
                    course.open = false;
                    ctx.save_player(player);
                }
                ctx.reply_text(MessageKind::Notice, false, &Sentence::new(key));
                return Ok(());
            }
            Action::Resume if course.started && course.place().is_finished() => {
                ctx.reply_text(
                    MessageKind::Guide,
                    false,
                    &Sentence::new("learn-finished-already"),
                );
                return Ok(());
            }
            Action::Resume if course.started => Some("learn-resume"),
            Action::Resume | Action::Restart => {
                course.go_to(&Place::lesson_start(0));
                Some("learn-welcome")
            }
            Action::Lesson(index) => {
                course.go_to(&Place::lesson_start(index));
                None
            }
        };
        course.open = true;
        course.started = true;
        let state = rebuild_or_restart(course)?;
        let mut text = String::new();
        if let Some(key) = intro {
            text = ctx.say(&Sentence::new(key)) + "\n\n";
        }
        show_step(ctx, &player, &state, text);
        ctx.save_player(player);
        Ok(())
    }
}

fn usage() -> Sentence {
    Sentence::new("refuse-learn-usage").arg("total", COURSE.len())
}

/// Whether `/move` should go to the caller's lesson (when they have no game to play here).
pub(crate) async fn is_open(ctx: &Ctx<'_>) -> Step<bool> {
    let user = ctx.user()?;
    Ok(ctx.player_record(user).await?.course.open)
}

/// Judges a move typed for the caller's open lesson: the explanation and the next task, a
/// hint, or why the move cannot be played.
pub(crate) async fn answer(ctx: &mut Ctx<'_>, text: &str) -> Step {
    let user = ctx.user()?;
    let mut player = ctx.player_record(user).await?;
    let state = rebuild_or_restart(&mut player.course)?;
    let (mv, next) = match state.judge(text) {
        Verdict::NotLegal(error) => {
            return refuse(super::r#move::explain(&error, text, state.lesson.variant));
        }
        Verdict::Wrong { hint } => {
            let hint = ctx.say(&Sentence::new(hint));
            return refuse(Sentence::new("learn-wrong").arg("hint", hint));
        }
        Verdict::Correct { mv, next, .. } => (mv, next),
    };
    // The explanation, over the board as the move left it.
    let mut moves = state.place.moves.clone();
    moves.push(mv.to_string());
    let explanation = ctx.say(&Sentence::new(state.turn.explanation));
    let explanation = ctx.say(&Sentence::new("learn-correct").arg("explanation", explanation));
    reply_with_board(ctx, &player, &state, moves, explanation);

    player.course.go_to(&next);
    if next.is_finished() {
        player.course.open = false;
        ctx.reply_text(MessageKind::Guide, false, &Sentence::new("learn-finished"));
    } else {
        let next_state = rebuild_or_restart(&mut player.course)?;
        let mut text = String::new();
        if next.lesson != state.place.lesson {
            text = ctx
                .say(&Sentence::new("learn-next-lesson").arg("number", state.place.lesson + 1))
                + "\n\n";
        }
        show_step(ctx, &player, &next_state, text);
    }
    ctx.save_player(player);
    Ok(())
}

/// The step `course` points at, rebuilt. A place that no longer fits the course (it changed
/// since the place was stored) starts that lesson again, or the course if the lesson is gone.
fn rebuild_or_restart(course: &mut CourseProgress) -> Step<StepState> {
    let place = course.place();
    if let Ok(state) = place.rebuild() {
        return Ok(state);
    }
    tracing::warn!(?place, "a stored course place no longer fits the course");
    let lesson = if place.lesson < COURSE.len() {
        place.lesson
    } else {
        0
    };
    course.go_to(&Place::lesson_start(lesson));
    course.place().rebuild().map_err(|e| {
        tracing::error!(error = %e, "a lesson cannot be set up");
        Halt::Refuse(Sentence::new("error-internal"))
    })
}

/// Replies with the step's heading and task over its board.
fn show_step(ctx: &mut Ctx<'_>, player: &PlayerRecord, state: &StepState, mut text: String) {
    let lesson = state.lesson;
    let title = ctx.say(&Sentence::new(lesson.title));
    text += &ctx.say(
        &Sentence::new("learn-heading")
            .arg("number", state.place.lesson + 1)
            .arg("total", COURSE.len())
            .arg("title", title)
            .arg("step", state.place.step + 1)
            .arg("steps", lesson.steps.len()),
    );
    text.push('\n');
    text += &ctx.say(&Sentence::new(state.turn.task));
    reply_with_board(ctx, player, state, state.place.moves.clone(), text);
}

/// Replies with `text` over the step's board after `moves`, drawn as the learner's own
/// pictures are (their style and orientation choices, else the chat's style and their side).
fn reply_with_board(
    ctx: &mut Ctx<'_>,
    player: &PlayerRecord,
    state: &StepState,
    moves: Vec<String>,
    text: String,
) {
    let personal = player.personal;
    let style = personal.style.unwrap_or(ctx.settings().style);
    let orientation = personal
        .orientation
        .unwrap_or(Orientation::of(state.step.learner));
    let width = ctx.inner.config.board_width;
    let image = lesson_picture(
        state.place.lesson,
        state.place.step,
        &moves,
        orientation,
        style,
        width,
    );
    let recipe = ImageRecipe::Lesson {
        lesson: u32::try_from(state.place.lesson).unwrap_or(u32::MAX),
        step: u32::try_from(state.place.step).unwrap_or(u32::MAX),
        moves,
        orientation,
        style,
        width,
    };
    ctx.guide_with_picture(text, image, recipe);
}

/// "✓ 1. title" lines: done, where they are, still to come.
fn lesson_list(ctx: &Ctx<'_>, course: &CourseProgress) -> String {
    let here = course.place().lesson;
    COURSE
        .iter()
        .enumerate()
        .map(|(i, lesson)| {
            let mark = if !course.started || i > here {
                "  "
            } else if i < here {
                "✓"
            } else {
                "▶"
            };
            format!(
                "{mark} {}. {}",
                i + 1,
                ctx.say(&Sentence::new(lesson.title))
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_numbers_are_counted_from_one_and_checked() {
        assert_eq!(Learn::parse(&[]).unwrap().action, Action::Resume);
        assert_eq!(Learn::parse(&["1"]).unwrap().action, Action::Lesson(0));
        let last = COURSE.len().to_string();
        assert_eq!(
            Learn::parse(&[last.as_str()]).unwrap().action,
            Action::Lesson(COURSE.len() - 1)
        );
        assert_eq!(
            Learn::parse(&["0"]).unwrap_err().key,
            "refuse-learn-no-such-lesson"
        );
        assert_eq!(
            Learn::parse(&["99999999999999999999999"]).unwrap_err().key,
            "refuse-learn-usage"
        );
        assert_eq!(Learn::parse(&["RESTART"]).unwrap().action, Action::Restart);
        assert_eq!(
            Learn::parse(&["a", "b"]).unwrap_err().key,
            "refuse-learn-usage"
        );
    }
}
