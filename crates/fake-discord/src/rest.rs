//! The fake's REST API: every route the adapter uses, recorded the same way.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::{
    APP, Created, Fault, FaultAt, Inner, NONCE_WINDOW, Recorded, Route, Seen, Stored, TOKEN, lock,
    message_json,
};

/// What a route answers.
struct Reply {
    status: StatusCode,
    seen: Seen,
    body: Value,
    headers: Vec<(&'static str, String)>,
}

impl Reply {
    fn new(status: StatusCode, seen: Seen, body: Value) -> Reply {
        Reply {
            status,
            seen,
            body,
            headers: Vec::new(),
        }
    }

    fn into_response(self) -> Response {
        if self.status == StatusCode::NO_CONTENT {
            return StatusCode::NO_CONTENT.into_response();
        }
        let mut response = (self.status, axum::Json(self.body)).into_response();
        for (name, value) in self.headers {
            response
                .headers_mut()
                .insert(name, header::HeaderValue::from_str(&value).expect("header"));
        }
        response
    }
}

/// A request body: JSON, or multipart with `files[n]` and `payload_json`.
async fn body(request: Request) -> (Value, Vec<(String, String, Vec<u8>)>) {
    let multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if multipart {
        let mut form = Multipart::from_request(request, &())
            .await
            .expect("multipart body");
        let mut json = Value::Null;
        let mut files = Vec::new();
        while let Some(field) = form.next_field().await.expect("multipart field") {
            let name = field.name().unwrap_or_default().to_owned();
            let file_name = field.file_name().map(str::to_owned);
            let bytes = field.bytes().await.expect("field bytes").to_vec();
            match file_name {
                Some(file_name) => files.push((name, file_name, bytes)),
                None if name == "payload_json" => {
                    json = serde_json::from_slice(&bytes).expect("payload_json is JSON");
                }
                None => {}
            }
        }
        (json, files)
    } else {
        let bytes = Bytes::from_request(request, &()).await.unwrap_or_default();
        let json = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).expect("a JSON body")
        };
        (json, Vec::new())
    }
}

fn ephemeral_flag(json: &Value) -> bool {
    json["flags"].as_u64().is_some_and(|f| f & 64 != 0)
}

/// Every REST route, matched by hand so that each request is recorded the same way.
pub(super) async fn api(State(fake): State<Arc<Inner>>, request: Request) -> Response {
    let at = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    let authorized = request
        .headers()
        .get(header::AUTHORIZATION)
        .is_some_and(|v| v.as_bytes() == format!("Bot {TOKEN}").as_bytes());
    let (json, files) = body(request).await;
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let fault = fault_at(&method, &path, &segments).and_then(|at| fake.take_fault(at));
    if let Some(Fault::Delay(delay)) = fault {
        tokio::time::sleep(delay).await;
    }
    let reply = if !authorized {
        Reply::new(
            StatusCode::UNAUTHORIZED,
            Seen::Nobody,
            json!({"code": 0, "message": "401: Unauthorized"}),
        )
    } else {
        match fault {
            Some(Fault::RateLimited(retry_after)) => rate_limited(retry_after),
            Some(Fault::Status(status)) => Reply::new(
                StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                Seen::Nobody,
                json!({"code": 0, "message": format!("{status}: Server Error")}),
            ),
            Some(Fault::FailAfterCreate) => {
                let mut done = route(&fake, &method, &segments, &query, &json, &files);
                // The work is done and visible; only the answer is lost.
                done.status = StatusCode::BAD_GATEWAY;
                done.body = json!({"code": 0, "message": "502: Bad Gateway"});
                done.headers.clear();
                done
            }
            Some(Fault::Exhausted(reset_after)) => {
                let mut done = route(&fake, &method, &segments, &query, &json, &files);
                done.headers = vec![
                    ("x-ratelimit-limit", "5".to_owned()),
                    ("x-ratelimit-remaining", "0".to_owned()),
                    (
                        "x-ratelimit-reset-after",
                        format!("{:.3}", reset_after.as_secs_f64()),
                    ),
                ];
                done
            }
            Some(Fault::AnswerLate(_)) | Some(Fault::Delay(_)) | None => {
                within_limits(&fake, &method, &path, |fake| {
                    route(fake, &method, &segments, &query, &json, &files)
                })
            }
        }
    };
    lock(&fake.log).push(Recorded {
        method: method.to_string(),
        path: path.clone(),
        status: reply.status.as_u16(),
        json,
        files,
        seen: reply.seen.clone(),
        query,
        response: reply.body.clone(),
        at,
    });
    fake.touched();
    if let Some(Fault::AnswerLate(late)) = fault {
        // Done, visible and recorded; the client may give up before this answer comes.
        tokio::time::sleep(late).await;
    }
    reply.into_response()
}

