//! What Discord's answers mean for us: which failures are worth another try, which can never
//! succeed (a user who closed their DMs), and the adapter's own errors.

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
        match status_and_code(&error) {
            Some((401, _)) => DiscordError::BadToken,
            _ => DiscordError::Gateway(error),
        }
    }
}

/// The HTTP status and Discord's JSON error code of an unsuccessful request.
pub(crate) fn status_and_code(error: &serenity::Error) -> Option<(u16, isize)> {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            Some((response.status_code.as_u16(), response.error.code))
        }
        _ => None,
    }
}

/// True for failures that may pass: rate limits, Discord's own errors, the network.
pub(crate) fn is_passing(error: &serenity::Error) -> bool {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code;
            status.is_server_error() || status.as_u16() == 429 || status.as_u16() == 408
        }
        serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => true,
        _ => false,
    }
}

/// What a failed send means for the delivery loop.
pub(crate) fn send_error(error: &serenity::Error) -> SendError {
    let reason = describe(error);
    if is_passing(error) {
        // serenity does not keep Discord's `retry_after` in its error; with the rate limiter
        // on it waits by itself, and behind a proxy the delivery loop's backoff does.
        SendError::Retry {
            after: None,
            reason,
        }
    } else if status_and_code(error).is_some_and(|(_, code)| code == CANNOT_MESSAGE_USER) {
        SendError::Undeliverable(format!(
            "the user does not accept direct messages: {reason}"
        ))
    } else if matches!(
        error,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(_))
    ) {
        // 4xx: missing access, an unknown channel, DMs closed (50007). Trying again cannot help.
        SendError::Undeliverable(reason)
    } else {
        // Anything else (a response we could not read): the message may or may not have gone
        // out; another try risks a duplicate, but dropping it risks a loss.
        SendError::Retry {
            after: None,
            reason,
        }
    }
}

/// A short description for logs and the delivery loop.
pub(crate) fn describe(error: &serenity::Error) -> String {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => format!(
            "Discord answered {} (code {}: {})",
            response.status_code.as_u16(),
            response.error.code,
            response.error.message
        ),
        other => other.to_string(),
    }
}
