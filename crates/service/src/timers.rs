//! Timers: players reminded to move when a tenth of their time is left, players who run out
//! of time, challenges nobody takes, tournaments whose start time came, and chats' daily
//! puzzles; and the work left by a
//! process that stopped (the engine's moves, queued reviews) is picked up. Deadlines are stored
//! with the games and challenges, so they keep working across restarts and across several
//! processes; [`Service::tick`] settles whatever is due, each in its own transaction.

use std::time::SystemTime;

use crate::announce::{clock_text, time_left_text};
use crate::context::{Ctx, Halt, LoadedGame, Sentence, Step, unix};
use crate::ids::{ChallengeId, ChatId, GameId};
use crate::lifecycle::{apply_ending, finish_game, is_engine_seat};
use crate::message::{Destination, Message, MessageKind};
use crate::puzzle_play::{due_daily, post_daily};
use crate::puzzle_set::schedule_chat;
use crate::service::Service;
use crate::store::{Due, Ending, Seat, StoreError, UnixTime};

/// How long request answers and delivered-message references are kept.
const KEEP_ANSWERS: u64 = 3 * 24 * 60 * 60;

impl Service {
    /// Runs the timers due at `now`: players who ran out of time lose (a game abandoned in its
    /// first two plies is aborted), challenges expire, the engine resumes thinking where it is
    /// to move. Deadlines are stored, so this works
    /// across restarts; call it every few seconds.
    pub async fn tick(&self, at: SystemTime) {
        let now = unix(at);
        // A game waiting for the engine (one that failed to move, say) is picked up again.
        self.resume_engines().await;
        // So are reviews queued and not posted: after a restart, those of a process that
        // died, those another process was computing when it stopped.
        self.start_reviews();
        // Bounded, so a deadline that cannot be settled never keeps a tick running.
        for _ in 0..64 {
            let due = match self.inner.store.due(now, 64).await {
                Ok(due) => due,
                Err(error) => {
                    tracing::error!(%error, "cannot read deadlines");
                    return;
                }
            };
            let count = due.len();
            for item in due {
                let result = self.run_timer(at, &item).await;
                if let Err(error) = result {
                    tracing::error!(%error, ?item, "a timer failed");
                    return;
                }
            }
            if count < 64 {
                break;
            }
        }
        // Live games due soon whose flag timer this process has not armed (it started
        // after their last move, or missed the news of it): armed now, so they are judged
        // at their deadline rather than at a later tick.
        self.arm_upcoming_flags(at, crate::flag_timers::LOOK_AHEAD)
            .await;
        self.post_daily_puzzles(now).await;
        if let Err(error) = self
            .inner
            .store
            .prune(now.saturating_sub(KEEP_ANSWERS))
            .await
        {
            tracing::warn!(%error, "cannot prune old answers");
        }
        if let Err(error) = self.inner.store.reclaim().await {
            tracing::warn!(%error, "cannot compact the store");
        }
    }

    /// Posts the daily puzzles that are due, each chat in its own transaction.
    async fn post_daily_puzzles(&self, now: UnixTime) {
        let schedule = match self.inner.store.chat(&schedule_chat()).await {
            Ok(Some(schedule)) => schedule,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "cannot read the daily-puzzle schedule");
                return;
            }
        };
        for chat in due_daily(&schedule, now) {
            if let Err(error) = self.run_daily(now, &chat).await {
                tracing::error!(%error, %chat, "a daily puzzle failed");
                return;
            }
        }
    }

    async fn run_daily(&self, now: UnixTime, chat: &ChatId) -> Result<(), StoreError> {
        self.commit_unattended(now, |ctx| {
            let chat = chat.clone();
            Box::pin(async move { post_daily(ctx, &chat).await })
        })
        .await
        .map(drop)
    }

    async fn run_timer(&self, at: SystemTime, due: &Due) -> Result<(), StoreError> {
        self.commit_unattended_at(at, |ctx| match due {
            Due::Game(id) => Box::pin(time_out(ctx, id.clone())),
            Due::Challenge(id) => Box::pin(expire(ctx, id.clone())),
            Due::Tournament(id) => {
                Box::pin(crate::tournament_start::start_when_due(ctx, id.clone()))
            }
        })
        .await
        .map(drop)
    }
}