/// Which faults a request meets: posts and edits in a channel, interaction callbacks.
fn fault_at(method: &Method, path: &str, segments: &[&str]) -> Option<FaultAt> {
    match (method.as_str(), segments) {
        ("POST", ["api", "v10", "interactions", _, _, "callback"]) => Some(FaultAt::Callbacks),
        _ => Route::of(method.as_str(), path).map(|(_, channel)| FaultAt::Channel(channel)),
    }
}

/// Answers with `answer` if the channel's bucket takes the request (or the route is not
/// limited), with the bucket's headers; else 429. The request is counted when the fake
/// decides, under the lock, so that the order counted is the order decided.
fn within_limits(
    fake: &Inner,
    method: &Method,
    path: &str,
    answer: impl FnOnce(&Inner) -> Reply,
) -> Reply {
    let standing = Route::of(method.as_str(), path)
        .and_then(|(route, channel)| lock(&fake.allowances).take(route, channel, Instant::now()));
    match standing {
        Some(standing) if standing.refused => {
            let mut reply =
                Reply::new(StatusCode::TOO_MANY_REQUESTS, Seen::Nobody, standing.body());
            reply.headers = standing.headers();
            reply
        }
        Some(standing) => {
            let mut reply = answer(fake);
            reply.headers.extend(standing.headers());
            reply
        }
        None => answer(fake),
    }
}

/// Discord's 429: `retry_after` in seconds (a float) in the body, `Retry-After` in whole
/// seconds, and the bucket's reset in the rate-limit headers.
fn rate_limited(retry_after: Duration) -> Reply {
    let seconds = retry_after.as_secs_f64();
    let body =
        json!({"message": "You are being rate limited.", "retry_after": seconds, "global": false});
    let mut reply = Reply::new(StatusCode::TOO_MANY_REQUESTS, Seen::Nobody, body);
    reply.headers = vec![
        ("retry-after", format!("{}", seconds.ceil())),
        ("x-ratelimit-limit", "5".to_owned()),
        ("x-ratelimit-remaining", "0".to_owned()),
        ("x-ratelimit-reset-after", format!("{seconds:.3}")),
        ("x-ratelimit-scope", "user".to_owned()),
    ];
    reply
}

