//! The service's side of the bot's Discord Activity (the board inside Discord, `jieqi-web`'s
//! `/activity`; its "Play in Discord" button is `lifecycle::launch_button`): the pass a signed-in
//! Discord user holds in the Activity, the games it lists, the game an Activity instance was
//! launched on, and the challenges it sends.
//!
//! Who the person is was settled before anything here runs: the web crate exchanged the
//! Embedded App SDK's OAuth2 code with Discord (through the Discord adapter) and read the
//! user. From then on the person holds an [`ActivityPass`] (their Discord id and name, the
//! channel and Activity instance Discord showed them in, an expiry; signed under `WEB_SECRET`
//! exactly as a personal link is, but for no one game) and,
//! for each game they play, the personal link's own token ([`Service::personal_link`]). A
//! Discord user is the same [`UserId`] as in slash commands, so their games and ratings are
//! the same.

use std::time::{Duration, SystemTime};

use crate::context::unix;
use crate::error::ServiceError;
use crate::ids::{ActivityInstanceId, ChatId, GameId, IdempotencyKey, Platform, User, UserId};
use crate::message::{Destination, MessageKind};
use crate::personal_link::{TokenError, fields};
use crate::request::{Input, Request};
use crate::service::Service;
use crate::store::{LaunchRecord, UnixTime};

/// How long an Activity pass lets its holder list games and challenge: an hour. The page
/// signs in again (Discord answers at once for a user who allowed the app) when it lapses.
pub const ACTIVITY_PASS_LIFETIME: Duration = Duration::from_secs(60 * 60);
/// The longest pass read.
const PASS_LONGEST: usize = 512;
/// What a pass's payload starts with: never a personal link's (`1\n…`), so one is never
/// read as the other.
/// `activity3`: the pass names the channel and the Activity instance it was granted for
/// (`activity1` passes named neither, `activity2` no instance; both are refused).
const PASS_TAG: &str = "activity3";
/// How many finished games of a channel the Activity lists.
const RECENT_FINISHED: usize = 5;
/// The longest key the Activity may give a challenge.
const KEY_LONGEST: usize = 64;

/// Who holds an Activity pass, until when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivityPass {
    /// The Discord user, as slash commands name them.
    pub user: User,
    /// The one channel it lists and challenges in: the channel of the Activity instance
    /// Discord reported the user in at sign-in.
    pub channel: ChatId,
    /// That Activity instance: the game it was launched on is opened for its holder.
    pub instance: ActivityInstanceId,
    /// Unix seconds after which it is refused.
    pub expires: u64,
}

/// The game an Activity instance was launched on (its "Play in Discord" button), and when: a
/// later launch into the same instance is another one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launched {
    /// The game.
    pub game: GameId,
    /// When it was launched (Unix seconds).
    pub at: UnixTime,
}

/// The games the Activity shows in a channel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActivityGames {
    /// The person's games in progress, anywhere on Discord.
    pub mine: Vec<GameId>,
    /// The channel's games in progress (the person's among them).
    pub running: Vec<GameId>,
    /// The channel's recently finished games, newest first.
    pub finished: Vec<GameId>,
}

/// Whom a challenge from the Activity goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Someone in the channel, by their Discord id and the name Discord shows.
    Person(User),
    /// The engine, at its default level.
    Bot,
}

/// What a challenge from the Activity came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActivityAnswer {
    /// Sent (or the engine's game begun), with what the chat said to the challenger.
    Done(Vec<String>),
    /// Refused, with the chat's reason.
    Refused(String),
}

impl ActivityPass {
    /// A pass for `user` in Activity instance `instance` of `channel` from `now` (Unix
    /// seconds).
    pub fn new(
        user: User,
        channel: ChatId,
        instance: ActivityInstanceId,
        now: u64,
    ) -> ActivityPass {
        ActivityPass {
            user,
            channel,
            instance,
            expires: now.saturating_add(ACTIVITY_PASS_LIFETIME.as_secs()),
        }
    }

    fn payload(&self) -> String {
        format!(
            "{PASS_TAG}\n{}\n{}\n{}\n{}\n{}",
            self.user.id.id, self.channel.id, self.instance, self.expires, self.user.name
        )
    }

    fn read(payload: &str) -> Result<ActivityPass, TokenError> {
        let Some([PASS_TAG, id, channel, instance, expires, name]) = fields::<6>(payload) else {
            return Err(TokenError::Malformed);
        };
        Ok(ActivityPass {
            user: User::new(UserId::new(Platform::Discord, id), name),
            channel: ChatId::new(Platform::Discord, channel),
            instance: instance.parse().map_err(|_| TokenError::Malformed)?,
            expires: expires.parse().map_err(|_| TokenError::Malformed)?,
        })
    }
}

