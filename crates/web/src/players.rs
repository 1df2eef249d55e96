//! The player's routes: a game's page as one of its players sees it, their live stream, their
//! boards, and their moves. Every route asks who is calling (`credentials`): a personal link's
//! token or Telegram's `initData`, in the `Authorization` header.
//!
//! | route | what |
//! |---|---|
//! | `GET /g/<game>/me` | the player's page state (JSON): 401 without a valid credential, 403 for someone who does not play here |
//! | `GET /g/<game>/me/live` | Server-Sent Events of the player's page, one `page` event per new revision |
//! | `GET /g/<game>/me/board/<ply>.png` | the player's own board (`?w=`, `end=1`), never cached by others |
//! | `POST /g/<game>/me/act` | `{"action": "move", "move": "h2e2", "lag_ms": 120, "key": "…"}`, `"draw"`, `"resign"` or, once the game is over, `"rematch"`: the same request as in the chat (a rematch that starts answers `next`, the player's page of the new game); `lag_ms` (optional, 0 to 10000) is the page's measured network share of its round trip, which a live game's clock gives back within its quota; the answer's `server_ms` is the bot's own time on it |
//! | `GET /app` | the Telegram Mini App's address: sends `?tgWebAppStartParam=<game>` on to the game's page |
//!
//! A player's data is built for them alone on every revision and never shared between
//! streams: a spectator's stream and another player's never carry it. Actions are limited per
//! person (`ACTIONS_PER_SECOND`, `ACTION_BURST`), on top of the service's own checks.

use std::convert::Infallible;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use jieqi_service::player_page::PlayerPage;
use jieqi_service::{
    GameId, Language, PageAction, PageActionAnswer, PageActionError, PlayerBoard, UserId,
};
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use crate::credentials::{Person, person};
use crate::limits::StreamPermit;
use crate::live::{Following, STILL_HERE, Wake, framed, json_for_html};
use crate::net::Peer;
use crate::routes::{KEEP_ALIVE, Site, asked_language, board_position, last_event_id, query_value};

/// Actions one person may send per second, on average.
const ACTIONS_PER_SECOND: u32 = 2;
/// Actions one person may send at once.
const ACTION_BURST: u32 = 8;
/// The longest action body read.
const ACTION_BODY_LONGEST: usize = 1024;

/// The per-person limit on actions.
#[derive(Debug)]
pub(crate) struct ActionLimits(DefaultKeyedRateLimiter<UserId>);

impl Default for ActionLimits {
    fn default() -> ActionLimits {
        let quota =
            Quota::per_second(NonZeroU32::new(ACTIONS_PER_SECOND).unwrap_or(NonZeroU32::MIN))
                .allow_burst(NonZeroU32::new(ACTION_BURST).unwrap_or(NonZeroU32::MIN));
        ActionLimits(RateLimiter::keyed(quota))
    }
}

pub(crate) fn routes() -> Router<Arc<Site>> {
    Router::new()
        .route("/g/{game}/me", get(my_page))
        .route("/g/{game}/me/live", get(my_live))
        .route("/g/{game}/me/board/{file}", get(my_board))
        .route("/g/{game}/me/act", post(act))
        .route("/app", get(mini_app))
}

/// A JSON answer with a status: `{"error": code, "message": sentence}`.
fn refusal(status: StatusCode, code: &str, message: &str) -> Response {
    let body = serde_json::json!({ "error": code, "message": message }).to_string();
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The person calling about `game`, or the 401 (or 404 for an id that is not one) to answer.
fn caller(
    site: &Site,
    game: &str,
    headers: &HeaderMap,
    language: Language,
) -> Result<(GameId, Person), Box<Response>> {
    let Ok(game) = game.parse::<GameId>() else {
        let shown: String = game.chars().take(32).collect();
        return Err(Box::new(refusal(
            StatusCode::NOT_FOUND,
            "not-a-game",
            &site
                .service
                .text(language, "web-bad-id", &[("text", shown.as_str())]),
        )));
    };
    let token = site
        .config
        .telegram_bot_token
        .as_ref()
        .map(|t| t.0.as_str());
    match person(headers, &game, &site.service, token, now()) {
        Ok(person) => Ok((game, person)),
        Err(why) => {
            tracing::info!(%game, "a player's credential was refused: {why}");
            Err(Box::new(unauthorized(site, language)))
        }
    }
}

fn unauthorized(site: &Site, language: Language) -> Response {
    let mut response = refusal(
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        &site.service.text(language, "web-unauthorized", &[]),
    );
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"jieqi-bot\""),
    );
    response
}

