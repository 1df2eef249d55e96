//! One update, start to finish: read it, let the service decide, deliver the replies. Both
//! ways of receiving (polling, webhook) call this and confirm an update to Telegram only after
//! it returns, so a crash makes Telegram deliver it again, and the service's idempotency key
//! check makes the second delivery change nothing.
//!
//! Two things the adapter adds around the service, because only it can try Telegram:
//! - A challenger in a group is checked at once for whether the bot may write to them
//!   privately (the accepter is, by the Accept button's deep link); if not, they are told how
//!   to fix it before the game starts, not after its first private message is lost.
//! - `/peek` in a group: the service's "I sent your view" is held back until the private
//!   message it speaks of has really been delivered (see [`Held`]).

use std::sync::Arc;

use jieqi_service::i18n::Translations;
use jieqi_service::{
    Answer, Destination, Input, Language, Message, MessageKind, SendError, Service, User,
};
use teloxide::prelude::*;
use teloxide::types::{ChatAction, MaybeInaccessibleMessage, Update, UpdateKind};

use crate::address::Address;
use crate::held::Held;
use crate::inbound::{Inbound, Origin, Reading, read_update};
use crate::outbound::{Failure, Poster};
use crate::replies;

/// Handles updates for the service.
#[derive(Debug, Clone)]
pub(crate) struct Handler {
    pub poster: Poster,
    pub service: Service,
    /// For the few words the adapter says itself (about buttons that are not ours).
    pub translations: Arc<Translations>,
}

impl Handler {
    pub(crate) async fn handle(&self, update: &Update) {
        let client = &self.poster.client;
        let me = match client.me().await {
            Ok(me) => me,
            Err(error) => {
                // Unreachable in practice: `receive` learns who the bot is before the first update.
                tracing::error!(%error, "cannot tell which commands are mine; update skipped");
                return;
            }
        };
        // Stamped by the service's clock, the one the process times everything by (the
        // system's in production; a scripted one in tests, which moves arenas' ends and
        // start times as it moves the requests).
        let now = self.service.config().wall_clock.now();
        match read_update(update, me, &client.people, now) {
            Reading::Request(mut inbound) => {
                self.check_admin(&mut inbound).await;
                let origin = inbound.origin.clone();
                let user = inbound.request.user.clone();
                let in_group = !inbound.request.is_private_chat;
                let command = match &inbound.request.input {
                    Input::Text(line) => line.split_whitespace().next().map(str::to_owned),
                    // Telegram never sends a board's tap as an update (the page does).
                    Input::Button(_) | Input::BoardMove { .. } => None,
                };
                tracing::debug!(update = update.id.0, chat = %inbound.request.chat, "request");
                let mut answer = self.service.handle(inbound.request).await;
                let Origin::Command { address, message } = origin else {
                    replies::deliver(&self.poster, &origin, answer).await;
                    return;
                };
                match command.as_deref() {
                    Some("/peek") if in_group => self.hold_peek_notice(&user, &origin, &mut answer),
                    Some("/challenge") if in_group && !refused(&answer) => {
                        replies::deliver(&self.poster, &origin, answer).await;
                        self.check_private_chat(&user, address, message).await;
                        return;
                    }
                    _ => {}
                }
                replies::deliver(&self.poster, &origin, answer).await;
            }
            Reading::ForeignButton { query, language } => {
                let language = language.unwrap_or(self.service.config().default_language);
                let text = self.translations.text(language, "button-not-ours", &[]);
                replies::answer_button(&self.poster, &query, &text, true).await;
            }
            Reading::Ignore => {}
        }
    }
}

/// True for the commands only a group's admins may give: a `/settings` change,
/// `/puzzle daily <hour|off>` (showing either is for everyone), and creating, starting or
/// calling off a `/tournament`.
fn needs_admin(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let command = words
        .next()
        .map(|head| head.split('@').next().unwrap_or(head));
    match command {
        Some("/settings") => words.next().is_some(),
        Some("/puzzle") => {
            words
                .next()
                .is_some_and(|word| word.eq_ignore_ascii_case("daily"))
                && words.next().is_some()
        }
        // Creating a tournament is for admins unless the chat's settings let everyone (the
        // service decides, so it must know whether the creator is one); starting and calling
        // one off are for its organiser or an admin.
        Some("/tournament") => words.next().is_some_and(|word| {
            [
                "swiss",
                "round-robin",
                "roundrobin",
                "rr",
                "arena",
                "start",
                "cancel",
            ]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
        }),
        _ => false,
    }
}

fn refused(answer: &Answer) -> bool {
    answer
        .replies
        .iter()
        .any(|m| m.kind == MessageKind::Refusal)
}

