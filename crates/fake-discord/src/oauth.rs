//! Discord's side of an Activity, faked: the OAuth2 token endpoint, `/users/@me` with a user's
//! access token, `/applications/@me` with the bot's, and a host page that plays Discord's
//! client around the Activity.
//!
//! The host page (`/activity-host`) frames the Activity and answers the Embedded App SDK's
//! `postMessage` protocol as Discord's client does (read from the SDK's own source): the
//! handshake (opcode 0) with `READY`, then frames (opcode 1) answering `AUTHORIZE` with a code
//! issued here for the host's user, `AUTHENTICATE` with the user and application the access
//! token belongs to, `GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS` with the hosts open on
//! the same instance, and `CAPTURE_LOG` (the SDK forwards the page's console there; the host
//! keeps the lines for the test). The SDK accepts messages only from Discord's origins, its
//! own, or an opaque origin (`null`, as a sandboxed frame of Discord's mobile client has):
//! the host posts its answers through a sandboxed frame, so they arrive from `null`, while the
//! host itself, the Activity's frame ancestor, keeps the address the Activity's
//! `frame-ancestors` names.
//!
//! The token endpoint keeps Discord's rules: a code is good once, for the application it was
//! issued for, with that application's client secret; anything else is `invalid_grant` (400).
//! A token is refused (401) by `/users/@me` once expired.
//!
//! `GET /applications/{app}/activity-instances/{instance}` answers with the bot's token what
//! Discord does: the instance's application, location (channel) and users; 404 for an
//! instance it does not know, or another application's. A host page opens its instance (in
//! its channel) or joins it before it launches the Activity; a `LAUNCH_ACTIVITY` answer opens
//! one in the interaction's channel, or joins the newest running there, as Discord runs one
//! per channel; tests open others ([`crate::FakeDiscord::open_activity_instance`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde_json::{Value, json};

use super::{ALICE, APP, BOB, CAROL, Member, TOKEN, lock};

/// The client secret of the fake's application ([`APP`]).
pub const CLIENT_SECRET: &str = "fake-client-secret";
/// Another application, whose codes the bot must not be able to use.
pub const OTHER_APP: u64 = 900_101;
/// The other application's client secret.
pub const OTHER_SECRET: &str = "other-client-secret";
/// How long an access token lasts unless a test says otherwise.
const TOKEN_LIFETIME: Duration = Duration::from_secs(7 * 24 * 3600);

/// A code issued by `AUTHORIZE`.
#[derive(Clone, Debug)]
struct Code {
    app: u64,
    user: Member,
    used: bool,
    /// The lifetime of the token this code is exchanged for.
    token_lifetime: Duration,
}

#[derive(Clone, Debug)]
struct Token {
    app: u64,
    user: Member,
    until: Instant,
}

/// An Activity instance: its application, its channel, and its users (hosts open on it, in
/// the order they came).
#[derive(Clone, Debug)]
struct Instance {
    app: u64,
    channel: u64,
    users: Vec<u64>,
    /// When it opened, in the fake's order: the newest of a channel is the one running there.
    opened: u64,
}

/// One request to the OAuth2 routes: (method and path, status answered).
pub type OAuthCall = (String, u16);

#[derive(Default)]
pub(crate) struct OAuth {
    next: Mutex<u64>,
    codes: Mutex<HashMap<String, Code>>,
    tokens: Mutex<HashMap<String, Token>>,
    /// Each Activity instance: opened by a host page's launch or by a test.
    instances: Mutex<HashMap<String, Instance>>,
    calls: Mutex<Vec<OAuthCall>>,
}

fn members() -> [Member; 3] {
    [ALICE, BOB, CAROL]
}

fn member(id: u64) -> Option<Member> {
    members().into_iter().find(|m| m.id == id)
}

impl OAuth {
    fn fresh(&self, prefix: &str) -> String {
        let mut next = lock(&self.next);
        *next += 1;
        format!("{prefix}{:012}", *next)
    }

    pub(crate) fn issue_code(&self, app: u64, user: Member, token_lifetime: Duration) -> String {
        let code = self.fresh("code");
        lock(&self.codes).insert(
            code.clone(),
            Code {
                app,
                user,
                used: false,
                token_lifetime,
            },
        );
        code
    }

    /// Opens (or joins) Activity instance `id` of `app` in `channel` with `users`.
    pub(crate) fn open_instance(&self, id: &str, app: u64, channel: u64, users: &[u64]) {
        let mut instances = lock(&self.instances);
        let opened = instances.len() as u64;
        let instance = instances.entry(id.to_owned()).or_insert(Instance {
            app,
            channel,
            users: Vec::new(),
            opened,
        });
        for user in users {
            if !instance.users.contains(user) {
                instance.users.push(*user);
            }
        }
    }

