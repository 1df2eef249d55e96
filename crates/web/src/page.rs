//! The HTML of a game's page and of the error pages. Everything a person wrote (names) or a
//! URL holds goes through [`escape`]; the page's state is JSON in a non-executed
//! `<script type="application/json">` element, escaped so it cannot close it. The script
//! renders names with `textContent` only.

use jieqi_service::Language;
use jieqi_service::game_page::GamePage;

use crate::assets::Assets;

/// Text made safe for HTML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The labels the script shows, in the page's language.
pub(crate) const LABELS: &[&str] = &[
    "web-moves",
    "web-start",
    "web-first",
    "web-previous",
    "web-next",
    "web-last",
    "web-live",
    "web-reconnecting",
    "web-time-left",
    "web-over",
    "web-deal",
    "web-commitment",
    "web-check-ok",
    "web-check-bad",
    "web-check-unavailable",
    "web-keys",
    "web-you",
    "web-your-move",
    "web-their-move",
    "web-resign-sure",
    "web-cancel",
    "web-sending",
    "web-offline",
    "web-too-fast",
    "web-confirm-moves",
    "web-confirm-play",
    "web-signed-out",
    "web-not-playing",
    "web-known-title",
    "button-resign",
    "button-resign-confirm",
    "button-draw",
    "button-accept-draw",
    "button-rematch",
    "activity-back",
];

/// The labels the Activity's script shows, in the page's language.
pub(crate) const ACTIVITY_LABELS: &[&str] = &[
    "activity-title",
    "activity-signed-in-as",
    "activity-your-games",
    "activity-channel-games",
    "activity-finished-games",
    "activity-no-games",
    "activity-new-game",
    "activity-opponent",
    "activity-variant",
    "activity-send",
    "activity-signing-in",
    "activity-sign-in-failed",
    "activity-outside",
    "activity-play",
    "activity-watch",
    "activity-replay",
    "activity-your-turn",
    "activity-the-bot",
    "activity-sent",
];

/// What the page needs besides the game.
pub(crate) struct PageParts<'a> {
    pub assets: &'a Assets,
    pub language: Language,
    pub title: String,
    /// Absolute URL of the preview picture.
    pub preview: String,
    /// Absolute URL of the page itself.
    pub url: String,
    /// `[key, text]` of each label.
    pub labels: Vec<(&'static str, String)>,
    /// The page state, as JSON safe inside a script element.
    pub state_json: &'a str,
}

/// What a page shared in a chat says of itself in its `<head>`: the title, and the
/// OpenGraph tags the chat's link preview is drawn from.
pub(crate) struct Head<'a> {
    pub language: Language,
    pub title: &'a str,
    pub description: &'a str,
    /// Absolute URL of the page.
    pub url: &'a str,
    /// Absolute URL of a preview picture, if the page has one.
    pub preview: Option<&'a str>,
    /// The hashed name of the page's script.
    pub script: &'a str,
}

/// The document's start up to `</head>`, everything in it escaped.
pub(crate) fn head(assets: &Assets, head: &Head<'_>) -> String {
    let preview = head.preview.map_or(String::new(), |preview| {
        format!(
            "<meta property=\"og:image\" content=\"{}\">\n<meta name=\"twitter:card\" content=\"summary_large_image\">\n",
            escape(preview)
        )
    });
    format!(
        r#"<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{title}</title>
<meta name="description" content="{description}">
<meta property="og:type" content="website">
<meta property="og:title" content="{title}">
<meta property="og:description" content="{description}">
<meta property="og:url" content="{url}">
{preview}<link rel="icon" href="/assets/{icon}" type="image/svg+xml">
<link rel="stylesheet" href="/assets/{style}">
<script type="module" src="/assets/{script}"></script>
</head>"#,
        lang = head.language.code(),
        title = escape(head.title),
        description = escape(head.description),
        url = escape(head.url),
        icon = assets.icon.name,
        style = assets.style.name,
        script = head.script,
    )
}

