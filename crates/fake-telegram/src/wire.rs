//! The fake's HTTP side: each Bot API method, answered as Telegram answers it.

use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use url::Url;

use super::{
    BOT_ID, BOT_USERNAME, Call, Fault, Post, Shared, TOKEN, Throttled, Upload, World, as_i64,
    bot_user, chat_json, document_json, limits, now, ok, photo_sizes, refuse,
};

pub(super) async fn api(
    State(shared): State<Shared>,
    Path((bot, method)): Path<(String, String)>,
    request: Request,
) -> Response {
    let (params, files) = match read_body(request).await {
        Ok(body) => body,
        Err(reason) => return reply(refuse(400, &format!("Bad Request: {reason}"))),
    };
    if bot != format!("bot{TOKEN}") {
        return reply(refuse(401, "Unauthorized"));
    }
    // Method names are case-insensitive (teloxide writes `SendMessage`).
    let method = canonical(&method);
    if method == "getUpdates" {
        return reply(get_updates(&shared, &params).await);
    }
    let arrived = Instant::now();
    let delay = {
        let mut w = shared.world.lock().unwrap_or_else(|p| p.into_inner());
        match take_fault(&mut w, &method, &params) {
            Some(fault) if fault.delay.is_zero() => {
                w.calls.push(Call {
                    method: method.clone(),
                    params: params.clone(),
                    files,
                    status: fault.status,
                    at: arrived,
                });
                drop(w);
                shared.changed.notify_waiters();
                return reply((fault.status, fault.body));
            }
            Some(fault) => fault.delay,
            None => Duration::ZERO,
        }
    };
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let (status, body) = {
        let mut w = shared.world.lock().unwrap_or_else(|p| p.into_inner());
        let chat = params.get("chat_id").and_then(as_i64);
        let posting = chat.filter(|_| limits::counts(&method));
        let group = chat.is_some_and(|c| w.groups.contains_key(&c));
        let over = posting.and_then(|chat| w.allowances.wait(chat, group, arrived));
        let answer = match (posting, over) {
            (Some(chat), Some(wait)) => {
                let (status, body, retry_after) = limits::too_many(wait);
                w.allowances.throttled.push(Throttled {
                    chat,
                    method: method.clone(),
                    at: arrived,
                    retry_after,
                });
                (status, body)
            }
            _ => {
                let answer = answer(&mut w, &method, &params, &files);
                if let Some(chat) = posting
                    && answer.0 == 200
                {
                    w.allowances.accepted(chat, group, arrived);
                }
                answer
            }
        };
        w.calls.push(Call {
            method: method.clone(),
            params: params.clone(),
            files,
            status: answer.0,
            at: arrived,
        });
        answer
    };
    shared.changed.notify_waiters();
    reply((status, body))
}

const METHODS: [&str; 17] = [
    "getMe",
    "getChatMember",
    "getUpdates",
    "setMyCommands",
    "deleteWebhook",
    "setWebhook",
    "sendMessage",
    "sendPhoto",
    "sendAnimation",
    "sendDocument",
    "sendChatAction",
    "answerCallbackQuery",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
    "editMessageMedia",
    "logOut",
];

fn canonical(method: &str) -> String {
    METHODS
        .iter()
        .find(|m| m.eq_ignore_ascii_case(method))
        .map_or_else(|| method.to_owned(), |m| (*m).to_owned())
}

