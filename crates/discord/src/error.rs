//! What Discord's answers mean for us: which failures are worth another try, which can never
//! succeed (a user who closed their DMs), and the adapter's own errors.

use std::fmt;
use std::time::Duration;

use jieqi_service::SendError;
use serenity::http::HttpError;

/// Discord's JSON error code for a user who does not accept DMs from the bot.
pub(crate) const CANNOT_MESSAGE_USER: isize = 50007;
/// The interaction was answered already (the same interaction delivered twice).
pub(crate) const ALREADY_ACKNOWLEDGED: isize = 40060;
/// The interaction (or its token) is unknown: too late, or never ours.
pub(crate) const UNKNOWN_INTERACTION: isize = 10062;
/// The message to edit was deleted.
pub(crate) const UNKNOWN_MESSAGE: isize = 10008;
/// An interaction's webhook that no longer exists (its token lapsed).
pub(crate) const UNKNOWN_WEBHOOK: isize = 10015;
/// An interaction's token that is no longer valid (after its 15 minutes).
pub(crate) const INVALID_WEBHOOK_TOKEN: isize = 50027;

/// Why the Discord adapter stopped.
#[derive(Debug, thiserror::Error)]
pub enum DiscordError {
    /// Discord refused the token.
    #[error(
        "Discord refused DISCORD_TOKEN: in the developer portal open the application's Bot page, \
         press Reset Token and set DISCORD_TOKEN to the new token"
    )]
    BadToken,
    /// The gateway could not be reached or failed for good.
    #[error("cannot connect to Discord: check the network, or DISCORD_API_URL if it is set")]
    Gateway(#[source] serenity::Error),
}

impl DiscordError {
    pub(crate) fn from_start(error: serenity::Error) -> DiscordError {
        match CallError::from_serenity(&error).status_and_code() {
            Some((401, _)) => DiscordError::BadToken,
            _ => DiscordError::Gateway(error),
        }
    }
}

/// A failed call to Discord, as far as we could tell what happened.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CallError {
    /// Discord (or the proxy in front of it) answered with an error.
    Refused {
        status: u16,
        /// Discord's JSON error code (0 when it gave none).
        code: isize,
        message: String,
        /// How long a 429 said to wait.
        retry_after: Option<Duration>,
    },
    /// Not sent: the route's rate limit is used up for this long.
    Limited(Duration),
    /// No answer we could read (the network, a timeout, a garbled body): the call may or may
    /// not have taken effect.
    Transport(String),
    /// The request could not be made (a body Discord would refuse anyway).
    Request(String),
    /// Discord said yes, but we cannot read the rest of its answer; the call took effect.
    Unreadable(String),
}

impl CallError {
    pub(crate) fn from_serenity(error: &serenity::Error) -> CallError {
        match error {
            serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => CallError::Refused {
                status: response.status_code.as_u16(),
                code: response.error.code,
                message: response.error.message.clone(),
                retry_after: None,
            },
            serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => {
                CallError::Transport(error.to_string())
            }
            serenity::Error::Json(_) => CallError::Unreadable(error.to_string()),
            other => CallError::Request(other.to_string()),
        }
    }

    /// The HTTP status and Discord's JSON error code of a refused request.
    pub(crate) fn status_and_code(&self) -> Option<(u16, isize)> {
        match self {
            CallError::Refused { status, code, .. } => Some((*status, *code)),
            _ => None,
        }
    }

    /// True for failures that may pass: rate limits, Discord's own errors, the network.
    pub(crate) fn is_passing(&self) -> bool {
        match self {
            CallError::Refused { status, .. } => *status >= 500 || *status == 429 || *status == 408,
            CallError::Limited(_) | CallError::Transport(_) => true,
            CallError::Request(_) | CallError::Unreadable(_) => false,
        }
    }

    /// How long Discord asked us to wait before trying again.
    pub(crate) fn retry_after(&self) -> Option<Duration> {
        match self {
            CallError::Refused { retry_after, .. } => *retry_after,
            CallError::Limited(wait) => Some(*wait),
            _ => None,
        }
    }

    /// What a failed send means for the delivery lane.
    pub(crate) fn send_error(&self) -> SendError {
        let reason = self.to_string();
        if self.is_passing() {
            // A 429's wait goes to the lane, which waits exactly that for this chat only.
            SendError::Retry {
                after: self.retry_after(),
                reason,
            }
        } else if self
            .status_and_code()
            .is_some_and(|(_, code)| code == CANNOT_MESSAGE_USER)
        {
            SendError::Undeliverable(format!(
                "the user does not accept direct messages: {reason}"
            ))
        } else {
            // 4xx: missing access, an unknown channel. Trying again cannot help.
            SendError::Undeliverable(reason)
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Refused {
                status,
                code,
                message,
                retry_after,
            } => {
                write!(f, "Discord answered {status} (code {code}: {message})")?;
                match retry_after {
                    Some(wait) => write!(f, ", retry after {wait:?}"),
                    None => Ok(()),
                }
            }
            CallError::Limited(wait) => write!(f, "the rate limit is used up for {wait:?}"),
            CallError::Transport(error) => write!(f, "no answer from Discord: {error}"),
            CallError::Request(error) => write!(f, "cannot make the request: {error}"),
            CallError::Unreadable(error) => write!(f, "cannot read Discord's answer: {error}"),
        }
    }
}

/// A short description of a serenity error for logs.
pub(crate) fn describe(error: &serenity::Error) -> String {
    CallError::from_serenity(error).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(status: u16, code: isize, retry_after: Option<Duration>) -> CallError {
        CallError::Refused {
            status,
            code,
            message: "m".to_owned(),
            retry_after,
        }
    }

    #[test]
    fn a_rate_limit_tells_the_lane_how_long_to_wait() {
        let wait = Some(Duration::from_millis(1500));
        assert!(matches!(
            refused(429, 0, wait).send_error(),
            SendError::Retry { after, .. } if after == wait
        ));
        assert!(matches!(
            CallError::Limited(Duration::from_secs(2)).send_error(),
            SendError::Retry { after: Some(after), .. } if after == Duration::from_secs(2)
        ));
        assert!(matches!(
            refused(502, 0, None).send_error(),
            SendError::Retry { after: None, .. }
        ));
        assert!(matches!(
            CallError::Transport("timed out".to_owned()).send_error(),
            SendError::Retry { after: None, .. }
        ));
    }

    #[test]
    fn closed_dms_and_other_refusals_are_undeliverable() {
        let closed = refused(403, CANNOT_MESSAGE_USER, None).send_error();
        assert!(
            matches!(&closed, SendError::Undeliverable(reason) if reason.contains("direct messages")),
            "{closed:?}"
        );
        assert!(matches!(
            refused(404, 10003, None).send_error(),
            SendError::Undeliverable(_)
        ));
        assert!(matches!(
            CallError::Request("too long".to_owned()).send_error(),
            SendError::Undeliverable(_)
        ));
    }
}
