//! The bot's Discord Activity: the board inside Discord. Discord frames `PUBLIC_URL` through
//! its proxy (`<application id>.discordsays.com`, the URL mapping's root) and the page signs
//! the user in with the Embedded App SDK; it is on while `DISCORD_CLIENT_SECRET` is set.
//!
//! | route | what |
//! |---|---|
//! | `GET /activity`, `GET /?frame_id=…` | the Activity's page (the SDK's launch parameters in the query) |
//! | `POST /activity/session` | `{"code", "instance", "channel"}` from the SDK (`authorize`'s code, `instanceId`, `channelId`): the bot exchanges the code with Discord, asks Discord about the instance, and answers the access token (for the SDK's `authenticate`), the user and their pass for that channel |
//! | `GET /activity/games?channel=<id>` | the games the Activity lists: the person's own (each with its personal link's token), the channel's running and finished ones, and `launched`: the game the pass's Activity instance was launched on ("Play in Discord"), with the person's token if they play it, or `null` |
//! | `POST /activity/challenge` | `{"channel", "opponent": "<user id>" or "bot", "name", "variant", "key"}`: the chat's `/challenge` (or `/play bot`) in that channel |
//!
//! The pass (`Authorization: Bearer <pass>`) names the person, the Activity instance and the
//! one channel Discord showed them in (asked at sign-in with the bot's token: the instance
//! must be ours, run in the channel named and have the person among its users, else 403); it
//! lapses after an hour and acts in no game. The game the instance was launched on is read
//! from the store with the instance the pass names, never one the page names, and only if it
//! is a game of the pass's channel: a person sees the launch of their own instance only. Listing or challenging in any other
//! channel is 403. Playing is the game's page with the personal link's token, exactly as
//! from a personal link: the same `/me` routes, checks and refusals. A forged, used or
//! foreign code is refused by Discord, and here with 401; so is a pass that is forged,
//! expired or not one.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jieqi_discord::{DiscordOAuth, SignInError};
use jieqi_service::activity::{ActivityAnswer, ActivityPass, Opponent};
use jieqi_service::ids::ActivityInstanceId;
use jieqi_service::{ChatId, GameId, Language, Platform, User, UserId};
use serde::{Deserialize, Serialize};

use crate::page::{ACTIVITY_LABELS, activity_page};
use crate::routes::{Site, asked_language, message, query_value};

/// The longest body read.
const BODY_LONGEST: usize = 2048;

pub(crate) fn routes() -> Router<Arc<Site>> {
    Router::new()
        .route("/", get(launched))
        .route("/activity", get(page))
        .route("/activity/session", post(session))
        .route("/activity/games", get(games))
        .route("/activity/challenge", post(challenge))
}

/// A JSON answer with the Activity's policy.
fn json(site: &Site, status: StatusCode, body: &impl Serialize) -> Response {
    let mut response = (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "private, no-store"),
        ],
        serde_json::to_string(body).unwrap_or_default(),
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        site.activity_policy.clone(),
    );
    response
}

fn refusal(site: &Site, status: StatusCode, code: &str, message: &str) -> Response {
    let mut response = json(
        site,
        status,
        &serde_json::json!({ "error": code, "message": message }),
    );
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"jieqi-bot activity\""),
        );
    }
    response
}

fn language(query: Option<&str>, headers: &HeaderMap) -> Language {
    asked_language(query, headers).unwrap_or_default()
}

/// `/` as Discord opens it (the URL mapping's root, with `frame_id`): the Activity; anything
/// else there is the usual "no such page".
async fn launched(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if query_value(query.as_deref(), "frame_id").is_some() {
        return page(State(site), RawQuery(query), headers).await;
    }
    let language = language(None, &headers);
    message(
        &site,
        StatusCode::NOT_FOUND,
        language,
        &site.service.text(language, "web-no-page", &[]),
    )
}