fn reply((status, body): (u16, Value)) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn read_body(request: Request) -> Result<(Map<String, Value>, Vec<Upload>), String> {
    let multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let mut params = Map::new();
    let mut files = Vec::new();
    if multipart {
        let mut form = Multipart::from_request(request, &())
            .await
            .map_err(|e| e.to_string())?;
        while let Some(field) = form.next_field().await.map_err(|e| e.to_string())? {
            let name = field.name().unwrap_or_default().to_owned();
            let file_name = field.file_name().map(str::to_owned);
            let bytes = field.bytes().await.map_err(|e| e.to_string())?;
            if let Some(file_name) = file_name {
                files.push(Upload {
                    field: name,
                    file_name,
                    bytes: bytes.to_vec(),
                });
            } else {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let value = if matches!(name.as_str(), "text" | "caption") {
                    Value::String(text)
                } else {
                    serde_json::from_str(&text).unwrap_or(Value::String(text))
                };
                params.insert(name, value);
            }
        }
    } else {
        let bytes = Bytes::from_request(request, &())
            .await
            .map_err(|e| e.to_string())?;
        if !bytes.is_empty() {
            match serde_json::from_slice::<Value>(&bytes).map_err(|e| e.to_string())? {
                Value::Object(map) => params = map,
                _ => return Err("the body is not a JSON object".to_owned()),
            }
        }
    }
    Ok((params, files))
}

fn take_fault(w: &mut World, method: &str, params: &Map<String, Value>) -> Option<Fault> {
    let chat = params.get("chat_id").and_then(as_i64);
    let i = w.faults.iter().position(|f| {
        (f.method == method || f.method == "*")
            && f.times > 0
            && (f.chat.is_none() || f.chat == chat)
    })?;
    w.faults[i].times -= 1;
    let fault = w.faults[i].clone();
    if w.faults[i].times == 0 {
        w.faults.remove(i);
    }
    Some(fault)
}

