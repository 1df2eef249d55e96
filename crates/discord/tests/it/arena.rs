//! A 10-minute arena in a channel through slash commands and buttons against the fake
//! Discord (issue 53), its ten minutes on the harness's scripted clock: `/tournament arena`
//! with the `minutes` choice, entries by the announcement's Join button, the start's
//! pairings posted with each game's live link and each player told by DM of their game and
//! colour; a game's end leaves its two players waiting for someone else, the next end
//! pairs the four crosswise; pairing stops two minutes before the end, and the service's
//! tick at ten minutes ends it with a game still running (not counted), the final post
//! naming the winner with the standings picture. One player's name is hostile: escaped
//! wherever it shows.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use crate::harness::*;
use crate::tournament::{
    game_line, join_button, kept_name, member_in, post_with, posts_with, unescaped,
};
use jieqi_fake_discord::{Member, Seen};
use serde_json::json;

const PUBLIC_URL: &str = "https://jieqi.example";

const HOSTILE: &str = "**Eve** _it_ `code` [x](https://evil.example) \u{202e}reversed\u{202c}";

const PLAYERS: [Member; 4] = [
    Member {
        id: 501,
        name: "ann",
    },
    Member {
        id: 502,
        name: "ben",
    },
    Member {
        id: 503,
        name: "cy",
    },
    Member {
        id: 504,
        name: HOSTILE,
    },
];

/// One game of a pairings post as a reader sees it: `A (red) – B (black), game g7k2 · <link>`.
#[derive(Clone, Debug)]
struct Pairing {
    red: String,
    black: String,
    game: String,
    link: Option<String>,
}

fn pairings_of(text: &str) -> Vec<Pairing> {
    unescaped(text)
        .lines()
        .filter_map(|line| {
            let (red, black, game, link) = game_line(line)?;
            Some(Pairing {
                red: red.trim_end_matches(" 🔥").to_owned(),
                black: black.trim_end_matches(" 🔥").to_owned(),
                game: game.to_owned(),
                link,
            })
        })
        .collect()
}

fn member(name: &str) -> Member {
    member_in(&PLAYERS, name)
}

/// Every pairing posted so far, oldest first.
fn all_pairings(bot: &Bot, id: &str) -> Vec<Pairing> {
    posts_with(bot, &format!("Arena {id}, new games"))
        .into_iter()
        .flat_map(|(_, text)| pairings_of(&text))
        .collect()
}

/// `/<name>` by `who`, waiting for its posts (not for old boards' buttons to grey out).
async fn command(bot: &Bot, who: Member, name: &str, options: serde_json::Value) {
    bot.send(&bot.command(who, name, options)).await;
    bot.posted().await;
}

/// `/tournament <sub>` by `who`, who manages the server (Discord's admins) if `manager`.
async fn tournament(bot: &Bot, who: Member, manager: bool, sub: &str, options: serde_json::Value) {
    let mut interaction = bot.command(
        who,
        "tournament",
        json!([{"name": sub, "type": 1, "options": options}]),
    );
    if manager {
        // The fake's members have everyday permissions; Manage Server (1 << 5) added.
        interaction["member"]["permissions"] = json!("2248473465835105");
    }
    bot.send(&interaction).await;
    bot.posted().await;
}

async fn play(bot: &Bot, who: Member, game: &str, mv: &str) {
    let options = json!([
        {"name": "game", "type": 3, "value": game},
        {"name": "move", "type": 3, "value": mv}
    ]);
    command(bot, who, "move", options).await;
}

/// Plays `pairing` to a result: a move each, then Black resigns (`/resign`, confirmed by
/// sending it again) if `red_wins`, else a draw by offers.
async fn play_out(bot: &Bot, pairing: &Pairing, red_wins: bool) {
    let (red, black) = (member(&pairing.red), member(&pairing.black));
    let game = pairing.game.as_str();
    play(bot, red, game, "h2e2").await;
    play(bot, black, game, "h9g7").await;
    let option = json!([{"name": "game", "type": 3, "value": game}]);
    let (first, second, word) = if red_wins {
        (black, black, "resign")
    } else {
        (red, black, "draw")
    };
    // Each command waits for its answers to be delivered: the second /resign confirms
    // the first, the second /draw takes the offer.
    command(bot, first, word, option.clone()).await;
    command(bot, second, word, option).await;
    post_with(bot, &format!("Game {game} is over")).await;
    bot.posted().await;
}

