//! Signing a Discord user in to the bot's Activity: the Embedded App SDK's `authorize` gives
//! the page a one-time code, and the page hands it to the bot. Here the bot exchanges the code
//! at Discord's OAuth2 token endpoint with the application's client secret
//! (`DISCORD_CLIENT_SECRET`, which never leaves the server), then reads the user with the
//! access token (`GET /users/@me`).
//!
//! Both calls go through the adapter's REST client ([`Rest::execute`]): its timeout, its
//! rate limits (a route used up is not called again until it resets) and its reading of
//! Discord's errors. Discord itself refuses a code that is forged, used before, expired, or
//! issued for another application (`invalid_grant`), and a token that expired; each is a
//! [`SignInError::Refused`], which the web page answers with 401.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use tokio::sync::OnceCell;

use jieqi_service::ids::ActivityInstanceId;

use crate::error::CallError;
use crate::rest::Rest;

/// The longest code sent on to Discord: Discord's are about 30 letters and digits.
const CODE_LONGEST: usize = 128;

/// The application's OAuth2 client secret (`DISCORD_CLIENT_SECRET`). Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientSecret(String);

impl ClientSecret {
    /// The secret as the Developer Portal shows it; `None` when empty.
    pub fn new(secret: impl Into<String>) -> Option<ClientSecret> {
        let secret: String = secret.into();
        let secret = secret.trim();
        (!secret.is_empty()).then(|| ClientSecret(secret.to_owned()))
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ClientSecret(…)")
    }
}

/// A Discord user who signed in, as `/users/@me` names them.
#[derive(Clone, PartialEq, Eq)]
pub struct DiscordAccount {
    /// Their id: the same as in slash commands.
    pub id: u64,
    /// The name Discord shows: the display name, else the user name.
    pub name: String,
    /// The access token, which the page hands to the SDK's `authenticate`. Never printed.
    pub access_token: String,
    /// How long the access token is valid.
    pub expires_in: Duration,
}

impl fmt::Debug for DiscordAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordAccount")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("access_token", &"<secret>")
            .field("expires_in", &self.expires_in)
            .finish()
    }
}

/// Why a sign-in failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignInError {
    /// Not a code in shape (empty, too long, odd characters): Discord is not asked.
    #[error("that is not an authorization code")]
    NotACode,
    /// Discord refused the code or the token (forged, used before, expired, for another
    /// application), or the token lacks the `identify` scope.
    #[error("Discord refused the sign-in: {0}")]
    Refused(String),
    /// The route's rate limit is used up for this long.
    #[error("Discord asks to wait {0:?} before signing in again")]
    Limited(Duration),
    /// Discord could not be reached or answered with a failure of its own (5xx, a timeout,
    /// an answer we cannot read): trying again later may work.
    #[error("Discord could not be asked: {0}")]
    Unavailable(String),
}

impl SignInError {
    fn from_call(error: CallError) -> SignInError {
        match error {
            CallError::Limited(wait) => SignInError::Limited(wait),
            CallError::Refused {
                retry_after: Some(wait),
                ..
            } => SignInError::Limited(wait),
            CallError::Refused {
                status, message, ..
            } if (400..500).contains(&status) => {
                SignInError::Refused(format!("{status}: {message}"))
            }
            other => SignInError::Unavailable(other.to_string()),
        }
    }
}

/// Discord's answer to the token exchange.
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    token_type: String,
    expires_in: u64,
    #[serde(default)]
    scope: String,
}

/// `/users/@me`'s answer, the fields read.
#[derive(Deserialize)]
struct Me {
    id: String,
    username: String,
    #[serde(default)]
    global_name: Option<String>,
}

/// `/applications/@me`'s answer, the field read.
#[derive(Deserialize)]
struct Application {
    id: String,
}

/// An Activity instance as Discord reports it (`GET /applications/{id}/activity-instances/
/// {instance}`): whose it is, where it runs and who is in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivityInstance {
    /// The application it is an instance of.
    pub application_id: u64,
    /// The channel it runs in (`None` for a location that names none).
    pub channel_id: Option<u64>,
    /// The users in it now.
    pub users: Vec<u64>,
}