    /// `LAUNCH_ACTIVITY` answered for `user` in `channel`: the instance of `app` running there
    /// (the newest), joined, or a new one, in Discord's shape of id. Returns its id.
    pub(crate) fn launch_instance(&self, app: u64, channel: u64, user: u64) -> String {
        let running = lock(&self.instances)
            .iter()
            .filter(|(_, i)| i.app == app && i.channel == channel)
            .max_by_key(|(_, i)| i.opened)
            .map(|(id, _)| id.clone());
        let id = running.unwrap_or_else(|| {
            let n = self.fresh("");
            format!("i-{n}-gc-{}-{channel}", super::GUILD)
        });
        self.open_instance(&id, app, channel, &[user]);
        id
    }

    pub(crate) fn calls(&self) -> Vec<OAuthCall> {
        lock(&self.calls).clone()
    }

    fn record(&self, what: &str, status: StatusCode) {
        lock(&self.calls).push((what.to_owned(), status.as_u16()));
    }

    fn token_owner(&self, token: &str) -> Option<Token> {
        lock(&self.tokens)
            .get(token)
            .filter(|t| t.until > Instant::now())
            .cloned()
    }
}

pub(crate) fn routes(oauth: Arc<OAuth>) -> Router {
    Router::new()
        .route("/api/v10/oauth2/token", post(token))
        .route("/api/v10/users/@me", get(me))
        .route("/api/v10/applications/@me", get(application))
        .route(
            "/api/v10/applications/{app}/activity-instances/{instance}",
            get(activity_instance),
        )
        .route("/activity-host", get(host))
        .route("/host/authorize", post(host_authorize))
        .route("/host/authenticate", post(host_authenticate))
        .route("/host/participants", get(host_participants))
        .with_state(oauth)
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

async fn token(
    State(oauth): State<Arc<OAuth>>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
    let secret_of = |app: u64| match app {
        APP => Some(CLIENT_SECRET),
        OTHER_APP => Some(OTHER_SECRET),
        _ => None,
    };
    let client: Option<u64> = field("client_id").parse().ok();
    let answer = if field("grant_type") != "authorization_code" {
        oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "only authorization_code",
        )
    } else if client.and_then(secret_of) != Some(field("client_secret")) {
        oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "unknown client or wrong secret",
        )
    } else {
        let mut codes = lock(&oauth.codes);
        match codes.get_mut(field("code")) {
            Some(code) if !code.used && Some(code.app) == client => {
                code.used = true;
                let access = oauth.fresh("access");
                lock(&oauth.tokens).insert(
                    access.clone(),
                    Token {
                        app: code.app,
                        user: code.user,
                        until: Instant::now() + code.token_lifetime,
                    },
                );
                (
                    StatusCode::OK,
                    Json(json!({
                        "access_token": access,
                        "token_type": "Bearer",
                        "expires_in": code.token_lifetime.as_secs(),
                        "refresh_token": oauth.fresh("refresh"),
                        "scope": "identify guilds applications.commands",
                    })),
                )
                    .into_response()
            }
            // Forged, used before, or issued for another application.
            _ => oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "Invalid \"code\" in request.",
            ),
        }
    };
    oauth.record("POST /oauth2/token", answer.status());
    answer
}

fn bearer(headers: &HeaderMap) -> &str {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default()
}

async fn me(State(oauth): State<Arc<OAuth>>, headers: HeaderMap) -> Response {
    let answer = match oauth.token_owner(bearer(&headers)) {
        Some(token) => Json(super::user_json(token.user)).into_response(),
        None => (
            StatusCode::UNAUTHORIZED,
            Json(json!({"code": 0, "message": "401: Unauthorized"})),
        )
            .into_response(),
    };
    oauth.record("GET /users/@me", answer.status());
    answer
}

async fn application(State(oauth): State<Arc<OAuth>>, headers: HeaderMap) -> Response {
    let bot = headers
        .get(header::AUTHORIZATION)
        .is_some_and(|v| v.as_bytes() == format!("Bot {TOKEN}").as_bytes());
    let answer = if bot {
        Json(application_json(APP)).into_response()
    } else {
        (
            StatusCode::UNAUTHORIZED,
            Json(json!({"code": 0, "message": "401: Unauthorized"})),
        )
            .into_response()
    };
    oauth.record("GET /applications/@me", answer.status());
    answer
}