fn route(
    fake: &Inner,
    method: &Method,
    segments: &[&str],
    query: &str,
    json: &Value,
    files: &[(String, String, Vec<u8>)],
) -> Reply {
    let ok = |seen: Seen, body: Value| Reply::new(StatusCode::OK, seen, body);
    let no_content = |seen: Seen| Reply::new(StatusCode::NO_CONTENT, seen, Value::Null);
    let fail = |status: StatusCode, code: u32, message: &str| {
        Reply::new(
            status,
            Seen::Nobody,
            json!({"code": code, "message": message}),
        )
    };
    let fresh = || fake.fresh_id();
    let Some(rest) = segments.strip_prefix(&["api", "v10"]) else {
        return fail(StatusCode::NOT_FOUND, 0, "404: Not Found");
    };
    match (method.as_str(), rest) {
        ("GET", ["gateway"]) => ok(Seen::Nobody, json!({"url": fake.ws_url})),
        ("GET", ["gateway", "bot"]) => ok(
            Seen::Nobody,
            json!({"url": fake.ws_url, "shards": fake.recommended_shards.load(std::sync::atomic::Ordering::SeqCst), "session_start_limit":
                   {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}),
        ),
        ("PUT", ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]) => {
            let commands: Vec<Value> = json
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|mut command| {
                    command["id"] = json!(fresh().to_string());
                    command["application_id"] = json!(APP.to_string());
                    command["version"] = json!("1");
                    if command.get("type").is_none() {
                        command["type"] = json!(1);
                    }
                    command
                })
                .collect();
            ok(Seen::Nobody, Value::Array(commands))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            let mut interactions = lock(&fake.interactions);
            let Some((known, pending)) = interactions.get_mut(*token) else {
                return fail(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
            };
            if known.to_string() != *id {
                return fail(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
            }
            if pending.answered {
                return fail(
                    StatusCode::BAD_REQUEST,
                    40060,
                    "Interaction has already been acknowledged.",
                );
            }
            // LAUNCH_ACTIVITY (type 12) carries nothing but its type.
            if json["type"] == json!(12)
                && (json
                    .as_object()
                    .is_some_and(|o| o.keys().any(|k| k != "type" && k != "data"))
                    || !json["data"].is_null())
            {
                return fail(
                    StatusCode::BAD_REQUEST,
                    50035,
                    "Invalid Form Body: LAUNCH_ACTIVITY takes no data",
                );
            }
            pending.answered = true;
            // LAUNCH_ACTIVITY opens the Activity in the interaction's channel, or joins the
            // instance running there, with the presser in it.
            let instance = (json["type"] == json!(12)).then(|| {
                fake.oauth
                    .launch_instance(APP, pending.channel, pending.user)
            });
            let data = &json["data"];
            check_attachments(data, files);
            let ephemeral = ephemeral_flag(data);
            let seen = match json["type"].as_u64() {
                Some(4) => {
                    pending.ephemeral = Some(ephemeral);
                    if ephemeral {
                        Seen::Ephemeral(pending.user)
                    } else {
                        Seen::Channel(pending.channel)
                    }
                }
                Some(5) => {
                    pending.ephemeral = Some(ephemeral);
                    pending.thinking = true;
                    Seen::Nobody
                }
                _ => Seen::Nobody,
            };
            if !query.split('&').any(|pair| pair == "with_response=true") {
                return no_content(seen);
            }
            // The interaction callback response: the interaction, and what the answer made.
            let mut resource = json!({"type": json["type"]});
            if let Some(instance) = &instance {
                resource["activity_instance"] = json!({"id": instance});
            }
            ok(
                seen,
                json!({
                    "interaction": {
                        "id": id,
                        "type": pending.kind,
                        "activity_instance_id": instance,
                        "response_message_id": null,
                        "response_message_loading": pending.thinking,
                        "response_message_ephemeral": pending.ephemeral.unwrap_or(false),
                    },
                    "resource": resource,
                }),
            )
        }
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            let mut interactions = lock(&fake.interactions);
            let Some((_, pending)) = interactions.get_mut(*token) else {
                return fail(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            pending.thinking = false;
            check_attachments(json, files);
            let seen = match pending.ephemeral {
                Some(true) => Seen::Ephemeral(pending.user),
                Some(false) => Seen::Channel(pending.channel),
                None => return fail(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
            };
            let channel = pending.channel;
            let content = json["content"].as_str().unwrap_or_default();
            ok(
                seen,
                message_json(fresh(), channel, content, json["components"].clone(), None),
            )
        }
        ("GET", ["webhooks", _, token, "messages", "@original"]) => {
            let interactions = lock(&fake.interactions);
            let Some((_, pending)) = interactions.get(*token) else {
                return fail(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            // The first answer (a message, or the deferral's placeholder), once there is one.
            if pending.ephemeral.is_none() {
                return fail(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            }
            ok(
                Seen::Nobody,
                message_json(fresh(), pending.channel, "", json!([]), None),
            )
        }
        ("DELETE", ["webhooks", _, token, "messages", "@original"]) => {
            let mut interactions = lock(&fake.interactions);
            let Some((_, pending)) = interactions.get_mut(*token) else {
                return fail(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            pending.thinking = false;
            no_content(Seen::Nobody)
        }
        ("POST", ["webhooks", _, token]) => {
            let mut interactions = lock(&fake.interactions);
            let Some((_, pending)) = interactions.get_mut(*token) else {
                return fail(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            check_attachments(json, files);
            // While the deferral shows "thinking…", this follow-up is its answer: it keeps the
            // deferral's visibility, not its own flags (and is `@original` from now on).
            let ephemeral = if pending.thinking {
                pending.thinking = false;
                pending.ephemeral.unwrap_or(false)
            } else {
                ephemeral_flag(json)
            };
            let seen = if ephemeral {
                Seen::Ephemeral(pending.user)
            } else {
                Seen::Channel(pending.channel)
            };
            let content = json["content"].as_str().unwrap_or_default();
            ok(
                seen,
                message_json(
                    fresh(),
                    pending.channel,
                    content,
                    json["components"].clone(),
                    None,
                ),
            )
        }
        ("POST", ["users", "@me", "channels"]) => {
            let Some(user) = json["recipient_id"]
                .as_str()
                .and_then(|s| s.parse::<u64>().ok())
            else {
                return fail(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
            };
            let channel = *lock(&fake.dm_channels).entry(user).or_insert_with(fresh);
            let recipient = json!({"id": user.to_string(), "username": format!("user{user}"),
                                   "discriminator": "0", "avatar": null});
            ok(
                Seen::Nobody,
                json!({"id": channel.to_string(), "type": 1, "last_message_id": null,
                       "recipients": [recipient]}),
            )
        }
        ("POST", ["channels", channel, "messages"]) => {
            let Ok(channel) = channel.parse::<u64>() else {
                return fail(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            };
            let seen = match dm_user(fake, channel) {
                Some(user) if lock(&fake.closed_dms).contains(&user) => {
                    return fail(
                        StatusCode::FORBIDDEN,
                        50007,
                        "Cannot send messages to this user",
                    );
                }
                Some(user) => Seen::Direct(user),
                None if lock(&fake.channels).contains(&channel) => Seen::Channel(channel),
                None => return fail(StatusCode::NOT_FOUND, 10003, "Unknown Channel"),
            };
            check_attachments(json, files);
            let nonce = match &json["nonce"] {
                Value::String(nonce) => Some(nonce.clone()),
                Value::Number(nonce) => Some(nonce.to_string()),
                _ => None,
            };
            let enforce_nonce = json["enforce_nonce"] == json!(true);
            let mut messages = lock(&fake.messages);
            if enforce_nonce
                && let Some(nonce) = &nonce
                && let Some(earlier) = messages.values().find(|m| {
                    m.channel == channel
                        && m.nonce.as_ref() == Some(nonce)
                        && m.at.elapsed() < NONCE_WINDOW
                })
            {
                // Discord's deduplication: the earlier message, not a new one.
                return ok(seen, earlier.json.clone());
            }
            let id = fresh();
            let content = json["content"].as_str().unwrap_or_default();
            let message = message_json(
                id,
                channel,
                content,
                json["components"].clone(),
                nonce.as_deref(),
            );
            let at = Instant::now();
            messages.insert(
                id,
                Stored {
                    channel,
                    json: message.clone(),
                    nonce: nonce.clone(),
                    at,
                },
            );
            lock(&fake.created).push(Created {
                id,
                channel,
                nonce,
                enforce_nonce,
                at,
                json: json.clone(),
            });
            ok(seen, message)
        }
        ("PATCH", ["channels", channel, "messages", id]) => {
            let (Ok(channel), Ok(id)) = (channel.parse::<u64>(), id.parse::<u64>()) else {
                return fail(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            };
            let mut messages = lock(&fake.messages);
            let Some(Stored {
                channel: stored_channel,
                json: message,
                ..
            }) = messages.get_mut(&id)
            else {
                return fail(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            };
            if *stored_channel != channel {
                return fail(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            }
            check_attachments(json, files);
            if let Some(content) = json.get("content") {
                message["content"] = content.clone();
            }
            if let Some(components) = json.get("components") {
                message["components"] = components.clone();
            }
            let message = message.clone();
            drop(messages);
            let seen = match dm_user(fake, channel) {
                Some(user) => Seen::Direct(user),
                None => Seen::Channel(channel),
            };
            ok(seen, message)
        }
        ("GET", ["channels", channel, "messages", id]) => {
            let (Ok(channel), Ok(id)) = (channel.parse::<u64>(), id.parse::<u64>()) else {
                return fail(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            };
            match lock(&fake.messages).get(&id) {
                Some(stored) if stored.channel == channel => ok(Seen::Nobody, stored.json.clone()),
                _ => fail(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
            }
        }
        _ => fail(StatusCode::NOT_FOUND, 0, "404: Not Found"),
    }
}

fn dm_user(fake: &Inner, channel: u64) -> Option<u64> {
    lock(&fake.dm_channels)
        .iter()
        .find(|(_, c)| **c == channel)
        .map(|(user, _)| *user)
}

/// Discord matches `attachment://name` in embeds against the uploaded files, and each file
/// part `files[n]` against the entry of `attachments` whose `id` is `n` (its file name).
fn check_attachments(json: &Value, files: &[(String, String, Vec<u8>)]) {
    for (field, file_name, _) in files {
        let n = field
            .strip_prefix("files[")
            .and_then(|rest| rest.strip_suffix(']'))
            .unwrap_or_else(|| panic!("file field {field}"));
        let listed = json["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|a| {
                let id = match &a["id"] {
                    Value::String(id) => id.clone(),
                    other => other.to_string(),
                };
                id == n && a["filename"] == json!(file_name)
            });
        assert!(
            listed,
            "{field} ({file_name}) is not listed in the payload's attachments: {json}"
        );
    }
    for embed in json["embeds"].as_array().into_iter().flatten() {
        if let Some(url) = embed["image"]["url"].as_str()
            && let Some(name) = url.strip_prefix("attachment://")
        {
            assert!(
                files.iter().any(|(_, file, _)| file == name),
                "embed image {url} is not among the uploaded files"
            );
        }
    }
}