/// Why an Activity instance does not let a user into a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotAdmitted {
    #[error("the Activity instance is another application's")]
    OtherApplication,
    #[error("the Activity instance runs in another channel")]
    OtherChannel,
    #[error("the user is not in the Activity instance")]
    NotInIt,
}

impl ActivityInstance {
    /// Whether this instance shows `user` in `channel` in application `application`'s
    /// Activity: only then may the user list and challenge in that channel.
    pub fn admits(&self, application: u64, user: u64, channel: u64) -> Result<(), NotAdmitted> {
        if self.application_id != application {
            return Err(NotAdmitted::OtherApplication);
        }
        if self.channel_id != Some(channel) {
            return Err(NotAdmitted::OtherChannel);
        }
        if !self.users.contains(&user) {
            return Err(NotAdmitted::NotInIt);
        }
        Ok(())
    }
}

/// Discord's answer about an Activity instance, the fields read.
#[derive(Deserialize)]
struct InstanceAnswer {
    application_id: String,
    location: InstanceLocation,
    users: Vec<String>,
}

#[derive(Deserialize)]
struct InstanceLocation {
    #[serde(default)]
    channel_id: Option<String>,
}

/// The Activity's sign-in, through the adapter's REST client. Cheap to clone.
#[derive(Clone)]
pub struct DiscordOAuth {
    rest: Arc<Rest>,
    secret: ClientSecret,
    /// The application's id (its OAuth2 client id), asked of Discord once.
    client_id: Arc<OnceCell<u64>>,
}

impl fmt::Debug for DiscordOAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordOAuth")
            .field("client_id", &self.client_id.get())
            .finish_non_exhaustive()
    }
}

fn json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, SignInError> {
    serde_json::from_slice(body)
        .map_err(|e| SignInError::Unavailable(format!("cannot read Discord's answer: {e}")))
}

impl DiscordOAuth {
    pub(crate) fn new(rest: Arc<Rest>, secret: ClientSecret) -> DiscordOAuth {
        DiscordOAuth {
            rest,
            secret,
            client_id: Arc::new(OnceCell::new()),
        }
    }

    /// The application's id, which the page gives the SDK: asked of Discord
    /// (`GET /applications/@me` with the bot's token) the first time, then kept.
    pub async fn client_id(&self) -> Result<u64, SignInError> {
        self.client_id
            .get_or_try_init(|| async {
                let url = format!("{}/api/v10/applications/@me", self.rest.api_base());
                let request = self
                    .rest
                    .client()
                    .get(url)
                    .header("authorization", self.rest.http().token())
                    .build()
                    .map_err(|e| SignInError::Unavailable(e.to_string()))?;
                let body = self
                    .rest
                    .execute("GET /applications/@me".to_owned(), request)
                    .await
                    .map_err(SignInError::from_call)?;
                let application: Application = json(&body)?;
                application.id.parse().map_err(|_| {
                    SignInError::Unavailable("an application id that is not one".into())
                })
            })
            .await
            .copied()
    }

    /// Asks Discord (with the bot's token) about Activity instance `instance` of this
    /// application: [`SignInError::Refused`] when Discord knows no such instance of ours.
    /// The id is typed ([`ActivityInstanceId`]): nothing else goes into the address asked.
    pub async fn activity_instance(
        &self,
        instance: &ActivityInstanceId,
    ) -> Result<ActivityInstance, SignInError> {
        let application = self.client_id().await?;
        let url = format!(
            "{}/api/v10/applications/{application}/activity-instances/{instance}",
            self.rest.api_base()
        );
        let request = self
            .rest
            .client()
            .get(url)
            .header("authorization", self.rest.http().token())
            .build()
            .map_err(|e| SignInError::Unavailable(e.to_string()))?;
        let body = self
            .rest
            .execute(
                format!("GET /applications/{application}/activity-instances"),
                request,
            )
            .await
            .map_err(SignInError::from_call)?;
        let answer: InstanceAnswer = json(&body)?;
        let id = |text: &str| {
            text.parse::<u64>()
                .map_err(|_| SignInError::Unavailable(format!("an id that is not one: {text}")))
        };
        Ok(ActivityInstance {
            application_id: id(&answer.application_id)?,
            channel_id: answer.location.channel_id.as_deref().map(id).transpose()?,
            users: answer
                .users
                .iter()
                .map(|u| id(u))
                .collect::<Result<_, _>>()?,
        })
    }

