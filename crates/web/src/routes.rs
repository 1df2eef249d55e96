//! The HTTP routes:
//!
//! | route | what |
//! |---|---|
//! | `GET /g/<game>` | the game's page (HTML; `?lang=en\|zh\|vi`, else the browser's, else the chat's) |
//! | `GET /g/<game>/state` | the page's state as JSON |
//! | `GET /g/<game>/live` | Server-Sent Events: one `page` event per new revision, `id` the revision |
//! | `GET /g/<game>/board/<ply>.png` | the public board after `ply` moves (`?w=`, `o=red\|black`, `s=characters\|symbols`; `end=1`: a finished game's last position as its end revealed it) |
//! | `GET /assets/<name>` | the script, style sheet and icon, by content hash |
//!
//! Every answer carries the page's Content-Security-Policy. Bad input (an id that is not one,
//! a ply past the game, an odd width) is a 4xx with a sentence saying what is wrong; a store
//! failure is a 503 that says to try again.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use jieqi_service::{GameId, Language, Service, ServiceError};
use tokio_util::sync::CancellationToken;

use crate::WebConfig;
use crate::assets::Assets;
use crate::boards::{BOARD_WIDTHS, BoardCache, BoardKey, RenderKey};
use crate::limits::{StreamLimits, StreamPermit};
use crate::live::{Following, Hub, STILL_HERE, Wake};
use crate::net::Peer;
use crate::page::{LABELS, PageParts, game_page, message_page};

/// Only our own files (a player's boards arrive as `blob:` pictures, fetched with their
/// credential); who may frame the page follows (`frame-ancestors`, see [`Site::new`]).
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'";
/// Telegram's web client, which shows Mini Apps in a frame.
const TELEGRAM_CLIENT: &str = "https://web.telegram.org";
/// How often an idle stream sends a comment, so proxies keep it open and a dead client is
/// noticed.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// The longest `Last-Event-ID` read; anything longer is not one of ours.
const EVENT_ID_LIMIT: usize = 20;

/// Everything the routes share.
#[derive(Debug)]
pub(crate) struct Site {
    pub service: Service,
    pub config: WebConfig,
    pub assets: Assets,
    pub hub: Arc<Hub>,
    pub limits: Arc<StreamLimits>,
    pub boards: BoardCache,
    /// Players' actions per person.
    pub actions: crate::players::ActionLimits,
    /// Cancelled when the server stops serving: its open streams end (a new token for each
    /// `serve`).
    pub stopping: std::sync::Mutex<CancellationToken>,
    /// The Discord Activity's sign-in, when the Activity is on.
    pub discord: Option<jieqi_discord::DiscordOAuth>,
    /// Every page's policy: Telegram's web client may frame it, and Discord's clients too
    /// while the Activity is on (a game opened in the Activity is this page).
    pub policy: HeaderValue,
    /// The Activity's own page's policy: framed by Discord's clients and nothing else.
    pub activity_policy: HeaderValue,
}

impl Site {
    pub(crate) fn new(
        service: Service,
        config: WebConfig,
        discord: Option<jieqi_discord::DiscordOAuth>,
    ) -> Site {
        let discord_clients = config.discord_client_origins.join(" ");
        let framing = match &discord {
            Some(_) => format!("{TELEGRAM_CLIENT} {discord_clients}"),
            None => TELEGRAM_CLIENT.to_owned(),
        };
        let policy = |ancestors: &str| {
            HeaderValue::from_str(&format!(
                "{CONTENT_SECURITY_POLICY}; frame-ancestors {ancestors}"
            ))
            .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"))
        };
        Site {
            policy: policy(&framing),
            activity_policy: policy(&discord_clients),
            discord,
            hub: Hub::new(service.clone()),
            limits: StreamLimits::new(config.streams_per_address, config.max_streams),
            service,
            config,
            assets: Assets::load(),
            boards: BoardCache::default(),
            actions: crate::players::ActionLimits::default(),
            stopping: std::sync::Mutex::new(CancellationToken::new()),
        }
    }
}

pub(crate) fn router(site: Arc<Site>) -> Router {
    Router::new()
        .route("/g/{game}", get(page))
        .route("/g/{game}/state", get(state))
        .route("/g/{game}/live", get(live))
        .route("/g/{game}/board/{file}", get(board))
        .route("/assets/{name}", get(asset))
        .merge(crate::players::routes())
        .merge(crate::activity::routes())
        .merge(crate::tournaments::routes())
        .fallback(not_found)
        .layer(axum::middleware::map_response_with_state(
            site.clone(),
            secure,
        ))
        .with_state(site)
}

