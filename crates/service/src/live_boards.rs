//! A live game's boards in a group: at most one per [`ServiceConfig::live_board_interval`]
//! (20 s by default), each naming every move since the one before, so that a blitz game
//! moving every few seconds does not flood the chat (its players, and whoever watches
//! closely, have the web board). The game's first board and its end are never held.
//!
//! How, with nothing the store does not already do:
//! - A chat's messages about a game are a delivery lane of their own (`Lane::of_message`):
//!   a board of one game waiting for its time holds back nothing else of the chat.
//! - A live game's board after a move is queued *held*: its `not_before` is the next
//!   instant of the game's grid (its start, then every interval), so its lane waits until
//!   then and the boards queued meanwhile go out with it.
//! - A move made while its chat's board is still held stands in for that board at once,
//!   in the move's own commit: the held board is done with, unsent, and the new one names
//!   its moves and keeps its time. So at most one held board waits per game and chat, and it
//!   is the game's latest board post (`GameRecord::posts`), which is how it is found again.
//! - Anything else about the game queued for that chat (its result, a draw offer, a repost)
//!   hastens the held board in its own commit ([`release_held`]): the board goes out at once,
//!   then the message behind it, in order.
//!
//! A crash loses nothing and posts nothing twice: each of those steps is one commit, and a
//! held board is a pending outbox entry like any other, delivered by whichever process
//! claims its lane once it is due. Private messages (a capture's reveal) are other lanes and
//! never held; games on a time per move, a private chat with a player, and chats that edit
//! one board (`BoardMode::Edited`, which adds no posts) get every board at once, as before.

use crate::context::{Ctx, Step, unix_millis};
use crate::ids::{ChatId, GameId};
use crate::message::{Destination, OutboxId};
use crate::settings::{BoardMode, ChatSettings};
use crate::store::{Change, GameRecord, GameStore, OutboxRecord, StoreError, UnixMillis};

/// A held board is stood in for by a newer one only while it is due more than this far
/// ahead: a board about to come due may be claimed by a process whose clock runs a little
/// ahead, and must then not be done with under it.
const STAND_IN_MARGIN_MS: u64 = 1_000;

/// When a live game's new board for one chat goes out, and the held board it stands in for.
#[derive(Debug)]
pub(crate) struct Hold {
    /// Its lane waits until then (milliseconds, the delivery's clock).
    pub until: UnixMillis,
    /// The chat's held board it stands in for (done with, unsent, in the same change), and
    /// the moves that one named, oldest first.
    pub stands_in_for: Option<(OutboxId, Vec<String>)>,
}

/// True for a board waiting for its time (and not for a failed round's retry): a held
/// board of a live game, due after `now`.
pub(crate) fn is_held(record: &OutboxRecord, now: UnixMillis) -> bool {
    record.covers.is_some() && record.attempts == 0 && record.not_before > now
}

/// The hold of the board after a move of `record` (a live game) in `chat`, or `None` to post
/// it at once: a game on a time per move, a chat that edits one board, a player's private
/// chat with the bot (they may be playing there), or no interval configured.
pub(crate) async fn hold_for(
    ctx: &Ctx<'_>,
    record: &GameRecord,
    chat: &ChatId,
    settings: &ChatSettings,
) -> Step<Option<Hold>> {
    let interval =
        u64::try_from(ctx.inner.config.live_board_interval.as_millis()).unwrap_or(u64::MAX);
    let private = [&record.first, &record.second]
        .iter()
        .any(|player| player.id.platform == chat.platform && player.id.id == chat.id);
    if record.clock.is_none() || interval == 0 || settings.board != BoardMode::PerMove || private {
        return Ok(None);
    }
    let now = unix_millis(ctx.inner.config.wall_clock.now());
    let grid = Grid {
        start: record.started_at.saturating_mul(1000),
        interval,
    };
    let previous = match record.posts.iter().find(|p| p.chat == *chat) {
        Some(post) => ctx
            .inner
            .store
            .outbox_record(post.post)
            .await?
            .map(|pending| (post.post, pending)),
        None => None,
    };
    Ok(Some(match previous {
        Some((id, pending)) if is_held(&pending, now.saturating_add(STAND_IN_MARGIN_MS)) => Hold {
            until: pending.not_before,
            stands_in_for: Some((id, pending.covers.map(|c| c.moves).unwrap_or_default())),
        },
        // Still waiting, about to go: this board comes one interval after it.
        Some((_, pending)) if pending.covers.is_some() => Hold {
            until: grid.after(now.max(pending.not_before)),
            stands_in_for: None,
        },
        _ => Hold {
            until: grid.after(now),
            stands_in_for: None,
        },
    }))
}

/// A live game's instants for boards: its start, then every interval.
struct Grid {
    start: UnixMillis,
    interval: u64,
}

impl Grid {
    /// The first instant of the grid strictly after `at`.
    fn after(&self, at: UnixMillis) -> UnixMillis {
        let since = at.saturating_sub(self.start);
        let steps = since / self.interval.max(1) + 1;
        self.start
            .saturating_add(steps.saturating_mul(self.interval))
    }
}

/// Hastens, in `change`, each live game's held board that a message of `change` about the
/// same game, for the same chat, must not wait behind (its result, a draw offer, a
/// repost): the board goes out at once and the message after it. Called on every commit.
pub(crate) async fn release_held(
    store: &dyn GameStore,
    change: &mut Change,
    now: UnixMillis,
) -> Result<(), StoreError> {
    let mut behind: Vec<(GameId, ChatId)> = Vec::new();
    for (_, record) in &change.outbox {
        let (Destination::Chat(chat), Some(game)) = (&record.message.to, &record.message.game)
        else {
            continue;
        };
        if is_held(record, now) || behind.iter().any(|(g, c)| g == game && c == chat) {
            continue;
        }
        // A game this change writes without a clock has no held boards: nothing to read.
        if change
            .games
            .iter()
            .any(|g| g.id == *game && g.clock.is_none())
        {
            continue;
        }
        behind.push((game.clone(), chat.clone()));
    }
    for (game, chat) in behind {
        // The game as stored before this change: its latest board post there, which this
        // change may have replaced by a newer one.
        let Some(stored) = store.game(&game).await? else {
            continue;
        };
        if stored.clock.is_none() {
            continue;
        }
        let Some(post) = stored.posts.iter().find(|p| p.chat == chat) else {
            continue;
        };
        if change.sent.iter().any(|(id, _)| *id == post.post)
            || change.hastened.contains(&post.post)
        {
            continue;
        }
        if let Some(record) = store.outbox_record(post.post).await?
            && is_held(&record, now)
        {
            change.hastened.push(post.post);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Grid;

    #[test]
    fn a_boards_time_is_the_games_next_grid_instant_after_now() {
        let grid = Grid {
            start: 10_000,
            interval: 20_000,
        };
        assert_eq!(grid.after(10_000), 30_000, "never now: the next one");
        assert_eq!(grid.after(12_500), 30_000);
        assert_eq!(grid.after(29_999), 30_000);
        assert_eq!(grid.after(30_000), 50_000);
        assert_eq!(grid.after(5_000), 30_000, "a clock behind the start");
    }
}