/// The game's page: a skeleton the script fills from the state (and keeps live).
pub(crate) fn game_page(page: &GamePage, parts: &PageParts<'_>) -> String {
    let labels: String = parts
        .labels
        .iter()
        .map(|(key, text)| format!(" data-{key}=\"{}\"", escape(text)))
        .collect();
    let players: Vec<String> = page
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.rating))
        .collect();
    let description = format!("{} · {}", page.terms, page.status);
    let head = head(
        parts.assets,
        &Head {
            language: parts.language,
            title: &parts.title,
            description: &description,
            url: &parts.url,
            preview: Some(&parts.preview),
            script: &parts.assets.script.name,
        },
    );
    format!(
        r#"{head}
<body>
<main id="game"{labels}>
<p id="back" hidden><a id="back-link"></a></p>
<header>
<h1>{title}</h1>
<p id="terms">{terms}</p>
</header>
<section id="players"><p>{players}</p></section>
<section id="stage">
<figure id="board-frame"><img id="board" alt="" width="480" height="600"><div id="taps" hidden></div></figure>
<nav id="steps">
<button type="button" id="to-first"></button>
<button type="button" id="to-previous"></button>
<span id="position"></span>
<button type="button" id="to-next"></button>
<button type="button" id="to-last"></button>
</nav>
<p id="status">{status}</p>
<p id="clock" hidden></p>
<p id="connection" hidden></p>
<section id="play" hidden>
<p id="turn"></p>
<p id="notice" role="status" hidden></p>
<p id="confirm-move" hidden><button type="button" id="play-it"></button> <button type="button" id="play-cancel"></button></p>
<p id="actions"><button type="button" id="draw"></button> <button type="button" id="resign"></button></p>
<p id="confirm-resign" hidden><span id="resign-sure"></span> <button type="button" id="resign-yes"></button> <button type="button" id="resign-no"></button></p>
<p id="again" hidden><button type="button" id="rematch"></button></p>
<label id="confirm-setting"><input type="checkbox" id="confirm-moves"> <span id="confirm-moves-label"></span></label>
</section>
<section id="known" hidden></section>
</section>
<section id="record"><h2 id="moves-title"></h2><ol id="moves"></ol></section>
<section id="proof" hidden></section>
<p id="keys"></p>
</main>
<script type="application/json" id="state">{state}</script>
</body>
</html>
"#,
        title = escape(&parts.title),
        labels = labels,
        terms = escape(&page.terms),
        players = escape(&players.join(" – ")),
        status = escape(&page.status),
        state = parts.state_json,
    )
}

/// The Discord Activity's page: a skeleton its script fills once Discord has signed the
/// person in. `client_id` is the application's (the SDK's handshake and `authorize` name it).
pub(crate) fn activity_page(
    assets: &Assets,
    language: Language,
    client_id: u64,
    labels: &[(&str, String)],
) -> String {
    let data: String = labels
        .iter()
        .map(|(key, text)| format!(" data-{key}=\"{}\"", escape(text)))
        .collect();
    let text = |key: &str| {
        labels
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, t)| escape(t))
            .unwrap_or_default()
    };
    format!(
        r#"<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{title}</title>
<link rel="icon" href="/assets/{icon}" type="image/svg+xml">
<link rel="stylesheet" href="/assets/{style}">
<script type="module" src="/assets/{script}"></script>
</head>
<body>
<main id="activity" data-client-id="{client_id}" data-lang="{lang}" data-state="starting"{data}>
<header><h1>{title}</h1><p id="signed-in">{signed_in} <span id="who"></span></p></header>
<p id="activity-status" role="status"></p>
<section class="games" hidden><h2>{mine}</h2><ul id="mine"></ul></section>
<section class="games" hidden><h2>{here}</h2><ul id="here"></ul></section>
<p id="none" hidden>{none}</p>
<p><button type="button" id="new-game-button">{new_game}</button></p>
<section id="new-game" hidden>
<label>{opponent} <select id="opponent"></select></label>
<label>{variant} <select id="variant"><option value="jieqi">Jieqi</option><option value="xiangqi">Xiangqi</option><option value="banqi">Banqi</option></select></label>
<button type="button" id="send-challenge">{send}</button>
</section>
<section class="games" hidden><h2>{finished}</h2><ul id="finished"></ul></section>
</main>
</body>
</html>
"#,
        lang = language.code(),
        title = text("activity-title"),
        signed_in = text("activity-signed-in-as"),
        mine = text("activity-your-games"),
        here = text("activity-channel-games"),
        finished = text("activity-finished-games"),
        none = text("activity-no-games"),
        new_game = text("activity-new-game"),
        opponent = text("activity-opponent"),
        variant = text("activity-variant"),
        send = text("activity-send"),
        icon = assets.icon.name,
        style = assets.style.name,
        script = assets.activity.name,
    )
}

/// A short page saying what went wrong (not found, bad id, too many streams).
pub(crate) fn message_page(assets: &Assets, language: Language, text: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>jieqi-bot</title>
<link rel="icon" href="/assets/{icon}" type="image/svg+xml">
<link rel="stylesheet" href="/assets/{style}">
</head>
<body><main id="message"><p>{text}</p></main></body>
</html>
"#,
        lang = language.code(),
        icon = assets.icon.name,
        style = assets.style.name,
        text = escape(text),
    )
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_in_a_name_becomes_text() {
        assert_eq!(
            escape(r#"<img src=x onerror="alert(1)">&'"#),
            "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;"
        );
    }
}