    /// Exchanges the SDK's `code` for an access token and reads who it belongs to.
    pub async fn sign_in(&self, code: &str) -> Result<DiscordAccount, SignInError> {
        if code.is_empty()
            || code.len() > CODE_LONGEST
            || !code
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        {
            return Err(SignInError::NotACode);
        }
        let client_id = self.client_id().await?.to_string();
        let form = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("client_id", client_id.as_str()),
            ("client_secret", self.secret.0.as_str()),
        ];
        let url = format!("{}/api/v10/oauth2/token", self.rest.api_base());
        let request = self
            .rest
            .client()
            .post(url)
            .form(&form)
            .build()
            .map_err(|e| SignInError::Unavailable(e.to_string()))?;
        let body = self
            .rest
            .execute("POST /oauth2/token".to_owned(), request)
            .await
            .map_err(SignInError::from_call)?;
        let token: TokenAnswer = json(&body)?;
        if !token.token_type.eq_ignore_ascii_case("bearer") {
            return Err(SignInError::Refused(format!(
                "a token of type {}",
                token.token_type
            )));
        }
        if !token.scope.split_whitespace().any(|s| s == "identify") {
            return Err(SignInError::Refused(
                "the token does not let the bot read who you are (no identify scope)".into(),
            ));
        }
        let url = format!("{}/api/v10/users/@me", self.rest.api_base());
        let request = self
            .rest
            .client()
            .get(url)
            .bearer_auth(&token.access_token)
            .build()
            .map_err(|e| SignInError::Unavailable(e.to_string()))?;
        // Limited per token, as Discord limits a user's calls: one user's limit is not
        // everyone's.
        let route = format!(
            "GET /users/@me {}",
            token.access_token.chars().take(12).collect::<String>()
        );
        let body = self
            .rest
            .execute(route, request)
            .await
            .map_err(SignInError::from_call)?;
        let me: Me = json(&body)?;
        let id = me
            .id
            .parse()
            .map_err(|_| SignInError::Unavailable("a user id that is not one".into()))?;
        let name = me
            .global_name
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(me.username);
        Ok(DiscordAccount {
            id,
            name,
            access_token: token.access_token,
            expires_in: Duration::from_secs(token.expires_in),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_tokens_never_appear_in_debug_output() {
        let secret = ClientSecret::new("s3cr3t-value").expect("not empty");
        assert!(!format!("{secret:?}").contains("s3cr3t"));
        let account = DiscordAccount {
            id: 1,
            name: "ann".into(),
            access_token: "tok3n-value".into(),
            expires_in: Duration::from_secs(1),
        };
        assert!(!format!("{account:?}").contains("tok3n"));
        assert!(ClientSecret::new("  ").is_none());
    }

    #[test]
    fn an_instance_admits_only_its_users_in_its_channel_of_our_application() {
        let instance = ActivityInstance {
            application_id: 7,
            channel_id: Some(20),
            users: vec![1, 2],
        };
        assert_eq!(instance.admits(7, 1, 20), Ok(()));
        assert_eq!(instance.admits(7, 3, 20), Err(NotAdmitted::NotInIt));
        assert_eq!(instance.admits(7, 1, 21), Err(NotAdmitted::OtherChannel));
        assert_eq!(
            instance.admits(8, 1, 20),
            Err(NotAdmitted::OtherApplication)
        );
        let nowhere = ActivityInstance {
            channel_id: None,
            ..instance
        };
        assert_eq!(nowhere.admits(7, 1, 20), Err(NotAdmitted::OtherChannel));
    }

    #[tokio::test]
    async fn a_code_that_is_not_one_is_refused_without_asking_discord() {
        let http = Arc::new(crate::DiscordConfig::new("t").http());
        // No server anywhere: asking Discord would fail otherwise than NotACode.
        let oauth = DiscordOAuth::new(
            Arc::new(Rest::new(http)),
            ClientSecret::new("s").expect("not empty"),
        );
        for code in ["", "a b", "<script>", &"x".repeat(200), "ä"] {
            assert_eq!(
                oauth.sign_in(code).await,
                Err(SignInError::NotACode),
                "{code}"
            );
        }
    }
}