async fn page(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let language = language(query.as_deref(), &headers);
    let Some(discord) = &site.discord else {
        return message(
            &site,
            StatusCode::NOT_FOUND,
            language,
            &site.service.text(language, "web-no-page", &[]),
        );
    };
    let client_id = match discord.client_id().await {
        Ok(id) => id,
        Err(e) => {
            tracing::warn!("the Activity cannot learn its application id: {e}");
            let mut response = message(
                &site,
                StatusCode::SERVICE_UNAVAILABLE,
                language,
                &e.to_string(),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return response;
        }
    };
    let labels: Vec<(&str, String)> = ACTIVITY_LABELS
        .iter()
        .map(|key| (*key, site.service.text(language, key, &[])))
        .collect();
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        activity_page(&site.assets, language, client_id, &labels),
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        site.activity_policy.clone(),
    );
    response
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionBody {
    code: String,
    /// The SDK's `instanceId`.
    instance: String,
    /// The SDK's `channelId`.
    channel: String,
}

#[derive(Serialize)]
struct SignedIn {
    access_token: String,
    expires_in: u64,
    user: Person,
    pass: String,
    /// When the pass lapses (Unix seconds).
    expires: u64,
    /// The channel the pass is for.
    channel: String,
    /// The Activity instance the pass is for.
    instance: String,
}

#[derive(Serialize)]
struct Person {
    id: String,
    name: String,
}

async fn session(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let language = language(query.as_deref(), &headers);
    let Some(discord) = &site.discord else {
        return refusal(
            &site,
            StatusCode::NOT_FOUND,
            "no-activity",
            "the Activity is off",
        );
    };
    let bad = |why: &str| refusal(&site, StatusCode::BAD_REQUEST, "bad-sign-in", why);
    if body.len() > BODY_LONGEST {
        return bad("the body is too long");
    }
    let Ok(asked) = serde_json::from_slice::<SessionBody>(&body) else {
        return bad(
            "a sign-in is JSON: {\"code\": \"<the code from the SDK's authorize>\", \"instance\": \"<the SDK's instanceId>\", \"channel\": \"<the SDK's channelId>\"}",
        );
    };
    let chat = match channel(&asked.channel) {
        Ok(chat) => chat,
        Err(why) => return bad(why),
    };
    // The instance's shape first, so a malformed one costs no exchange of the code and never
    // goes into the address asked.
    let Ok(instance) = asked.instance.parse::<ActivityInstanceId>() else {
        return bad("instance is the SDK's instanceId");
    };
    let account = match admitted(discord, &asked, &instance).await {
        Ok(account) => account,
        Err(Refused::NotInChannel(why)) => {
            tracing::info!(
                "an Activity sign-in for channel {} was refused: {why}",
                asked.channel
            );
            return refusal(
                &site,
                StatusCode::FORBIDDEN,
                "not-in-channel",
                &site.service.text(language, "activity-sign-in-failed", &[]),
            );
        }
        Err(Refused::SignIn(SignInError::NotACode)) => {
            return bad("that is not an authorization code");
        }
        Err(Refused::SignIn(SignInError::Refused(why))) => {
            tracing::info!("an Activity sign-in was refused: {why}");
            return refusal(
                &site,
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                &site.service.text(language, "activity-sign-in-failed", &[]),
            );
        }
        Err(Refused::SignIn(SignInError::Limited(wait))) => {
            let mut response = refusal(
                &site,
                StatusCode::TOO_MANY_REQUESTS,
                "too-many",
                &site.service.text(language, "web-too-fast", &[]),
            );
            let seconds = wait.as_secs().max(1).to_string();
            if let Ok(value) = HeaderValue::from_str(&seconds) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            return response;
        }
        Err(Refused::SignIn(e @ SignInError::Unavailable(_))) => {
            tracing::warn!("an Activity sign-in could not reach Discord: {e}");
            let mut response = refusal(
                &site,
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                &e.to_string(),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return response;
        }
    };
    let user = User::new(
        UserId::new(Platform::Discord, account.id.to_string()),
        account.name.clone(),
    );
    let Some(pass) = site.service.activity_pass(&user, &chat, &instance) else {
        return refusal(
            &site,
            StatusCode::NOT_FOUND,
            "no-activity",
            "the Activity needs WEB_SECRET",
        );
    };
    let expires = site
        .service
        .read_activity_pass(&pass)
        .map(|p| p.expires)
        .unwrap_or_default();
    json(
        &site,
        StatusCode::OK,
        &SignedIn {
            access_token: account.access_token,
            expires_in: account.expires_in.as_secs(),
            user: Person {
                id: account.id.to_string(),
                name: account.name,
            },
            pass,
            expires,
            channel: asked.channel,
            instance: instance.to_string(),
        },
    )
}

/// Why a sign-in gets no pass for the channel it names.
enum Refused {
    SignIn(SignInError),
    /// Discord's answer about the instance does not show the person in the channel.
    NotInChannel(String),
}

/// Signs the person in and asks Discord whether their Activity instance is ours, runs in the
/// channel named and has them in it: only then do they get a pass for that channel.
async fn admitted(
    discord: &DiscordOAuth,
    asked: &SessionBody,
    instance: &ActivityInstanceId,
) -> Result<jieqi_discord::DiscordAccount, Refused> {
    let account = discord
        .sign_in(&asked.code)
        .await
        .map_err(Refused::SignIn)?;
    let instance = match discord.activity_instance(instance).await {
        Ok(instance) => instance,
        // Discord knows no such instance of ours.
        Err(SignInError::Refused(why)) => return Err(Refused::NotInChannel(why)),
        Err(other) => return Err(Refused::SignIn(other)),
    };
    let application = discord.client_id().await.map_err(Refused::SignIn)?;
    let channel: u64 = asked
        .channel
        .parse()
        .map_err(|_| Refused::NotInChannel("a channel that is not an id".into()))?;
    instance
        .admits(application, account.id, channel)
        .map_err(|why| Refused::NotInChannel(why.to_string()))?;
    Ok(account)
}

/// A 403: the pass is for another channel.
fn other_channel(site: &Site) -> Response {
    refusal(
        site,
        StatusCode::FORBIDDEN,
        "other-channel",
        "this pass is for another channel: open the Activity in this one",
    )
}

/// The person a pass names, or the 401 to answer.
fn holder(
    site: &Site,
    headers: &HeaderMap,
    language: Language,
) -> Result<ActivityPass, Box<Response>> {
    let pass = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    site.service.read_activity_pass(pass).map_err(|why| {
        tracing::info!("an Activity pass was refused: {why}");
        Box::new(refusal(
            site,
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            &site.service.text(language, "activity-sign-in-failed", &[]),
        ))
    })
}

/// A Discord channel's id (a snowflake), or what is wrong with it.
fn channel(text: &str) -> Result<ChatId, &'static str> {
    if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err("channel is a Discord channel's id: digits");
    }
    Ok(ChatId::new(Platform::Discord, text))
}