/// The page's policy on every answer (the Activity's routes set their own first).
async fn secure(State(site): State<Arc<Site>>, mut response: Response) -> Response {
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, site.policy.clone());
    }
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A query's value for `key`.
pub(crate) fn query_value(query: Option<&str>, key: &str) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}

/// The language asked for: `?lang=`, else the first of the browser's that we speak.
pub(crate) fn asked_language(query: Option<&str>, headers: &HeaderMap) -> Option<Language> {
    if let Some(lang) = query_value(query, "lang").and_then(|l| Language::from_tag(&l)) {
        return Some(lang);
    }
    let accepted = headers.get(header::ACCEPT_LANGUAGE)?.to_str().ok()?;
    accepted
        .split(',')
        .filter(|item| !item.contains("q=0") || item.contains("q=0."))
        .filter_map(|item| Language::from_tag(item.split(';').next().unwrap_or_default()))
        .next()
}

/// A page of text with a status.
pub(crate) fn message(site: &Site, status: StatusCode, language: Language, text: &str) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        message_page(&site.assets, language, text),
    )
        .into_response()
}

pub(crate) fn unavailable(site: &Site, language: Language, e: &ServiceError) -> Response {
    tracing::warn!("a web page could not be built: {e}");
    let mut response = message(
        site,
        StatusCode::SERVICE_UNAVAILABLE,
        language,
        &e.to_string(),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// The id of a path segment, or the 404 saying it is not one (`bad_id`: the sentence's key,
/// which names the id's form).
pub(crate) fn path_id<T: std::str::FromStr>(
    site: &Site,
    text: &str,
    language: Language,
    bad_id: &str,
) -> Result<T, Box<Response>> {
    text.parse().map_err(|_| {
        let shown: String = text.chars().take(32).collect();
        Box::new(message(
            site,
            StatusCode::NOT_FOUND,
            language,
            &site
                .service
                .text(language, bad_id, &[("text", shown.as_str())]),
        ))
    })
}

/// The game of a path segment, or the answer saying it is not one.
fn game_id(site: &Site, text: &str, language: Language) -> Result<GameId, Box<Response>> {
    path_id(site, text, language, "web-bad-id")
}

fn no_such_game(site: &Site, game: &GameId, language: Language) -> Response {
    message(
        site,
        StatusCode::NOT_FOUND,
        language,
        &site
            .service
            .text(language, "web-not-found", &[("game", game.as_str())]),
    )
}

/// What a request for a page asks: the id (`bad_id` names the sentence refusing one that is
/// not), the language asked for (if any), and the language to answer a refusal in; or the
/// answer saying the id is not one.
pub(crate) fn asked_id<T: std::str::FromStr>(
    site: &Site,
    text: &str,
    query: Option<&str>,
    headers: &HeaderMap,
    bad_id: &str,
) -> Result<(T, Option<Language>, Language), Box<Response>> {
    let asked = asked_language(query, headers);
    let fallback = asked.unwrap_or_default();
    Ok((path_id(site, text, fallback, bad_id)?, asked, fallback))
}

/// [`asked_id`] of a game.
fn asked_game(
    site: &Site,
    text: &str,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Result<(GameId, Option<Language>, Language), Box<Response>> {
    asked_id(site, text, query, headers, "web-bad-id")
}

/// The page of `game` in the language asked for, or the chat's.
async fn built_page(
    site: &Site,
    game: &GameId,
    asked: Option<Language>,
) -> Result<Option<(Language, crate::live::BuiltPage)>, ServiceError> {
    let language = match asked {
        Some(language) => language,
        // The chat's language (two reads, not a page built only to learn it).
        None => match site.service.game_language(game).await? {
            Some(language) => language,
            None => return Ok(None),
        },
    };
    Ok(site
        .hub
        .page(game, language, 0)
        .await?
        .map(|page| (language, page)))
}

async fn page(
    State(site): State<Arc<Site>>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let (game, asked, fallback) = match asked_game(&site, &game, query.as_deref(), &headers) {
        Ok(asked) => asked,
        Err(response) => return *response,
    };
    let (language, built) = match built_page(&site, &game, asked).await {
        Ok(Some(found)) => found,
        Ok(None) => return no_such_game(&site, &game, fallback),
        Err(e) => return unavailable(&site, fallback, &e),
    };
    let state = &built.page;
    let names: Vec<&str> = state.players.iter().map(|p| p.name.as_str()).collect();
    let title = format!(
        "{} · {}",
        site.service
            .text(language, "web-title", &[("game", game.as_str())]),
        names.join(" – ")
    );
    let base = &site.config.public_url;
    let preview = format!(
        "{base}/g/{game}/board/{}.png?w=720&o={}&s={}{}",
        state.moves.len(),
        state.board.orientation,
        state.board.style,
        if state.finished { "&end=1" } else { "" }
    );
    let labels = LABELS
        .iter()
        .map(|key| (*key, site.service.text(language, key, &[])))
        .collect();
    let parts = PageParts {
        assets: &site.assets,
        language,
        title,
        preview,
        url: format!("{base}/g/{game}"),
        labels,
        state_json: &built.json,
    };
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Never kept past a move: asked again each time, answered from memory.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        game_page(state, &parts),
    )
        .into_response()
}

async fn state(
    State(site): State<Arc<Site>>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let (game, asked, fallback) = match asked_game(&site, &game, query.as_deref(), &headers) {
        Ok(asked) => asked,
        Err(response) => return *response,
    };
    match built_page(&site, &game, asked).await {
        Ok(Some((_, built))) => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            built.json.to_string(),
        )
            .into_response(),
        Ok(None) => no_such_game(&site, &game, fallback),
        Err(e) => unavailable(&site, fallback, &e),
    }
}

/// The revision a reconnecting client last saw: `Last-Event-ID`, if it is one of ours.
pub(crate) fn last_event_id(headers: &HeaderMap) -> Option<u64> {
    let value = headers.get("last-event-id")?.to_str().ok()?.trim();
    if value.len() > EVENT_ID_LIMIT {
        return None;
    }
    value.parse().ok()
}

/// What a stream holds while open.
struct Stream {
    /// The server stopping (a child of its token: each stream waits on its own).
    stopping: CancellationToken,
    /// When to send a comment next: every [`KEEP_ALIVE`], set once per stream rather than
    /// once per event.
    keep_alive: Pin<Box<tokio::time::Sleep>>,
    site: Arc<Site>,
    game: GameId,
    language: Language,
    following: Following,
    /// The revision the client has.
    sent: u64,
    _permit: StreamPermit,
}

async fn live(
    State(site): State<Arc<Site>>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let (game, asked, fallback) = match asked_game(&site, &game, query.as_deref(), &headers) {
        Ok(asked) => asked,
        Err(response) => return *response,
    };
    let forwarded = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let Some(permit) = site.limits.admit(peer.client(forwarded)) else {
        let mut response = message(
            &site,
            StatusCode::TOO_MANY_REQUESTS,
            fallback,
            &site.service.text(fallback, "web-too-many", &[]),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
        return response;
    };
    let (language, current) = match built_page(&site, &game, asked).await {
        Ok(Some(found)) => found,
        Ok(None) => return no_such_game(&site, &game, fallback),
        Err(e) => return unavailable(&site, fallback, &e),
    };
    // A client back from a dropped connection has what it saw; one that claims a revision
    // the game never had gets everything again.
    let sent = last_event_id(&headers)
        .filter(|&seen| seen <= current.revision)
        .unwrap_or(0);
    let following = site.hub.follow(&game, language, current.revision);
    let stopping = match site.stopping.lock() {
        Ok(token) => token.child_token(),
        Err(poisoned) => poisoned.into_inner().child_token(),
    };
    let stream = Stream {
        stopping,
        keep_alive: Box::pin(tokio::time::sleep(KEEP_ALIVE)),
        site: site.clone(),
        game,
        language,
        following,
        sent,
        _permit: permit,
    };
    // The events are framed once per revision and shared: each stream writes the same bytes.
    let events = futures_util::stream::unfold(stream, next_event);
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-store"),
            // Proxies (nginx) pass each event on at once.
            (header::HeaderName::from_static("x-accel-buffering"), "no"),
        ],
        Body::from_stream(events),
    )
        .into_response()
}