impl Service {
    /// The signed pass of `user` (a Discord user who signed in to the Activity, whom Discord
    /// reported in Activity instance `instance` in `channel`): `None` when personal links are
    /// off (`WEB_SECRET`).
    pub fn activity_pass(
        &self,
        user: &User,
        channel: &ChatId,
        instance: &ActivityInstanceId,
    ) -> Option<String> {
        self.activity_pass_issued_at(user, channel, instance, unix(SystemTime::now()))
    }

    /// [`Service::activity_pass`] as if issued at `now` (Unix seconds): tests make a lapsed
    /// one with it.
    pub fn activity_pass_issued_at(
        &self,
        user: &User,
        channel: &ChatId,
        instance: &ActivityInstanceId,
        now: u64,
    ) -> Option<String> {
        let secret = self.inner.config.web_secret.as_ref()?;
        let pass = ActivityPass::new(user.clone(), channel.clone(), instance.clone(), now);
        Some(secret.sign(&pass.payload()))
    }

    /// Reads and checks an Activity pass: its signature (in constant time), then its expiry.
    pub fn read_activity_pass(&self, pass: &str) -> Result<ActivityPass, TokenError> {
        let secret = self
            .inner
            .config
            .web_secret
            .as_ref()
            .ok_or(TokenError::Forged)?;
        let pass = ActivityPass::read(&secret.open(pass, PASS_LONGEST)?)?;
        if unix(SystemTime::now()) > pass.expires {
            return Err(TokenError::Expired);
        }
        Ok(pass)
    }

    /// Remembers, for every process, that the "Play in Discord" button of `game`, pressed in
    /// `chat`, launched Discord's Activity instance `instance` (Discord named it in its answer
    /// to the press): whoever opens that instance is shown the game. Only a game of that
    /// channel is remembered (a button of another channel's game launches nothing of it);
    /// returns whether it was.
    pub async fn record_launch(
        &self,
        instance: &ActivityInstanceId,
        game: &GameId,
        chat: &ChatId,
    ) -> Result<bool, ServiceError> {
        let store = &self.inner.store;
        if chat.platform != Platform::Discord
            || store.game(game).await?.is_none_or(|g| g.chat != *chat)
        {
            return Ok(false);
        }
        let launch = LaunchRecord {
            game: game.clone(),
            chat: chat.clone(),
            at: unix(SystemTime::now()),
        };
        store.record_launch(instance, &launch).await?;
        Ok(true)
    }

    /// The game Activity instance `instance` (which Discord showed in `channel`) was launched
    /// on: none when it was launched otherwise (the entry point command), not yet remembered,
    /// or launched on a game of another channel.
    pub async fn launched(
        &self,
        instance: &ActivityInstanceId,
        channel: &ChatId,
    ) -> Result<Option<Launched>, ServiceError> {
        Ok(self
            .inner
            .store
            .launch(instance)
            .await?
            .filter(|launch| launch.chat == *channel)
            .map(|launch| Launched {
                game: launch.game,
                at: launch.at,
            }))
    }

    /// The games the Activity lists for `person` in `channel` (a Discord channel).
    pub async fn activity_games(
        &self,
        channel: &ChatId,
        person: &UserId,
    ) -> Result<ActivityGames, ServiceError> {
        let store = &self.inner.store;
        let chat = store.chat(channel).await?;
        let player = store.player(person).await?;
        let mine = player.map(|p| p.games).unwrap_or_default();
        let (running, finished) = chat
            .map(|c| {
                let finished = c.finished.iter().rev().take(RECENT_FINISHED).cloned();
                (c.games, finished.collect())
            })
            .unwrap_or_default();
        Ok(ActivityGames {
            mine,
            running,
            finished,
        })
    }