/// A game whose player to move is out of time.
pub(crate) async fn time_out(ctx: &mut Ctx<'_>, id: GameId) -> Step {
    ctx.lock_game(&id).await;
    let Some(mut loaded) = ctx.load_game(&id).await? else {
        return Err(Halt::Refuse(Sentence::new("error-internal")));
    };
    if loaded.record.is_active() && loaded.record.clock.is_some() {
        // A live game: its clock judges, to the millisecond on the shared clock; the
        // deadline index only brought the game here (the tick, the flag timer's net).
        return match crate::live_clock::flagged(ctx, &loaded.record) {
            Some(seat) => crate::live_clock::end_on_time(ctx, loaded, seat).await,
            None => Ok(()),
        };
    }
    let expired = loaded.record.deadline.is_some_and(|d| d <= ctx.now);
    if !loaded.record.is_active() || !expired {
        // Stale index entry: rewrite the record so its deadline entry is corrected.
        if !loaded.record.is_active() && loaded.record.deadline.is_some() {
            loaded.record.deadline = None;
            ctx.save_game(loaded.record);
        }
        return Ok(());
    }
    let seat = crate::announce::our_seat(loaded.game.seat_to_move());
    if let Some(times_out) = loaded.record.prompts.times_out_at
        && times_out > ctx.now
    {
        return remind(ctx, loaded, seat, times_out).await;
    }
    loaded.record.ending = Some(Ending::TimedOut(seat));
    apply_ending(&loaded.record, &mut loaded.game);
    finish_game(ctx, loaded).await
}

/// A tenth of the mover's time is left: mention them in the game's chat, once per move.
async fn remind(
    ctx: &mut Ctx<'_>,
    mut loaded: LoadedGame,
    seat: Seat,
    times_out: UnixTime,
) -> Step {
    loaded.record.deadline = Some(times_out);
    loaded.record.prompts.times_out_at = None;
    if !is_engine_seat(&loaded.record, seat) {
        let chat = loaded.record.chat.clone();
        let lang = ctx.chat_record(&chat).await?.settings.language;
        let player = loaded.record.player(seat).clone();
        let text = ctx.say_in(
            lang,
            &Sentence::new("reminder-to-move")
                .arg("player", &player.name)
                .arg("game", loaded.record.id.as_str())
                .arg(
                    "left",
                    time_left_text(ctx, lang, times_out.saturating_sub(ctx.now)),
                )
                .arg("time", clock_text(times_out)),
        );
        let message = Message::text(Destination::Chat(chat), MessageKind::Notice, text)
            .about(&loaded.record.id)
            .with_mentions(vec![player.id.clone()]);
        ctx.post(message, None).await?;
    }
    ctx.save_loaded(loaded);
    Ok(())
}

/// A challenge nobody took in time.
async fn expire(ctx: &mut Ctx<'_>, id: ChallengeId) -> Step {
    let Some(found) = ctx.challenge_record(&id).await? else {
        return Ok(());
    };
    ctx.lock_chat(&found.chat).await;
    let Some(challenge) = ctx.challenge_record(&id).await? else {
        return Ok(());
    };
    if challenge.expires_at > ctx.now {
        return Ok(());
    }
    let mut chat = ctx.chat_record(&challenge.chat).await?;
    chat.challenges.retain(|c| *c != id);
    ctx.save_chat(chat);
    ctx.remove_challenge(&challenge);
    crate::commands::close_challenge_post(
        ctx,
        &challenge,
        "challenge-expired",
        &challenge.challenger.name,
        None,
    )
    .await
}