async fn get_updates(shared: &Shared, params: &Map<String, Value>) -> (u16, Value) {
    let offset = params.get("offset").and_then(as_i64);
    let timeout = params
        .get("timeout")
        .and_then(as_i64)
        .unwrap_or(0)
        .clamp(0, 60) as u64;
    let limit = params
        .get("limit")
        .and_then(as_i64)
        .unwrap_or(100)
        .clamp(1, 100) as usize;
    let deadline = Instant::now() + Duration::from_secs(timeout);
    loop {
        let changed = shared.changed.notified();
        {
            let mut w = shared.world.lock().unwrap_or_else(|p| p.into_inner());
            if let (Some(offset), Some(barrier)) = (offset, w.confirm_barrier)
                && offset > i64::from(barrier)
            {
                return refuse_retry(&mut w, params);
            }
            if let Some(offset) = offset {
                // An offset confirms every update before it.
                w.updates.retain(|(id, _)| i64::from(*id) >= offset);
            }
            let batch: Vec<(u32, Value)> = w.updates.iter().take(limit).cloned().collect();
            if !batch.is_empty() || Instant::now() >= deadline {
                for (id, _) in &batch {
                    *w.handed_out.entry(*id).or_default() += 1;
                }
                let batch: Vec<Value> = batch.into_iter().map(|(_, u)| u).collect();
                w.calls.push(Call {
                    method: "getUpdates".to_owned(),
                    params: params.clone(),
                    files: Vec::new(),
                    status: 200,
                    at: Instant::now(),
                });
                return ok(Value::Array(batch));
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let _ = tokio::time::timeout(left, changed).await;
    }
}

fn refuse_retry(w: &mut World, params: &Map<String, Value>) -> (u16, Value) {
    let answer = Fault::too_many_requests("getUpdates", None, 1, 1);
    w.calls.push(Call {
        method: "getUpdates".to_owned(),
        params: params.clone(),
        files: Vec::new(),
        status: answer.status,
        at: Instant::now(),
    });
    (answer.status, answer.body)
}

fn answer(w: &mut World, method: &str, p: &Map<String, Value>, files: &[Upload]) -> (u16, Value) {
    match method {
        "getMe" => ok(json!({
            "id": BOT_ID, "is_bot": true, "first_name": "Jieqi", "username": BOT_USERNAME,
            "can_join_groups": true, "can_read_all_group_messages": false,
            "supports_inline_queries": false, "can_connect_to_business": false, "has_main_web_app": false
        })),
        "setMyCommands" => {
            let Some(commands) = p.get("commands").and_then(Value::as_array) else {
                return refuse(400, "Bad Request: parameter \"commands\" is required");
            };
            let fine = commands.iter().all(|c| {
                let name = c.get("command").and_then(Value::as_str).unwrap_or_default();
                let description = c
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                !name.is_empty()
                    && name.len() <= 32
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                    && (1..=256).contains(&description.chars().count())
            });
            if fine {
                ok(json!(true))
            } else {
                refuse(400, "Bad Request: BOT_COMMAND_INVALID")
            }
        }
        "deleteWebhook" => {
            w.webhook = None;
            ok(json!(true))
        }
        "setWebhook" => {
            let url = p
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let secret = p
                .get("secret_token")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            w.webhook = Some((url, secret));
            ok(json!(true))
        }
        "getChatMember" => {
            let (Some(chat), Some(user)) = (
                p.get("chat_id").and_then(as_i64),
                p.get("user_id").and_then(as_i64),
            ) else {
                return refuse(400, "Bad Request: chat_id and user_id are required");
            };
            let Some(person) = w.users.get(&user).cloned() else {
                return refuse(400, "Bad Request: user not found");
            };
            if w.admins.contains(&(chat, user)) {
                ok(json!({"status": "creator", "user": person, "is_anonymous": false}))
            } else {
                ok(json!({"status": "member", "user": person}))
            }
        }
        "sendMessage" => send(w, p, Media::None),
        "sendChatAction" => {
            let Some(chat) = p.get("chat_id").and_then(as_i64) else {
                return refuse(400, "Bad Request: chat_id is empty");
            };
            match reachable(w, chat) {
                Ok(_) => ok(json!(true)),
                Err(refusal) => refusal,
            }
        }
        "sendAnimation" => match attached(p.get("animation"), "animation", files) {
            Some(upload) => send(w, p, Media::Animation(upload.bytes.clone())),
            None => refuse(400, "Bad Request: there is no animation in the request"),
        },
        // Only uploads: a file id or URL in `document` would name a file this fake never had.
        "sendDocument" => match attached(p.get("document"), "document", files) {
            Some(upload) => send(w, p, Media::Document(upload.clone())),
            None => refuse(400, "Bad Request: there is no document in the request"),
        },
        "sendPhoto" => match attached(p.get("photo"), "photo", files) {
            Some(upload) => send(w, p, Media::Photo(upload.bytes.clone())),
            None => refuse(
                400,
                &format!(
                    "Bad Request: there is no photo in the request (fields {:?}, files {:?})",
                    p.keys().collect::<Vec<_>>(),
                    files.iter().map(|f| &f.field).collect::<Vec<_>>()
                ),
            ),
        },
        "answerCallbackQuery" => {
            let id = p
                .get("callback_query_id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let text_len = p
                .get("text")
                .and_then(Value::as_str)
                .map(|t| t.chars().count())
                .unwrap_or(0);
            if text_len > 200 {
                return refuse(400, "Bad Request: MESSAGE_TOO_LONG");
            }
            match w.queries.get_mut(id) {
                Some(answered @ false) => {
                    *answered = true;
                    ok(json!(true))
                }
                _ => refuse(
                    400,
                    "Bad Request: query is too old and response timeout expired or query ID is invalid",
                ),
            }
        }
        "editMessageText"
        | "editMessageCaption"
        | "editMessageReplyMarkup"
        | "editMessageMedia" => edit(w, method, p, files),
        other => refuse(
            404,
            &format!("Not Found: method {other} is not in this fake"),
        ),
    }
}

/// The file a parameter names: `attach://<part>`, or a file part of the parameter's own name.
fn attached<'f>(param: Option<&Value>, name: &str, files: &'f [Upload]) -> Option<&'f Upload> {
    match param
        .and_then(Value::as_str)
        .and_then(|v| v.strip_prefix("attach://"))
    {
        Some(part) => files.iter().find(|f| f.field == part),
        None => files.iter().find(|f| f.field == name),
    }
}

/// What a send method carries besides its text or caption.
enum Media {
    None,
    Photo(Vec<u8>),
    Animation(Vec<u8>),
    Document(Upload),
}

/// Checks that the chat takes messages from the bot.
fn reachable(w: &World, chat: i64) -> Result<Value, (u16, Value)> {
    if w.groups.contains_key(&chat) {
        return chat_json(w, chat).ok_or_else(|| refuse(400, "Bad Request: chat not found"));
    }
    if !w.users.contains_key(&chat) {
        return Err(refuse(400, "Bad Request: chat not found"));
    }
    if w.blocked.contains(&chat) {
        return Err(refuse(403, "Forbidden: bot was blocked by the user"));
    }
    if !w.started.contains(&chat) {
        return Err(refuse(
            403,
            "Forbidden: bot can't initiate conversation with a user",
        ));
    }
    chat_json(w, chat).ok_or_else(|| refuse(400, "Bad Request: chat not found"))
}

/// Refuses a keyboard Telegram would refuse: a button must carry callback data (1 to 64
/// bytes), a URL, or a Mini App (`web_app`, an https URL, in private chats only).
fn check_markup(p: &Map<String, Value>) -> Result<Value, (u16, Value)> {
    let Some(markup) = p.get("reply_markup") else {
        return Ok(json!({}));
    };
    // Private chats have the user's (positive) id.
    let private = p
        .get("chat_id")
        .and_then(as_i64)
        .is_some_and(|chat| chat > 0);
    let rows = markup
        .get("inline_keyboard")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for row in &rows {
        for button in row.as_array().into_iter().flatten() {
            let data = button.get("callback_data").and_then(Value::as_str);
            let url = button.get("url").and_then(Value::as_str);
            let web_app = button
                .get("web_app")
                .map(|app| app.get("url").and_then(Value::as_str));
            match (data, url, web_app) {
                (Some(d), None, None) if !d.is_empty() && d.len() <= 64 => {}
                (None, Some(u), None) if Url::parse(u).is_ok() => {}
                (None, None, Some(_)) if !private => {
                    return Err(refuse(400, "Bad Request: BUTTON_TYPE_INVALID"));
                }
                (None, None, Some(Some(u)))
                    if Url::parse(u).is_ok_and(|url| url.scheme() == "https") => {}
                (None, None, Some(_)) => {
                    return Err(refuse(
                        400,
                        "Bad Request: inline keyboard button Web App URL is invalid: Only HTTPS links are allowed",
                    ));
                }
                _ => return Err(refuse(400, "Bad Request: BUTTON_DATA_INVALID")),
            }
        }
    }
    Ok(markup.clone())
}

fn send(w: &mut World, p: &Map<String, Value>, media: Media) -> (u16, Value) {
    let Some(chat) = p.get("chat_id").and_then(as_i64) else {
        return refuse(400, "Bad Request: chat_id is empty");
    };
    let chat_json = match reachable(w, chat) {
        Ok(c) => c,
        Err(refusal) => return refusal,
    };
    let markup = match check_markup(p) {
        Ok(m) => m,
        Err(refusal) => return refusal,
    };
    let (photo, animation, document) = match media {
        Media::None => (None, false, None),
        Media::Photo(bytes) => (Some(bytes), false, None),
        Media::Animation(bytes) => (Some(bytes), true, None),
        Media::Document(upload) => (None, false, Some(upload)),
    };
    let text = if photo.is_some() || document.is_some() {
        let caption = p
            .get("caption")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if caption.encode_utf16().count() > 1024 {
            return refuse(400, "Bad Request: message caption is too long");
        }
        caption
    } else {
        let text = p
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if text.trim().is_empty() {
            return refuse(400, "Bad Request: message text is empty");
        }
        if text.encode_utf16().count() > 4096 {
            return refuse(400, "Bad Request: message is too long");
        }
        text
    };
    let thread = p.get("message_thread_id").and_then(as_i64);
    let reply_to = p
        .get("reply_parameters")
        .and_then(|r| r.get("message_id"))
        .and_then(as_i64);
    w.next_message += 1;
    let post = Post {
        chat,
        message_id: w.next_message,
        thread,
        text,
        photo,
        markup,
        reply_to,
        animation,
        document,
        at: Instant::now(),
    };
    let result = message_json(&post, chat_json);
    w.posts.push(post);
    ok(result)
}

fn message_json(post: &Post, chat: Value) -> Value {
    let mut m =
        json!({"message_id": post.message_id, "date": now(), "chat": chat, "from": bot_user()});
    match &post.photo {
        Some(bytes) if post.animation => {
            m["animation"] = animation_json(bytes);
            m["document"] = animation_json(bytes);
            if !post.text.is_empty() {
                m["caption"] = json!(post.text);
            }
        }
        Some(bytes) => {
            m["photo"] = photo_sizes(bytes);
            if !post.text.is_empty() {
                m["caption"] = json!(post.text);
            }
        }
        None => match &post.document {
            Some(document) => {
                m["document"] = document_json(document);
                if !post.text.is_empty() {
                    m["caption"] = json!(post.text);
                }
            }
            None => m["text"] = json!(post.text),
        },
    }
    if post
        .markup
        .get("inline_keyboard")
        .is_some_and(|k| k.as_array().is_some_and(|a| !a.is_empty()))
    {
        m["reply_markup"] = post.markup.clone();
    }
    if let Some(thread) = post.thread {
        m["message_thread_id"] = json!(thread);
        m["is_topic_message"] = json!(true);
    }
    m
}

fn edit(w: &mut World, method: &str, p: &Map<String, Value>, files: &[Upload]) -> (u16, Value) {
    let chat = p.get("chat_id").and_then(as_i64).unwrap_or_default();
    let id = p.get("message_id").and_then(as_i64).unwrap_or_default();
    let markup = match check_markup(p) {
        Ok(m) => m,
        Err(refusal) => return refusal,
    };
    let Some(chat_json) = chat_json(w, chat) else {
        return refuse(400, "Bad Request: chat not found");
    };
    let Some(post) = w
        .posts
        .iter_mut()
        .find(|post| post.chat == chat && post.message_id == id)
    else {
        return refuse(400, "Bad Request: message to edit not found");
    };
    let captioned = post.photo.is_some() || post.document.is_some();
    let mut edited = post.clone();
    edited.markup = markup;
    match method {
        "editMessageText" => {
            if captioned {
                return refuse(400, "Bad Request: there is no text in the message to edit");
            }
            edited.text = p
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
        }
        "editMessageCaption" => {
            if !captioned {
                return refuse(
                    400,
                    "Bad Request: there is no caption in the message to edit",
                );
            }
            edited.text = p
                .get("caption")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
        }
        "editMessageMedia" => {
            let media = p.get("media").cloned().unwrap_or_default();
            let Some(upload) = attached(media.get("media"), "media", files) else {
                return refuse(400, "Bad Request: there is no media in the request");
            };
            edited.photo = Some(upload.bytes.clone());
            edited.document = None;
            edited.text = media
                .get("caption")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
        }
        _ => {}
    }
    let same =
        edited.text == post.text && edited.photo == post.photo && edited.markup == post.markup;
    if same {
        return refuse(
            400,
            "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
        );
    }
    *post = edited.clone();
    ok(message_json(&edited, chat_json))
}

fn animation_json(bytes: &[u8]) -> Value {
    json!({"file_id": format!("anim{}", bytes.len()), "file_unique_id": format!("a{}", bytes.len()),
           "width": 480, "height": 540, "duration": 10, "file_size": bytes.len(),
           "file_name": "game.gif", "mime_type": "image/gif"})
}
