//! "Play on the board" end to end: with the web page and personal links set up (`PUBLIC_URL`,
//! `WEB_SECRET`), a game's boards carry the button, and pressing it (or `/board`) answers the
//! player, and only them, with a link holding their personal token. A personal link lets its
//! holder play as that player, so no public message may ever carry one.

use crate::harness;

use std::time::Duration;

use harness::*;
use jieqi_discord::DiscordConfig;
use jieqi_fake_discord::{Recorded, Seen, links};
use jieqi_service::personal_link::WebSecret;
use jieqi_service::{Platform, ServiceConfig, UserId};
use serde_json::{Value, json};

const PUBLIC_URL: &str = "https://bot.example.org";

fn web_secret() -> WebSecret {
    WebSecret::new(vec![42; 32]).expect("32 bytes are enough")
}

/// A bot whose service has the web page and personal links.
async fn start_playable(adjust: impl FnOnce(&mut DiscordConfig)) -> Bot {
    start_configured(
        |config: &mut ServiceConfig| {
            config.public_url = Some(PUBLIC_URL.to_owned());
            config.web_secret = Some(web_secret());
        },
        adjust,
    )
    .await
}

/// The game a board belongs to, read from its Resign button (`res_<game>`).
fn game_of(board: &Value) -> String {
    buttons(board)
        .into_iter()
        .find_map(|(id, _)| {
            // `res_<game>_<ply>`: the game, without the board's ply.
            let rest = id.strip_prefix("res_")?;
            Some(
                rest.split_once('_')
                    .map_or(rest, |(game, _)| game)
                    .to_owned(),
            )
        })
        .expect("a Resign button")
}

/// The body of what a record showed: an interaction response's `data`, else the body itself.
fn shown_body(record: &Recorded) -> &Value {
    if record.path.ends_with("/callback") {
        &record.json["data"]
    } else {
        &record.json
    }
}

/// The personal link an answer holds: the link button whose address carries a token.
fn personal_link(record: &Recorded) -> Option<String> {
    links(shown_body(record))
        .into_iter()
        .map(|(_, url)| url)
        .find(|url| url.contains("#t="))
}

/// Checks that the token in `link` signs its holder in as `who` in `game`, and returns it.
fn token_for(bot: &Bot, link: &str, game: &str, who: u64) -> String {
    let (page, token) = link.split_once("#t=").expect("a token in the fragment");
    assert_eq!(page, format!("{PUBLIC_URL}/g/{game}"), "{link}");
    let read = bot
        .service
        .personal_token(token)
        .unwrap_or_else(|error| panic!("the token does not verify: {error}"));
    assert_eq!(read.game.as_str(), game);
    assert_eq!(read.player, UserId::new(Platform::Discord, who.to_string()));
    token.to_owned()
}