    /// `who` challenges `opponent` in `channel` from the Activity: the chat's own `/challenge`
    /// (or `/play bot`), with its refusals, its post with Accept and Decline in the channel,
    /// and its idempotency (the page's `key`: the same key again changes nothing).
    pub async fn activity_challenge(
        &self,
        channel: &ChatId,
        who: &User,
        opponent: &Opponent,
        variant: jieqi_rules::Variant,
        key: &str,
    ) -> Result<ActivityAnswer, &'static str> {
        if key.is_empty()
            || key.len() > KEY_LONGEST
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err("a challenge's key is 1 to 64 letters, digits, - and _");
        }
        if channel.platform != Platform::Discord || who.id.platform != Platform::Discord {
            return Err("the Activity challenges on Discord only");
        }
        let variant = match variant {
            jieqi_rules::Variant::Jieqi => "jieqi",
            jieqi_rules::Variant::Xiangqi => "xiangqi",
            jieqi_rules::Variant::Banqi => "banqi",
        };
        let (text, mentioned) = match opponent {
            Opponent::Person(user) => (format!("/challenge {variant}"), vec![user.clone()]),
            Opponent::Bot => ("/play bot".to_owned(), Vec::new()),
        };
        let request = Request {
            key: IdempotencyKey(format!("activity:{}:{key}", who.id)),
            chat: channel.clone(),
            is_private_chat: false,
            is_admin: false,
            user: who.clone(),
            mentioned,
            input: Input::Text(text),
            received_at: SystemTime::now(),
        };
        let answer = self.handle(request).await;
        let mut said = Vec::new();
        for reply in answer.replies {
            if !matches!(reply.to, Destination::ReplyToRequester { .. }) {
                continue;
            }
            if reply.kind == MessageKind::Refusal {
                return Ok(ActivityAnswer::Refused(reply.text));
            }
            said.push(reply.text);
        }
        Ok(ActivityAnswer::Done(said))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServiceConfig;
    use crate::personal_link::WebSecret;

    fn service(secret: u8) -> (Service, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("a folder");
        let service = Service::open(ServiceConfig {
            data_dir: dir.path().to_path_buf(),
            web_secret: WebSecret::new(vec![secret; 32]),
            ..ServiceConfig::default()
        })
        .expect("a service");
        (service, dir)
    }

    fn here() -> ChatId {
        ChatId::new(Platform::Discord, "444444")
    }

    fn instance() -> ActivityInstanceId {
        "i-1-gc-1-444444".parse().expect("an instance id")
    }

    fn carol() -> User {
        User::new(
            UserId::new(Platform::Discord, "333333"),
            "carol\nthe second",
        )
    }

    #[test]
    fn a_pass_reads_back_as_its_discord_user() {
        let (service, _dir) = service(1);
        let pass = service
            .activity_pass(&carol(), &here(), &instance())
            .expect("passes are on");
        let read = service.read_activity_pass(&pass).expect("valid");
        assert_eq!(read.user, carol());
        assert_eq!(read.channel, here());
        assert_eq!(read.instance, instance());
        assert!(read.expires > unix(SystemTime::now()));
    }

    #[test]
    fn a_pass_of_another_secret_or_tampered_is_refused() {
        let (ours, _a) = service(1);
        let (theirs, _b) = service(2);
        let pass = theirs
            .activity_pass(&carol(), &here(), &instance())
            .expect("passes are on");
        assert_eq!(ours.read_activity_pass(&pass), Err(TokenError::Forged));
        let (payload, tag) = pass.split_once('.').expect("two parts");
        use base64::Engine;
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let other = URL_SAFE_NO_PAD.encode(
            String::from_utf8(URL_SAFE_NO_PAD.decode(payload).expect("base64"))
                .expect("text")
                .replace("333333", "111111"),
        );
        assert_eq!(
            theirs.read_activity_pass(&format!("{other}.{tag}")),
            Err(TokenError::Forged)
        );
        for garbage in ["", ".", "a.b", &"x".repeat(600)] {
            assert!(ours.read_activity_pass(garbage).is_err(), "{garbage}");
        }
    }

    #[test]
    fn a_lapsed_pass_is_refused() {
        let (service, _dir) = service(1);
        let hour_and_more = ACTIVITY_PASS_LIFETIME.as_secs() + 2;
        let pass = service
            .activity_pass_issued_at(
                &carol(),
                &here(),
                &instance(),
                unix(SystemTime::now()) - hour_and_more,
            )
            .expect("passes are on");
        assert_eq!(service.read_activity_pass(&pass), Err(TokenError::Expired));
    }

    #[test]
    fn a_personal_link_is_not_a_pass() {
        let (service, _dir) = service(1);
        let link = service
            .personal_link(&"g7k2".parse().expect("id"), &carol().id)
            .unwrap_or_default();
        // No public URL: no link at all; sign one by hand instead.
        assert!(link.is_empty());
        let token = crate::personal_link::PersonalToken::new(
            "g7k2".parse().expect("id"),
            carol().id,
            unix(SystemTime::now()),
        )
        .sign(&WebSecret::new(vec![1; 32]).expect("long enough"));
        assert_eq!(
            service.read_activity_pass(&token),
            Err(TokenError::Malformed)
        );
    }
}