impl Handler {
    /// Asks Telegram whether the sender administers the group, for the requests that need it
    /// (a `/settings` change, setting the daily puzzle); asking for every `/move` would cost
    /// a call each.
    async fn check_admin(&self, inbound: &mut Inbound) {
        let request = &inbound.request;
        let needs_admin = match &request.input {
            Input::Text(line) => needs_admin(line),
            Input::Button(_) | Input::BoardMove { .. } => false,
        };
        if request.is_private_chat || !needs_admin {
            return;
        }
        let (Origin::Command { address, .. }, Ok(user)) =
            (&inbound.origin, request.user.id.id.parse::<u64>())
        else {
            return;
        };
        let client = &self.poster.client;
        inbound.request.is_admin = client
            .admins
            .is_admin(&client.bot, address.chat, teloxide::types::UserId(user))
            .await;
    }

    /// Takes the "I sent your view" notices out of `answer` until the view is delivered.
    fn hold_peek_notice(&self, user: &User, origin: &Origin, answer: &mut Answer) {
        let Origin::Command { address, message } = origin else {
            return;
        };
        let (notices, rest): (Vec<Message>, Vec<Message>) = std::mem::take(&mut answer.replies)
            .into_iter()
            .partition(|m| {
                m.kind == MessageKind::Notice
                    && matches!(m.to, Destination::ReplyToRequester { .. })
            });
        answer.replies = rest;
        if !notices.is_empty() {
            self.poster.client.held.hold(
                &user.id,
                Held {
                    address: *address,
                    reply_to: *message,
                    messages: notices,
                },
            );
        }
    }

    /// Tries whether the bot may write to `user` privately (a chat action, which shows no
    /// message); if Telegram refuses, tells them in the group how to fix it.
    async fn check_private_chat(
        &self,
        user: &User,
        group: Address,
        command: teloxide::types::MessageId,
    ) {
        let Ok(private) = Address::private(&user.id) else {
            return;
        };
        let client = &self.poster.client;
        let tried = client
            .bot
            .send_chat_action(private.chat, ChatAction::Typing)
            .await;
        let Err(error) = tried else {
            return;
        };
        if !matches!(
            Failure::from(error),
            Failure::Send(SendError::Undeliverable(_))
        ) {
            return;
        }
        let language = user
            .language
            .as_deref()
            .and_then(Language::from_tag)
            .unwrap_or(self.service.config().default_language);
        let bot = client.username().unwrap_or("the bot").to_owned();
        let fix = self.translations.text(
            language,
            "unreachable-fix-telegram",
            &[("bot", bot.as_str().into())],
        );
        let text = self.translations.text(
            language,
            "unreachable-player",
            &[
                ("player", user.name.as_str().into()),
                ("fix", fix.as_str().into()),
            ],
        );
        let notice = Message::text(
            Destination::ReplyToRequester { ephemeral: false },
            MessageKind::Notice,
            text,
        )
        .with_mentions(vec![user.id.clone()]);
        replies::send_with_retries(&self.poster, group, &notice, Some(command)).await;
    }
}

/// The chat an update belongs to: updates of one chat are handled in order.
pub(crate) fn chat_of(update: &Update) -> i64 {
    match &update.kind {
        UpdateKind::Message(message) | UpdateKind::EditedMessage(message) => message.chat.id.0,
        UpdateKind::CallbackQuery(query) => match &query.message {
            Some(MaybeInaccessibleMessage::Regular(message)) => message.chat.id.0,
            Some(MaybeInaccessibleMessage::Inaccessible(message)) => message.chat.id.0,
            None => query.from.id.0.try_into().unwrap_or(i64::MAX),
        },
        _ => 0,
    }
}

#[cfg(test)]
mod admin_tests {
    use super::needs_admin;

    #[test]
    fn settings_changes_and_the_daily_puzzle_ask_for_admins_and_nothing_else_does() {
        for line in [
            "/settings language vi",
            "/settings@jieqi_bot style symbols",
            "/puzzle daily 18",
            "/puzzle@jieqi_bot DAILY off",
            "/tournament swiss 5 rounds 3+2",
            "/tournament arena 60 3+2",
            "/tournament start",
            "/tournament@jieqi_bot Cancel",
        ] {
            assert!(needs_admin(line), "{line}");
        }
        for line in [
            "/settings",
            "/puzzle",
            "/puzzle daily",
            "/puzzle banqi",
            "/tournament",
            "/tournament join",
            "/tournament standings",
            "/move h2e2",
            "",
        ] {
            assert!(!needs_admin(line), "{line}");
        }
    }
}