/// No message anyone but one person could see ever carried a personal link.
fn assert_no_link_in_public(log: &[Recorded]) {
    let with_token: Vec<&Recorded> = log.iter().filter(|r| r.text().contains("#t=")).collect();
    assert!(!with_token.is_empty(), "the test saw personal links at all");
    for record in with_token {
        assert!(
            matches!(record.seen, Seen::Ephemeral(_)),
            "a personal link reached {:?}: {record:?}",
            record.seen
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pressing_play_on_the_board_answers_each_player_alone_with_their_own_link() {
    let bot = start_playable(|_| {}).await;
    let board = bot.start_game().await;
    let message = bot.fake.message(board).expect("the first board");
    let game = game_of(&message);
    let play = format!("ply_{game}");
    assert!(
        buttons(&message).iter().any(|(id, _)| *id == play),
        "the board carries Play on the board: {message}"
    );
    assert!(
        links(&message)
            .iter()
            .any(|(_, url)| *url == format!("{PUBLIC_URL}/g/{game}")),
        "and the public page's link, without a token: {message}"
    );

    let mut tokens = Vec::new();
    for who in [ALICE, BOB] {
        let answers = bot.send(&bot.fake.button(who, &play, board)).await;
        assert_eq!(callback_type(&answers), Some(4), "{answers:?}");
        let shown = only_shown(&answers);
        assert_eq!(shown.seen, Seen::Ephemeral(who.id));
        let flags = shown.json["data"]["flags"].as_u64().unwrap_or(0);
        assert_eq!(flags & 64, 64, "an ephemeral answer: {shown:?}");
        let link = personal_link(shown).unwrap_or_else(|| panic!("a personal link: {shown:?}"));
        tokens.push(token_for(&bot, &link, &game, who.id));
    }
    assert_ne!(tokens[0], tokens[1], "each player has a token of their own");

    // Carol does not play: refused, to her alone, with no link.
    let answers = bot.send(&bot.fake.button(CAROL, &play, board)).await;
    let shown = only_shown(&answers);
    assert_eq!(shown.seen, Seen::Ephemeral(CAROL.id));
    assert!(shown.text().contains("not a player"), "{}", shown.text());
    assert!(!shown.text().contains("#t="), "{}", shown.text());

    bot.play(ALICE, "h2h9").await;
    bot.delivered().await;
    let newer = bot
        .fake
        .message(bot.latest_board())
        .expect("the newer board");
    assert!(
        buttons(&newer).iter().any(|(id, _)| *id == play),
        "every board of the running game carries it: {newer}"
    );
    assert_no_link_in_public(&bot.fake.log());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_reposts_publicly_and_adds_the_players_link_privately() {
    let bot = start_playable(|_| {}).await;
    let board = bot.start_game().await;
    let game = game_of(&bot.fake.message(board).expect("the board"));
    let boards_before = pictures(&seen_by(
        &bot.fake.log(),
        &Seen::Channel(jieqi_fake_discord::CHANNEL),
    ))
    .len();

    let answers = bot.send(&bot.command(ALICE, "board", json!([]))).await;
    let shown = only_shown(&answers);
    assert_eq!(shown.seen, Seen::Ephemeral(ALICE.id));
    let link = personal_link(shown).unwrap_or_else(|| panic!("alice's link: {shown:?}"));
    token_for(&bot, &link, &game, ALICE.id);

    bot.delivered().await;
    let log = bot.fake.log();
    let public = seen_by(&log, &Seen::Channel(jieqi_fake_discord::CHANNEL));
    let boards = pictures(&public);
    assert_eq!(
        boards.len(),
        boards_before + 1,
        "the board is posted again for everyone"
    );
    assert!(boards.last().is_some_and(|board| is_png(board)));
    assert_no_link_in_public(&log);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_answer_still_gives_the_link_privately_after_a_private_deferral() {
    // Every answer counts as slow: deferred ("thinking…" for the presser alone), then written.
    let bot = start_playable(|config| config.respond_within = Duration::ZERO).await;
    let board = bot.start_game().await;
    let game = game_of(&bot.fake.message(board).expect("the board"));

    let answers = bot
        .send(&bot.fake.button(BOB, &format!("ply_{game}"), board))
        .await;
    assert_eq!(callback_type(&answers), Some(5));
    let shown = only_shown(&answers);
    assert_eq!(shown.seen, Seen::Ephemeral(BOB.id));
    let link = personal_link(shown).unwrap_or_else(|| panic!("bob's link: {shown:?}"));
    token_for(&bot, &link, &game, BOB.id);

    let answers = bot.send(&bot.command(BOB, "board", json!([]))).await;
    let shown = only_shown(&answers);
    assert_eq!(shown.seen, Seen::Ephemeral(BOB.id));
    assert!(personal_link(shown).is_some(), "{shown:?}");
    bot.delivered().await;
    assert_no_link_in_public(&bot.fake.log());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_web_secret_boards_have_no_play_button_and_board_gives_no_link() {
    let bot = start_configured(
        |config: &mut ServiceConfig| config.public_url = Some(PUBLIC_URL.to_owned()),
        |_| {},
    )
    .await;
    let board = bot.start_game().await;
    let message = bot.fake.message(board).expect("the board");
    assert!(
        buttons(&message)
            .iter()
            .all(|(id, _)| !id.starts_with("ply_")),
        "{message}"
    );
    let answers = bot.send(&bot.command(ALICE, "board", json!([]))).await;
    bot.delivered().await;
    assert!(
        answers.iter().all(|r| !r.text().contains("#t=")),
        "{answers:?}"
    );
    assert!(bot.fake.log().iter().all(|r| !r.text().contains("#t=")));
    bot.stop().await;
}