fn advance_to(bot: &Bot, at: SystemTime) {
    if let Ok(ahead) = at.duration_since(bot.clock.now()) {
        bot.advance(ahead);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_minute_arena_runs_in_a_channel_on_the_ticking_clock_through_buttons_and_commands() {
    let bot = start_configured(
        |config| config.public_url = Some(PUBLIC_URL.to_owned()),
        |_| {},
    )
    .await;
    let admin = PLAYERS[0];
    tournament(
        &bot,
        admin,
        true,
        "arena",
        json!([
            {"name": "minutes", "type": 3, "value": "10"},
            {"name": "variant", "type": 3, "value": "xiangqi"},
            {"name": "time", "type": 3, "value": "24h"}
        ]),
    )
    .await;
    let (announcement, text) = post_with(&bot, "arena of 10 minutes").await;
    assert!(text.contains("Xiangqi, 1 day per move"), "{text}");
    let announcement = message_id(&announcement);
    let join = join_button(&bot, announcement);
    let id = join.trim_start_matches("tjn_").to_owned();
    for (count, player) in PLAYERS.iter().enumerate() {
        bot.send(&bot.fake.button(*player, &join, announcement))
            .await;
        bot.posted().await;
        post_with(&bot, &format!("({} player", count + 1)).await;
    }

    let before_start = bot.clock.now();
    tournament(&bot, admin, true, "start", json!([])).await;
    post_with(&bot, &format!("Arena {id} has started: 10 minutes")).await;
    let first = all_pairings(&bot, &id);
    assert_eq!(first.len(), 2, "{first:?}");
    let log = bot.fake.log();
    for pairing in &first {
        assert_eq!(
            pairing.link.as_deref(),
            Some(format!("{PUBLIC_URL}/g/{}", pairing.game).as_str())
        );
        for (name, side) in [(&pairing.red, "Red"), (&pairing.black, "Black")] {
            let player = member(name);
            let told = seen_by(&log, &Seen::Direct(player.id)).iter().any(|r| {
                let text = crate::tournament::shown(&r.json);
                text.contains(&pairing.game) && text.contains(&format!("You play {side}"))
            });
            assert!(told, "{name} is told of {} as {side}", pairing.game);
        }
    }

    // The first game's end: its two players just met, so they wait for someone else.
    let mut points: HashMap<String, u32> = PLAYERS.iter().map(|m| (kept_name(m.name), 0)).collect();
    bot.advance(Duration::from_secs(60));
    bot.tick().await;
    play_out(&bot, &first[0], true).await;
    *points.entry(first[0].red.clone()).or_default() += 2;
    assert_eq!(all_pairings(&bot, &id).len(), 2, "nobody paired yet");
    // The second's: the four are paired crosswise.
    play_out(&bot, &first[1], false).await;
    *points.entry(first[1].red.clone()).or_default() += 1;
    *points.entry(first[1].black.clone()).or_default() += 1;
    let all = all_pairings(&bot, &id);
    assert_eq!(all.len(), 4, "{all:?}");
    let met = |a: &str, b: &str, p: &Pairing| {
        (p.red == a && p.black == b) || (p.red == b && p.black == a)
    };
    for new in &all[2..] {
        for old in &first {
            assert!(
                !met(&new.red, &new.black, old),
                "{} and {} paired straight again",
                new.red,
                new.black
            );
        }
    }

    // In the last two minutes a game's end pairs nobody.
    advance_to(&bot, before_start + Duration::from_secs(9 * 60));
    bot.tick().await;
    play_out(&bot, &all[2], true).await;
    *points.entry(all[2].red.clone()).or_default() += 2;
    assert_eq!(all_pairings(&bot, &id).len(), 4, "no pairing near the end");

    // The tick at ten minutes ends it, the last game still running.
    advance_to(&bot, before_start + Duration::from_secs(10 * 60 + 2));
    bot.tick().await;
    let (over, text) = post_with(&bot, "The tournament is over").await;
    let text = unescaped(&text);
    assert!(
        text.contains("1 game still being played does not count"),
        "{text}"
    );
    let best = points.values().copied().max().expect("points");
    for (name, won) in &points {
        assert_eq!(
            text.contains(&format!("{name}!")) || text.contains(&format!("{name},")),
            *won == best,
            "{name} with {won} of {best}: {text}"
        );
    }
    let (_, name, bytes) = over.files.first().expect("the standings' picture");
    assert!(is_png(bytes), "{name}");
    assert_eq!(
        over.json["embeds"][0]["image"]["url"],
        format!("attachment://{name}"),
        "shown in the post"
    );
    if let Ok(path) = std::env::var("ARENA_STANDINGS_PNG") {
        std::fs::write(path, bytes).expect("written");
    }
    assert_eq!(posts_with(&bot, "The tournament is over").len(), 1);

    // The hostile name is escaped wherever it shows.
    for (_, text) in posts_with(&bot, "Eve") {
        assert!(!text.contains('\u{202e}'), "{text}");
        for raw in ["**Eve**", "_it_", "`code`", "[x](https://"] {
            assert!(
                !text.contains(raw),
                "{raw} left to Discord to format: {text}"
            );
        }
    }
    println!("===== the channel =====");
    for (_, text) in crate::tournament::posts(&bot) {
        println!("{text}\n---");
    }
}