fn not_a_player(site: &Site, language: Language) -> Response {
    refusal(
        StatusCode::FORBIDDEN,
        "not-a-player",
        &site.service.text(language, "web-not-playing", &[]),
    )
}

fn unavailable(e: &dyn std::fmt::Display) -> Response {
    tracing::warn!("a player's page could not be built: {e}");
    let mut response = refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        "unavailable",
        &e.to_string(),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// The player's page as JSON safe anywhere (the same escaping as the spectators').
fn page_json(page: &PlayerPage) -> String {
    json_for_html(page)
}

async fn my_page(
    State(site): State<Arc<Site>>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let asked = asked_language(query.as_deref(), &headers);
    let fallback = asked.unwrap_or_default();
    let (game, person) = match caller(&site, &game, &headers, fallback) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    match site.service.player_page(&game, &person.user, asked).await {
        Ok(Some(page)) => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "private, no-store"),
            ],
            page_json(&page),
        )
            .into_response(),
        Ok(None) => not_a_player(&site, fallback),
        Err(e) => unavailable(&e),
    }
}

/// What a player's stream holds while open.
struct MyStream {
    stopping: CancellationToken,
    /// When to send a keep-alive comment next.
    keep_alive: Pin<Box<tokio::time::Sleep>>,
    site: Arc<Site>,
    game: GameId,
    player: UserId,
    language: Option<Language>,
    following: Following,
    /// The revision the client has.
    sent: u64,
    _permit: StreamPermit,
}

async fn my_live(
    State(site): State<Arc<Site>>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let asked = asked_language(query.as_deref(), &headers);
    let fallback = asked.unwrap_or_default();
    let (game, person) = match caller(&site, &game, &headers, fallback) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let revision = match site.service.player_page(&game, &person.user, asked).await {
        Ok(Some(page)) => page.page.revision,
        Ok(None) => return not_a_player(&site, fallback),
        Err(e) => return unavailable(&e),
    };
    let forwarded = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let Some(permit) = site.limits.admit(peer.client(forwarded)) else {
        return refusal(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many",
            &site.service.text(fallback, "web-too-many", &[]),
        );
    };
    let sent = last_event_id(&headers)
        .filter(|&seen| seen <= revision)
        .unwrap_or(0);
    // The game's revision signal (the public page of this language is kept with it: built
    // once per revision for everyone who watches in it).
    let following = site.hub.follow(&game, asked.unwrap_or_default(), revision);
    let stopping = match site.stopping.lock() {
        Ok(token) => token.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    let stream = MyStream {
        stopping,
        keep_alive: Box::pin(tokio::time::sleep(KEEP_ALIVE)),
        site: site.clone(),
        game,
        player: person.user,
        language: asked,
        following,
        sent,
        _permit: permit,
    };
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "private, no-store"),
            (header::HeaderName::from_static("x-accel-buffering"), "no"),
        ],
        Body::from_stream(futures_util::stream::unfold(stream, next_event)),
    )
        .into_response()
}

/// The stream's next bytes: the player's page once a newer revision is known, or a comment
/// after a quiet while. Built for this player alone, each time.
async fn next_event(mut stream: MyStream) -> Option<(Result<Bytes, Infallible>, MyStream)> {
    loop {
        let revisions = stream.following.revisions.as_mut()?;
        let latest = *revisions.borrow_and_update();
        if latest > stream.sent {
            match stream
                .site
                .service
                .player_page(&stream.game, &stream.player, stream.language)
                .await
            {
                Ok(Some(page)) if page.page.revision > stream.sent => {
                    stream.sent = page.page.revision;
                    let event = framed(page.page.revision, &page_json(&page));
                    return Some((Ok(event), stream));
                }
                Ok(Some(_)) => {}
                // Not a player any more: nothing more to say.
                Ok(None) => return None,
                Err(e) => tracing::warn!(game = %stream.game, "a player's live page failed: {e}"),
            }
        }
        match stream
            .following
            .wait(&stream.stopping, stream.keep_alive.as_mut(), KEEP_ALIVE)
            .await
        {
            Wake::Revised => {}
            Wake::Quiet => return Some((Ok(Bytes::from_static(STILL_HERE)), stream)),
            Wake::Ended => return None,
        }
    }
}

