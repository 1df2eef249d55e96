//! A tournament's live page (issue 53):
//!
//! | route | what |
//! |---|---|
//! | `GET /t/<id>` | the page (HTML, drawn here: where it stands, the standings, every round's pairings with results and links to the games' pages; `?lang=en\|zh\|vi`) |
//! | `GET /t/<id>/state` | the same as JSON |
//! | `GET /t/<id>/revision` | the stored revision as text: what the page's script asks every few seconds, loading the page again when it changed |
//!
//! The page is drawn on the server (names through [`escape`]), so it reads without its
//! script; the script (`assets/web/tournament.js`) only keeps it current while the event
//! runs, asking for one small figure rather than the whole state.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use jieqi_service::tournament_page::TournamentPage;
use jieqi_service::{Language, TournamentId};

use crate::page::{Head, escape, head};
use crate::routes::{Site, asked_id, message, unavailable};

pub(crate) fn routes() -> Router<Arc<Site>> {
    Router::new()
        .route("/t/{id}", get(page))
        .route("/t/{id}/state", get(state))
        .route("/t/{id}/revision", get(revision))
}

/// The tournament of a path segment, and the languages to answer in; or the answer saying
/// the id is not one.
fn asked(
    site: &Site,
    text: &str,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Result<(TournamentId, Option<Language>, Language), Box<Response>> {
    asked_id(site, text, query, headers, "web-tournament-bad-id")
}

fn no_such_tournament(site: &Site, id: &TournamentId, language: Language) -> Response {
    message(
        site,
        StatusCode::NOT_FOUND,
        language,
        &site
            .service
            .text(language, "web-tournament-not-found", &[("id", id.as_str())]),
    )
}

/// The page of the tournament asked for, or the answer saying why there is none.
async fn built(
    site: &Site,
    id: &str,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Result<TournamentPage, Box<Response>> {
    let (id, asked, fallback) = asked(site, id, query, headers)?;
    match site.service.tournament_page(&id, asked).await {
        Ok(Some(page)) => Ok(page),
        Ok(None) => Err(Box::new(no_such_tournament(site, &id, fallback))),
        Err(e) => Err(Box::new(unavailable(site, fallback, &e))),
    }
}

async fn page(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    match built(&site, &id, query.as_deref(), &headers).await {
        Ok(page) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            tournament_html(&site, &page),
        )
            .into_response(),
        Err(response) => *response,
    }
}

async fn state(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    match built(&site, &id, query.as_deref(), &headers).await {
        // Not axum's `Json`: its feature is turned on only by the fake servers' crates, so
        // `cargo build -p jieqi-bot` (the README's run command) did not compile with it.
        Ok(page) => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            serde_json::to_string(&page).unwrap_or_default(),
        )
            .into_response(),
        Err(response) => *response,
    }
}

async fn revision(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (id, _, fallback) = match asked(&site, &id, None, &headers) {
        Ok(asked) => asked,
        Err(response) => return *response,
    };
    match site.service.tournament_revision(&id).await {
        Ok(Some(revision)) => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            revision.to_string(),
        )
            .into_response(),
        Ok(None) => no_such_tournament(&site, &id, fallback),
        Err(e) => unavailable(&site, fallback, &e),
    }
}

/// The page's HTML: everything a person wrote goes through [`escape`].
pub(crate) fn tournament_html(site: &Site, page: &TournamentPage) -> String {
    let language = Language::from_tag(page.language).unwrap_or_default();
    let say = |key: &str| escape(&site.service.text(language, key, &[]));
    let mut standings = String::new();
    standings.push_str(&format!(
        "<table id=\"standings\"><thead><tr><th>{}</th><th>{}</th><th>{}</th>",
        say("web-tournament-rank"),
        say("web-tournament-player"),
        say("web-tournament-points"),
    ));
    for heading in &page.tiebreaks {
        standings.push_str(&format!("<th>{}</th>", escape(heading)));
    }
    standings.push_str("</tr></thead><tbody>");
    for row in &page.standings {
        // An arena's streak: the next game counts double.
        let fire = if row.streak {
            " <span class=\"streak\" title=\"×2\">🔥</span>"
        } else {
            ""
        };
        standings.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}{fire}</td>",
            row.rank,
            escape(&row.name),
            escape(&row.points)
        ));
        for value in &row.tiebreaks {
            standings.push_str(&format!("<td>{}</td>", escape(value)));
        }
        standings.push_str("</tr>");
    }
    standings.push_str("</tbody></table>");

    let mut rounds = String::new();
    if page.rounds.is_empty() {
        rounds.push_str(&format!("<p>{}</p>", say("web-tournament-no-rounds")));
    }
    for round in &page.rounds {
        // An arena's games have no rounds: one list, round 0.
        let title = if round.round == 0 {
            site.service.text(language, "web-arena-games", &[])
        } else {
            site.service.text(
                language,
                "web-tournament-round",
                &[("round", round.round.to_string().as_str())],
            )
        };
        rounds.push_str(&format!(
            "<section class=\"round\" id=\"round-{}\"><h3>{}</h3><table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            round.round,
            escape(&title),
            say("web-tournament-board"),
            say("web-tournament-red"),
            say("web-tournament-black"),
            say("web-tournament-result"),
        ));
        for game in &round.games {
            let result = match game.result {
                Some(result) => format!("<a href=\"/g/{}\">{}</a>", escape(&game.game), result),
                None => format!(
                    "<a class=\"playing\" href=\"/g/{}\">{}</a>",
                    escape(&game.game),
                    say("web-tournament-playing")
                ),
            };
            rounds.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{result}</td></tr>",
                game.board,
                escape(&game.first),
                escape(&game.second),
            ));
        }
        rounds.push_str("</tbody></table>");
        for bye in &round.byes {
            rounds.push_str(&format!("<p class=\"bye\">{}</p>", escape(bye)));
        }
        rounds.push_str("</section>");
    }
    let base = site.config.public_url.trim_end_matches('/');
    let follows = if page.over {
        String::new()
    } else {
        format!("<p id=\"follows\">{}</p>", say("web-tournament-follows"))
    };
    let url = format!("{base}/t/{}", page.tournament);
    let head = head(
        &site.assets,
        &Head {
            language,
            title: &page.title,
            description: &page.summary,
            url: &url,
            preview: None,
            script: &site.assets.tournament.name,
        },
    );
    format!(
        r#"{head}
<body>
<main id="tournament" data-tournament="{id}" data-revision="{revision}" data-over="{over}">
<header>
<h1>{title}</h1>
<p id="summary">{summary}</p>
{follows}
</header>
<section id="standings-section"><h2>{standings_title}</h2>{standings}</section>
<section id="rounds">{rounds}</section>
</main>
</body>
</html>
"#,
        title = escape(&page.title),
        summary = escape(&page.summary),
        id = escape(&page.tournament),
        revision = page.revision,
        over = page.over,
        standings_title = say("web-tournament-standings"),
    )
}
