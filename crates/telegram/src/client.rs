//! The connection to the Bot API shared by the receiving and the sending side: the teloxide
//! client, the pacing of posts per chat, the bot's own identity, and the people seen so far.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use teloxide::RequestError;
use teloxide::prelude::*;
use teloxide::types::{Me, User};
use tokio::sync::OnceCell;

use crate::config::TelegramConfig;
use crate::held::HeldReplies;
use crate::pacing::Pacer;

/// What both halves of the adapter share.
pub(crate) struct Client {
    /// The plain teloxide client: no adaptor that could hold every chat back. Each post first
    /// waits on `pacer` for its own chat.
    pub bot: Bot,
    pub pacer: Pacer,
    me: OnceCell<Me>,
    pub people: People,
    /// Replies waiting for a private message to be delivered.
    pub held: HeldReplies,
    /// Who administers which group, as Telegram said a moment ago.
    pub admins: Admins,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("api_url", &self.bot.api_url().as_str())
            .field("me", &self.me.get().and_then(|me| me.user.username.clone()))
            .finish_non_exhaustive()
    }
}

impl Client {
    pub(crate) fn new(config: &TelegramConfig) -> Client {
        let mut bot = Bot::new(config.token.clone());
        if let Some(url) = &config.api_url {
            bot = bot.set_api_url(url.clone());
        }
        // Retries (and Telegram's retry_after) are the caller's business: the delivery loop
        // for the outbox, a few quick tries for replies.
        Client {
            bot,
            pacer: Pacer::new(config.limits),
            me: OnceCell::new(),
            people: People::default(),
            held: HeldReplies::default(),
            admins: Admins::default(),
        }
    }

    /// The bot's own account (`getMe`, asked once).
    pub(crate) async fn me(&self) -> Result<&Me, RequestError> {
        self.me
            .get_or_try_init(|| async { self.bot.get_me().await })
            .await
    }

    /// The bot's username if it is known already.
    pub(crate) fn username(&self) -> Option<&str> {
        self.me.get().and_then(|me| me.user.username.as_deref())
    }
}

/// The people the bot has seen in updates, so that a `@username` typed in a command can be
/// resolved (the Bot API cannot look usernames up) and a display name in a message can be
/// turned into a ping. Kept in memory: after a restart people are learnt again as they write.
#[derive(Debug, Default)]
pub(crate) struct People {
    by_id: Mutex<HashMap<UserId, User>>,
}

/// Beyond this many people the oldest knowledge is dropped wholesale (cheap, and a forgotten
/// person only loses pings until they write again).
const PEOPLE_LIMIT: usize = 50_000;

impl People {
    pub(crate) fn saw(&self, user: &User) {
        if user.is_bot {
            return;
        }
        let mut by_id = lock(&self.by_id);
        if by_id.len() >= PEOPLE_LIMIT && !by_id.contains_key(&user.id) {
            by_id.clear();
        }
        by_id.insert(user.id, user.clone());
    }

    pub(crate) fn by_username(&self, username: &str) -> Option<User> {
        let wanted = username.trim_start_matches('@');
        lock(&self.by_id)
            .values()
            .find(|u| {
                u.username
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(wanted))
            })
            .cloned()
    }

    pub(crate) fn by_id(&self, id: UserId) -> Option<User> {
        lock(&self.by_id).get(&id).cloned()
    }
}

/// Whether people administer groups (owner or administrator), asked with getChatMember and
/// remembered briefly: long enough that a burst of `/settings` costs one call, short enough
/// that a promotion or demotion counts within a minute.
#[derive(Debug, Default)]
pub(crate) struct Admins {
    seen: Mutex<HashMap<(ChatId, UserId), (bool, Instant)>>,
}

/// How long an answer of getChatMember is trusted.
const ADMIN_TTL: Duration = Duration::from_secs(60);
/// Beyond this many answers the remembered ones are dropped wholesale.
const ADMINS_LIMIT: usize = 10_000;

impl Admins {
    /// Whether `user` administers `chat`. If Telegram cannot say, they are not taken for an
    /// admin (and nothing is remembered, so the next try asks again).
    pub(crate) async fn is_admin(&self, bot: &Bot, chat: ChatId, user: UserId) -> bool {
        if let Some(admin) = self.remembered(chat, user, Instant::now()) {
            return admin;
        }
        let admin = match bot.get_chat_member(chat, user).await {
            Ok(member) => member.is_privileged(),
            Err(error) => {
                tracing::warn!(%error, chat = chat.0, "cannot tell whether a member administers the group");
                return false;
            }
        };
        self.remember(chat, user, admin, Instant::now());
        admin
    }

    fn remembered(&self, chat: ChatId, user: UserId, now: Instant) -> Option<bool> {
        lock(&self.seen)
            .get(&(chat, user))
            .filter(|(_, at)| now.saturating_duration_since(*at) < ADMIN_TTL)
            .map(|(admin, _)| *admin)
    }

    fn remember(&self, chat: ChatId, user: UserId, admin: bool, now: Instant) {
        let mut seen = lock(&self.seen);
        if seen.len() >= ADMINS_LIMIT {
            seen.clear();
        }
        seen.insert((chat, user), (admin, now));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admin_answers_are_trusted_for_a_minute() {
        let admins = Admins::default();
        let (chat, user) = (ChatId(-100), UserId(7));
        let then = Instant::now();
        assert_eq!(admins.remembered(chat, user, then), None);
        admins.remember(chat, user, true, then);
        assert_eq!(
            admins.remembered(chat, user, then + Duration::from_secs(59)),
            Some(true)
        );
        assert_eq!(admins.remembered(chat, UserId(8), then), None);
        assert_eq!(admins.remembered(chat, user, then + ADMIN_TTL), None);
    }
}