/// The stream's next bytes: the newest page once it is newer than what the client has, or a
/// comment every [`KEEP_ALIVE`] (proxies keep the connection, a dead client is noticed).
async fn next_event(mut stream: Stream) -> Option<(Result<Bytes, Infallible>, Stream)> {
    loop {
        let revisions = stream.following.revisions.as_mut()?;
        let latest = *revisions.borrow_and_update();
        if latest > stream.sent {
            // Thousands of streams wake for one revision: the page built for the first is
            // read from the follower's slot; only a missing one is built (boxed: rare, and a
            // big future).
            let page = match stream.following.kept_page(latest) {
                Some(page) => Ok(Some(page)),
                None => Box::pin(stream.site.hub.page(&stream.game, stream.language, latest)).await,
            };
            match page {
                Ok(Some(page)) if page.revision > stream.sent => {
                    stream.sent = page.revision;
                    return Some((Ok(page.event), stream));
                }
                Ok(_) => {}
                // The store is away: the next revision (or the client's reconnection) tries
                // again.
                Err(e) => tracing::warn!(game = %stream.game, "a live page failed: {e}"),
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

/// The board a picture's path and query ask for, the public's and a player's alike: the ply
/// (`<ply>.png`), the width (`w=`, 480 if none) and whether it is a finished game's end
/// (`end=1`); or what is wrong with them.
pub(crate) fn board_position(
    file: &str,
    query: Option<&str>,
) -> Result<(usize, u32, bool), String> {
    let Some(ply) = file
        .strip_suffix(".png")
        .filter(|n| n.len() <= 5)
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return Err(format!(
            "“{}” is not a board: ask for <number of moves>.png, like 12.png",
            file.chars().take(32).collect::<String>()
        ));
    };
    let width = match query_value(query, "w") {
        None => 480,
        Some(w) => match w.parse::<u32>() {
            Ok(w) if BOARD_WIDTHS.contains(&w) => w,
            _ => {
                return Err(format!(
                    "a board is drawn {BOARD_WIDTHS:?} pixels wide: w= one of those"
                ));
            }
        },
    };
    let ended = match query_value(query, "end").as_deref() {
        None => false,
        Some("1") => true,
        Some(_) => return Err("end=1 asks for a finished game's last position".to_owned()),
    };
    Ok((ply, width, ended))
}

async fn board(
    State(site): State<Arc<Site>>,
    Path((game, file)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    let bad = |text: String| {
        (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            text,
        )
            .into_response()
    };
    let game = match game_id(&site, &game, Language::default()) {
        Ok(game) => game,
        Err(response) => return *response,
    };
    let query = query.as_deref();
    let (ply, width, ended) = match board_position(&file, query) {
        Ok(asked) => asked,
        Err(why) => return bad(why),
    };
    let black_at_bottom = match query_value(query, "o").as_deref() {
        None | Some("red") => false,
        Some("black") => true,
        Some(_) => return bad("o= is red or black: the side at the bottom".to_owned()),
    };
    let symbols = match query_value(query, "s").as_deref() {
        None | Some("characters") => false,
        Some("symbols") => true,
        Some(_) => return bad("s= is characters or symbols: how pieces are marked".to_owned()),
    };
    let key = BoardKey {
        game: game.clone(),
        ply,
        ended,
        options: RenderKey {
            width,
            black_at_bottom,
            symbols,
        },
    };
    let png = match site.boards.get(&key) {
        Some(png) => png,
        None => match site
            .service
            .public_board(&game, ply, ended, &key.options.options())
            .await
        {
            Ok(Some(png)) => {
                let png = Bytes::from(png);
                site.boards.put(key, png.clone());
                png
            }
            Ok(None) => return no_such_game(&site, &game, Language::default()),
            Err(e) => return unavailable(&site, Language::default(), &e),
        },
    };
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            // A position once played never changes.
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        png,
    )
        .into_response()
}

async fn asset(State(site): State<Arc<Site>>, Path(name): Path<String>) -> Response {
    match site.assets.get(&name) {
        Some(asset) => (
            [
                (header::CONTENT_TYPE, asset.content_type),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            asset.body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

async fn not_found(State(site): State<Arc<Site>>, headers: HeaderMap) -> Response {
    let language = asked_language(None, &headers).unwrap_or_default();
    message(
        &site,
        StatusCode::NOT_FOUND,
        language,
        &site.service.text(language, "web-no-page", &[]),
    )
}