/// One game as the Activity lists it.
#[derive(Serialize)]
struct Listed {
    game: String,
    /// "alice – bob".
    players: String,
    /// "bob (Black) to move." or the result.
    status: String,
    finished: bool,
    /// The personal link's token, for the person's own running games.
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    your_turn: bool,
    /// Played in the channel the Activity is open in.
    here: bool,
}

#[derive(Serialize, Default)]
struct Listing {
    mine: Vec<Listed>,
    here: Vec<Listed>,
    finished: Vec<Listed>,
    /// The game the Activity instance was launched on, with when (a later launch into the
    /// same instance differs): the page opens it once.
    launched: Option<LaunchedGame>,
}

#[derive(Serialize)]
struct LaunchedGame {
    #[serde(flatten)]
    game: Listed,
    /// When it was launched (Unix seconds).
    at: u64,
}

async fn listed(
    site: &Site,
    game: &GameId,
    language: Language,
    person: Option<&UserId>,
    here: bool,
) -> Result<Option<Listed>, jieqi_service::ServiceError> {
    let Some(built) = site.hub.page(game, language, 0).await? else {
        return Ok(None);
    };
    let page = &built.page;
    let mut your_turn = false;
    let mut token = None;
    if let Some(person) = person.filter(|_| !page.finished)
        && let Some(mine) = site
            .service
            .player_page(game, person, Some(language))
            .await?
    {
        your_turn = page.to_move == Some(mine.seat);
        token = site
            .service
            .personal_link(game, person)
            .and_then(|link| link.split_once("#t=").map(|(_, t)| t.to_owned()));
    }
    let names: Vec<&str> = page.players.iter().map(|p| p.name.as_str()).collect();
    Ok(Some(Listed {
        game: game.to_string(),
        players: names.join(" – "),
        status: page.status.clone(),
        finished: page.finished,
        token,
        your_turn,
        here,
    }))
}