/// `GET /applications/{app}/activity-instances/{instance}` with the bot's token: the instance,
/// if it is one of that application's (the bot's token asks only about its own application).
async fn activity_instance(
    State(oauth): State<Arc<OAuth>>,
    axum::extract::Path((app, instance)): axum::extract::Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let bot = headers
        .get(header::AUTHORIZATION)
        .is_some_and(|v| v.as_bytes() == format!("Bot {TOKEN}").as_bytes());
    let found = lock(&oauth.instances)
        .get(&instance)
        .filter(|i| app == APP.to_string() && i.app == APP)
        .cloned();
    let answer = match (bot, found) {
        (false, _) => (
            StatusCode::UNAUTHORIZED,
            Json(json!({"code": 0, "message": "401: Unauthorized"})),
        )
            .into_response(),
        (true, None) => (
            StatusCode::NOT_FOUND,
            Json(json!({"code": 10_090, "message": "Unknown Activity Instance"})),
        )
            .into_response(),
        (true, Some(found)) => Json(json!({
            "application_id": found.app.to_string(),
            "instance_id": instance,
            "launch_id": format!("{}", 1_000_000 + found.channel % 1000),
            "location": {
                "id": format!("gc-{}-{}", super::GUILD, found.channel),
                "kind": "gc",
                "channel_id": found.channel.to_string(),
                "guild_id": super::GUILD.to_string(),
            },
            "users": found.users.iter().map(u64::to_string).collect::<Vec<_>>(),
        }))
        .into_response(),
    };
    oauth.record("GET /activity-instances", answer.status());
    answer
}

fn application_json(app: u64) -> Value {
    json!({"id": app.to_string(), "name": "jieqi", "description": "Jieqi, Xiangqi and Banqi",
           "icon": null, "bot_public": true, "bot_require_code_grant": false,
           "verify_key": "00", "flags": 0})
}

/// The host's "Discord client" signs its user in: a code for `client_id`.
async fn host_authorize(State(oauth): State<Arc<OAuth>>, Json(asked): Json<Value>) -> Response {
    let client: Option<u64> = asked["client_id"].as_str().and_then(|c| c.parse().ok());
    let user = asked["user"]
        .as_str()
        .and_then(|u| u.parse().ok())
        .and_then(member);
    match (client, user) {
        (Some(app), Some(user)) => {
            Json(json!({"code": oauth.issue_code(app, user, TOKEN_LIFETIME)})).into_response()
        }
        _ => (StatusCode::BAD_REQUEST, "client_id and user").into_response(),
    }
}

/// `AUTHENTICATE`'s answer for an access token: its user, scopes and application.
async fn host_authenticate(State(oauth): State<Arc<OAuth>>, Json(asked): Json<Value>) -> Response {
    let Some(token) = asked["access_token"]
        .as_str()
        .and_then(|t| oauth.token_owner(t))
    else {
        return (StatusCode::UNAUTHORIZED, "no such token").into_response();
    };
    let mut user = super::user_json(token.user);
    user["public_flags"] = json!(0);
    Json(json!({
        "access_token": asked["access_token"],
        "user": user,
        "scopes": ["identify", "guilds", "applications.commands"],
        "expires": "2099-01-01T00:00:00.000000+00:00",
        "application": application_json(token.app),
    }))
    .into_response()
}

#[derive(serde::Deserialize)]
struct Participants {
    instance: String,
    user: u64,
    channel: u64,
}

/// The users on an Activity instance: a host launching the bot's Activity in its channel opens
/// the instance or joins it the first time it asks.
async fn host_participants(
    State(oauth): State<Arc<OAuth>>,
    Query(asked): Query<Participants>,
) -> Response {
    oauth.open_instance(&asked.instance, APP, asked.channel, &[asked.user]);
    let users = lock(&oauth.instances)
        .get(&asked.instance)
        .map(|i| i.users.clone())
        .unwrap_or_default();
    let participants: Vec<Value> = users
        .iter()
        .filter_map(|id| member(*id))
        .map(|m| {
            json!({"id": m.id.to_string(), "username": m.name, "global_name": null,
                   "discriminator": "0", "avatar": null, "flags": 0, "bot": false,
                   "nickname": m.name})
        })
        .collect();
    Json(json!({ "participants": participants })).into_response()
}

/// The host page: `?activity=<the Activity's address>&user=<id>&instance=<id>&platform=&channel=`.
async fn host() -> Response {
    Html(HOST_PAGE).into_response()
}

const HOST_PAGE: &str = include_str!("activity_host.html");
