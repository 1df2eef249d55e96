//! Reading what the fake recorded: interactions' answers, channel posts, buttons, pictures.

use serde_json::{Value, json};

use crate::{CHANNEL, Recorded, Seen};

/// Whether an interaction got its whole first answer: a callback, and after a deferral the
/// deferred response written or removed.
pub fn settled(log: &[Recorded], token: &str) -> bool {
    let mine: Vec<&Recorded> = log.iter().filter(|r| r.path.contains(token)).collect();
    let Some(callback) = mine
        .iter()
        .find(|r| r.path.ends_with("/callback") && r.status < 300)
    else {
        // A duplicate is settled once Discord refused it.
        return mine.iter().any(|r| r.status == 400);
    };
    // A deferral is settled by an edit or removal of `@original`, or by a follow-up (which
    // then becomes its answer).
    callback.json["type"] != json!(5)
        || mine.iter().any(|r| {
            (r.path.ends_with("/messages/@original") && r.method != "GET")
                || (r.method == "POST" && r.path.ends_with(token) && r.status < 300)
        })
}

/// The type of an interaction's successful callback (4 message, 5 deferral, 6 acknowledge,
/// 8 autocomplete).
pub fn callback_type(answers: &[Recorded]) -> Option<u64> {
    answers
        .iter()
        .find(|r| r.path.ends_with("/callback") && r.status < 300)
        .and_then(|r| r.json["type"].as_u64())
}

/// The Activity instance a `LAUNCH_ACTIVITY` callback launched, as the interaction callback
/// response names it (`resource.activity_instance.id`): `None` unless the callback asked for
/// that response (`with_response=true`) and was answered with it.
pub fn launched_instance(callback: &Recorded) -> Option<String> {
    let asked = callback
        .query
        .split('&')
        .any(|pair| pair == "with_response=true");
    let resource = &callback.response["resource"];
    let id = resource["activity_instance"]["id"].as_str()?;
    (asked && callback.status == 200 && resource["type"] == json!(12)).then(|| id.to_owned())
}

/// Successful posts to the game channel.
pub fn channel_posts(log: &[Recorded]) -> Vec<&Recorded> {
    log.iter()
        .filter(|r| {
            r.method == "POST"
                && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
                && r.status == 200
        })
        .collect()
}

/// The id of the message a request created or edited.
pub fn message_id(post: &Recorded) -> u64 {
    post.response["id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("a message id")
}

/// (custom id, disabled) of every button in a message body.
pub fn buttons(message: &Value) -> Vec<(String, bool)> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| {
            Some((
                b["custom_id"].as_str()?.to_owned(),
                b["disabled"].as_bool().unwrap_or(false),
            ))
        })
        .collect()
}

/// (label, address) of every link button in a message body.
pub fn links(message: &Value) -> Vec<(String, String)> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| {
            Some((
                b["label"].as_str().unwrap_or_default().to_owned(),
                b["url"].as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// The requests whose content `seen` could see.
pub fn seen_by(log: &[Recorded], seen: &Seen) -> Vec<Recorded> {
    log.iter().filter(|r| &r.seen == seen).cloned().collect()
}

/// Every uploaded picture.
pub fn pictures(records: &[Recorded]) -> Vec<Vec<u8>> {
    records
        .iter()
        .flat_map(|r| r.files.iter().map(|(_, _, bytes)| bytes.clone()))
        .collect()
}

/// Whether the bytes are a PNG.
pub fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG")
}