async fn games(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let language = language(query.as_deref(), &headers);
    let pass = match holder(&site, &headers, language) {
        Ok(pass) => pass,
        Err(response) => return *response,
    };
    let chat = match query_value(query.as_deref(), "channel") {
        Some(text) => match channel(&text) {
            Ok(chat) => chat,
            Err(why) => return refusal(&site, StatusCode::BAD_REQUEST, "bad-channel", why),
        },
        None => {
            return refusal(
                &site,
                StatusCode::BAD_REQUEST,
                "bad-channel",
                "channel= names the channel the Activity is open in",
            );
        }
    };
    if chat != pass.channel {
        return other_channel(&site);
    }
    let found = match site.service.activity_games(&chat, &pass.user.id).await {
        Ok(found) => found,
        Err(e) => {
            return refusal(
                &site,
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                &e.to_string(),
            );
        }
    };
    let mut listing = Listing::default();
    let person = Some(&pass.user.id);
    let result: Result<(), jieqi_service::ServiceError> = async {
        for game in &found.mine {
            let here = found.running.contains(game);
            if let Some(item) = listed(&site, game, language, person, here).await? {
                listing.mine.push(item);
            }
        }
        // The person's own games of this channel first among theirs.
        listing.mine.sort_by_key(|g| (!g.here, !g.your_turn));
        for game in found.running.iter().filter(|g| !found.mine.contains(g)) {
            if let Some(item) = listed(&site, game, language, None, true).await? {
                listing.here.push(item);
            }
        }
        for game in &found.finished {
            if let Some(item) = listed(&site, game, language, None, true).await? {
                listing.finished.push(item);
            }
        }
        // The instance is the pass's, the one Discord showed the person in at sign-in.
        if let Some(launched) = site.service.launched(&pass.instance, &chat).await?
            && let Some(game) = listed(&site, &launched.game, language, person, true).await?
        {
            listing.launched = Some(LaunchedGame {
                game,
                at: launched.at,
            });
        }
        Ok(())
    }
    .await;
    if let Err(e) = result {
        return refusal(
            &site,
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            &e.to_string(),
        );
    }
    json(&site, StatusCode::OK, &listing)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeBody {
    channel: String,
    opponent: String,
    name: Option<String>,
    variant: String,
    key: String,
}

async fn challenge(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let language = language(query.as_deref(), &headers);
    let pass = match holder(&site, &headers, language) {
        Ok(pass) => pass,
        Err(response) => return *response,
    };
    let bad = |why: &str| {
        refusal(
            &site,
            StatusCode::BAD_REQUEST,
            "bad-challenge",
            &site
                .service
                .text(language, "web-bad-action", &[("reason", why)]),
        )
    };
    if body.len() > BODY_LONGEST {
        return bad("the challenge is too long");
    }
    let Ok(asked) = serde_json::from_slice::<ChallengeBody>(&body) else {
        return bad(
            "a challenge is JSON: {\"channel\", \"opponent\": \"<user id>\" or \"bot\", \"name\", \"variant\", \"key\"}",
        );
    };
    let chat = match channel(&asked.channel) {
        Ok(chat) => chat,
        Err(why) => return bad(why),
    };
    if chat != pass.channel {
        return other_channel(&site);
    }
    let Ok(variant) = asked.variant.parse::<jieqi_rules::Variant>() else {
        return bad("variant is jieqi, xiangqi or banqi");
    };
    let opponent = if asked.opponent == "bot" {
        Opponent::Bot
    } else {
        if asked.opponent.is_empty()
            || asked.opponent.len() > 20
            || !asked.opponent.bytes().all(|b| b.is_ascii_digit())
        {
            return bad("opponent is a Discord user's id, or bot");
        }
        if asked.opponent == pass.user.id.id {
            return bad("you cannot challenge yourself");
        }
        let name = asked
            .name
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| asked.opponent.clone());
        Opponent::Person(User::new(
            UserId::new(Platform::Discord, asked.opponent),
            name,
        ))
    };
    match site
        .service
        .activity_challenge(&chat, &pass.user, &opponent, variant, &asked.key)
        .await
    {
        Ok(ActivityAnswer::Done(said)) => json(
            &site,
            StatusCode::OK,
            &serde_json::json!({ "done": true, "said": said }),
        ),
        Ok(ActivityAnswer::Refused(reason)) => json(
            &site,
            StatusCode::OK,
            &serde_json::json!({ "done": false, "refused": reason }),
        ),
        Err(why) => bad(why),
    }
}
