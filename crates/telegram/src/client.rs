//! The connection to the Bot API shared by the receiving and the sending side: the teloxide
//! client, the pacing of posts per chat, the bot's own identity, and the people seen so far.

use std::collections::HashMap;
use std::sync::Mutex;

use teloxide::RequestError;
use teloxide::prelude::*;
use teloxide::types::{Me, User};
use tokio::sync::OnceCell;

use crate::config::TelegramConfig;
use crate::pacing::Pacer;
use crate::replies::HeldReplies;

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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}
