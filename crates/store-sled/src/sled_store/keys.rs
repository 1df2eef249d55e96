//! The key of every record in the store's one tree: a prefix byte for the kind, then the
//! record's id (or a time, for the indexes kept in time order).

use super::*;

pub(super) const GAME: u8 = b'g';
pub(super) const CHALLENGE: u8 = b'c';
pub(super) const CHAT: u8 = b'h';
pub(super) const PLAYER: u8 = b'p';
pub(super) const ANSWER: u8 = b'r';
pub(super) const ANSWER_BY_TIME: u8 = b'R';
pub(super) const OUTBOX: u8 = b'o';
pub(super) const SENT: u8 = b's';
pub(super) const DEADLINE: u8 = b'd';
pub(super) const REVIEW: u8 = b'v';
pub(super) const QUEUED_REVIEW: u8 = b'q';
pub(super) const QUEUED_REVIEW_ORDER: u8 = b'Q';
pub(super) const LAUNCH: u8 = b'a';
pub(super) const TOURNAMENT: u8 = b't';
pub(super) const TOURNAMENT_BY_CHAT: u8 = b'T';

pub(super) fn key(prefix: u8, rest: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(rest.len() + 1);
    k.push(prefix);
    k.extend_from_slice(rest);
    k
}

pub(super) fn game_key(id: &GameId) -> Vec<u8> {
    key(GAME, id.as_str().as_bytes())
}

pub(super) fn challenge_key(id: &ChallengeId) -> Vec<u8> {
    key(CHALLENGE, id.as_str().as_bytes())
}

pub(super) fn chat_key(chat: &ChatId) -> Vec<u8> {
    key(CHAT, chat.to_string().as_bytes())
}

pub(super) fn player_key(user: &UserId) -> Vec<u8> {
    key(PLAYER, user.to_string().as_bytes())
}

pub(super) fn tournament_key(id: &TournamentId) -> Vec<u8> {
    key(TOURNAMENT, id.as_str().as_bytes())
}

/// The chat's index entry of a tournament: the chat, a zero byte, the creation time, the id
/// (so a chat's tournaments scan oldest first).
pub(super) fn tournament_chat_key(chat: &ChatId, at: UnixTime, id: &TournamentId) -> Vec<u8> {
    let mut k = tournament_chat_prefix(chat);
    k.extend_from_slice(&at.to_be_bytes());
    k.extend_from_slice(id.as_str().as_bytes());
    k
}

pub(super) fn tournament_chat_prefix(chat: &ChatId) -> Vec<u8> {
    let mut k = key(TOURNAMENT_BY_CHAT, chat.to_string().as_bytes());
    k.push(0);
    k
}

pub(super) fn review_key(game: &GameId) -> Vec<u8> {
    key(REVIEW, game.as_str().as_bytes())
}

pub(super) fn launch_key(instance: &ActivityInstanceId) -> Vec<u8> {
    key(LAUNCH, instance.as_str().as_bytes())
}

pub(super) fn queued_review_key(order: u64) -> Vec<u8> {
    key(QUEUED_REVIEW, &order.to_be_bytes())
}

/// The key of a queued review's order: the game id, a zero byte, the chat.
pub(super) fn queued_review_order_key(request: &ReviewRequest) -> Vec<u8> {
    let mut k = key(QUEUED_REVIEW_ORDER, request.game.as_str().as_bytes());
    k.push(0);
    k.extend_from_slice(request.chat.to_string().as_bytes());
    k
}

pub(super) fn outbox_key(id: OutboxId) -> Vec<u8> {
    key(OUTBOX, &id.0.to_be_bytes())
}

pub(super) fn sent_key(id: OutboxId) -> Vec<u8> {
    key(SENT, &id.0.to_be_bytes())
}

pub(super) fn answer_time_key(at: UnixTime, request: &RequestKey) -> Vec<u8> {
    let mut k = key(ANSWER_BY_TIME, &at.to_be_bytes());
    k.extend_from_slice(request.0.as_bytes());
    k
}

pub(super) fn deadline_key(kind: u8, at: UnixTime, id: &str) -> Vec<u8> {
    let mut k = vec![DEADLINE, kind];
    k.extend_from_slice(&at.to_be_bytes());
    k.extend_from_slice(id.as_bytes());
    k
}