async fn my_board(
    State(site): State<Arc<Site>>,
    Path((game, file)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let fallback = asked_language(None, &headers).unwrap_or_default();
    let (game, person) = match caller(&site, &game, &headers, fallback) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let (ply, width, ended) = match board_position(&file, query.as_deref()) {
        Ok(asked) => asked,
        Err(why) => return refusal(StatusCode::BAD_REQUEST, "bad-board", &why),
    };
    match site
        .service
        .player_board(&game, &person.user, ply, ended, width)
        .await
    {
        Ok(PlayerBoard::Drawn(png)) => (
            [
                (header::CONTENT_TYPE, "image/png"),
                // Theirs alone: no shared cache keeps it.
                (header::CACHE_CONTROL, "private, no-store"),
            ],
            png,
        )
            .into_response(),
        // As on every other player's route: a valid credential of someone else.
        Ok(PlayerBoard::NotAPlayer) => not_a_player(&site, fallback),
        Ok(PlayerBoard::NoSuchPosition) => refusal(
            StatusCode::NOT_FOUND,
            "no-board",
            "there is no such position of this game for you",
        ),
        Err(e) => unavailable(&e),
    }
}

/// An action as the page sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    action: String,
    #[serde(rename = "move")]
    mv: Option<String>,
    key: String,
    /// With a move: the page's measured round trip to the bot, less the bot's own time
    /// (`server_ms` of earlier answers), in whole milliseconds.
    lag_ms: Option<u64>,
}

async fn act(
    State(site): State<Arc<Site>>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let arrived = Instant::now();
    let fallback = asked_language(query.as_deref(), &headers).unwrap_or_default();
    let (game, person) = match caller(&site, &game, &headers, fallback) {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let bad = |reason: &str| {
        refusal(
            StatusCode::BAD_REQUEST,
            "bad-action",
            &site
                .service
                .text(fallback, "web-bad-action", &[("reason", reason)]),
        )
    };
    if body.len() > ACTION_BODY_LONGEST {
        return bad("the action is too long");
    }
    let body: ActionBody = match serde_json::from_slice(&body) {
        Ok(body) => body,
        Err(_) => {
            return bad(
                "an action is JSON: {\"action\": \"move\", \"move\": \"h2e2\", \"lag_ms\": 120, \"key\": \"…\"}",
            );
        }
    };
    let action = match (body.action.as_str(), body.mv, body.lag_ms) {
        ("move", Some(play), lag) => PageAction::Move {
            play,
            lag: Duration::from_millis(lag.unwrap_or(0)),
        },
        ("draw", None, None) => PageAction::OfferDraw,
        ("resign", None, None) => PageAction::Resign,
        ("rematch", None, None) => PageAction::Rematch,
        _ => {
            return bad("the action is move (with a move and its lag_ms), draw, resign or rematch");
        }
    };
    if site.actions.0.check_key(&person.user).is_err() {
        let mut response = refusal(
            StatusCode::TOO_MANY_REQUESTS,
            "too-fast",
            &site.service.text(fallback, "web-too-fast", &[]),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
        return response;
    }
    let answer = match site
        .service
        .act_on_page(&game, &person.user, &action, &body.key)
        .await
    {
        Ok(answer) => answer,
        Err(PageActionError::NoGame | PageActionError::NotAPlayer) => {
            return not_a_player(&site, fallback);
        }
        Err(PageActionError::Malformed(reason)) => return bad(reason),
        Err(PageActionError::Service(e)) => return unavailable(&e),
    };
    // The bot's own time on the action, so that the page can tell its network's share of
    // the round trip (the lag it reports with its next move).
    let server_ms = arrived.elapsed().as_millis();
    let body = match answer {
        PageActionAnswer::Done(said) => {
            serde_json::json!({ "done": true, "said": said, "server_ms": server_ms })
        }
        PageActionAnswer::Refused(reason) => {
            serde_json::json!({ "done": false, "refused": reason, "server_ms": server_ms })
        }
        // The page follows to the new game: the player's own link to it, or its page (a
        // Mini App's sign-in holds for any game).
        PageActionAnswer::Rematched { game, link } => serde_json::json!({
            "done": true,
            "said": [],
            "game": game.as_str(),
            "next": link.unwrap_or_else(|| format!("/g/{game}")),
            "server_ms": server_ms,
        }),
    };
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// The Mini App's address (`<PUBLIC_URL>/app`, set with BotFather): Telegram opens it with
/// `?tgWebAppStartParam=<game>` and `#tgWebAppData=…`; the game's page takes over, and the
/// browser keeps the fragment across the redirect.
async fn mini_app(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let language = asked_language(None, &headers).unwrap_or_default();
    match query_value(query.as_deref(), "tgWebAppStartParam").map(|p| p.parse::<GameId>()) {
        Some(Ok(game)) => (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, format!("/g/{game}")),
                (header::CACHE_CONTROL, "no-store".to_owned()),
            ],
        )
            .into_response(),
        _ => crate::routes::message(
            &site,
            StatusCode::NOT_FOUND,
            language,
            &site.service.text(language, "web-no-page", &[]),
        ),
    }
}
