//! An eight-player Swiss of three rounds in a channel, run by its players through slash
//! commands and buttons against the fake Discord (issue 53): created with `/tournament
//! swiss`, entered with the announcement's Join button, started; each round's pairings
//! posted once with every game's live link, each player told by DM of their game and
//! colour, the games played to a result, the standings after each round with a PNG, the
//! final post naming the winner, and `/tournament trf` attaching a TRF-16 file that reads
//! back. One player's name is hostile (Markdown, HTML, a right-to-left override, very
//! long): the channel shows it as the characters typed, never as formatting or a link.

use crate::harness;

use std::collections::HashMap;

use harness::*;
use jieqi_fake_discord::{Member, Recorded, Seen};
use serde_json::{Value, json};

const PUBLIC_URL: &str = "https://jieqi.example";

/// The hostile player's name.
const HOSTILE: &str = "**Eve** _it_ ~~x~~ `code` [x](https://evil.example) <b>b</b> \u{202e}reversed\u{202c} and a name far too long to print";

const PLAYERS: [Member; 8] = [
    Member {
        id: 401,
        name: "ann",
    },
    Member {
        id: 402,
        name: "ben",
    },
    Member {
        id: 403,
        name: "cy",
    },
    Member {
        id: 404,
        name: "dot",
    },
    Member {
        id: 405,
        name: "eli",
    },
    Member {
        id: 406,
        name: "fay",
    },
    Member {
        id: 407,
        name: "gus",
    },
    Member {
        id: 408,
        name: HOSTILE,
    },
];

/// What a message body shows: its content and its embeds' descriptions.
pub(crate) fn shown(body: &Value) -> String {
    let body = body.get("data").unwrap_or(body);
    let mut text = body["content"].as_str().unwrap_or_default().to_owned();
    for embed in body["embeds"].as_array().into_iter().flatten() {
        if let Some(description) = embed["description"].as_str() {
            text.push('\n');
            text.push_str(description);
        }
    }
    text
}

/// The channel's posts, each with what it shows.
pub(crate) fn posts(bot: &Bot) -> Vec<(Recorded, String)> {
    let log = bot.fake.log();
    channel_posts(&log)
        .into_iter()
        .map(|r| (r.clone(), shown(&r.json)))
        .collect()
}

pub(crate) fn posts_with(bot: &Bot, needle: &str) -> Vec<(Recorded, String)> {
    posts(bot)
        .into_iter()
        .filter(|(_, text)| text.contains(needle))
        .collect()
}

/// Waits for a channel post showing `needle`; the newest such.
pub(crate) async fn post_with(bot: &Bot, needle: &str) -> (Recorded, String) {
    bot.fake
        .wait_for(&format!("a post with {needle:?}"), |log| {
            channel_posts(log)
                .iter()
                .any(|r| shown(&r.json).contains(needle))
        })
        .await;
    posts_with(bot, needle).pop().expect("the post")
}

/// The name as the bot keeps it: the override characters dropped, cut to 64 characters
/// with an ellipsis.
pub(crate) fn kept_name(name: &str) -> String {
    let kept: Vec<char> = name
        .chars()
        .filter(|c| !matches!(c, '\u{202a}'..='\u{202e}'))
        .collect();
    if kept.len() <= 64 {
        return kept.into_iter().collect();
    }
    let mut cut: String = kept[..64].iter().collect();
    cut.push('…');
    cut
}

/// The same text with Discord's Markdown escapes taken out: what a reader sees.
pub(crate) fn unescaped(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(next) = chars.peek()
            && next.is_ascii_punctuation()
        {
            out.push(*next);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

#[derive(Debug)]
struct Board {
    number: usize,
    red: String,
    black: String,
    game: String,
    link: Option<String>,
}

/// One game of a pairings post, `<red> (red) – <black> (black), game <id>[ · <link>]`, as
/// a reader sees it (escapes taken out): red's and black's names, the game, its link.
pub(crate) fn game_line(line: &str) -> Option<(&str, &str, &str, Option<String>)> {
    let (names, game) = line.rsplit_once(", game ")?;
    let (red, black) = names.split_once(" (red) – ")?;
    let black = black.strip_suffix(" (black)")?;
    Some(match game.split_once(" · ") {
        Some((game, link)) => (red, black, game, Some(link.to_owned())),
        None => (red, black, game, None),
    })
}

/// The boards of a pairings post as a reader sees it.
fn boards_of(text: &str) -> Vec<Board> {
    unescaped(text)
        .lines()
        .filter_map(|line| {
            let rest = line.split_once("Board ")?.1;
            let (number, rest) = rest.split_once(": ")?;
            let (red, black, game, link) = game_line(rest)?;
            Some(Board {
                number: number.parse().ok()?,
                red: red.to_owned(),
                black: black.to_owned(),
                game: game.to_owned(),
                link,
            })
        })
        .collect()
}

/// The Join button's custom id on the announcement `announcement`.
pub(crate) fn join_button(bot: &Bot, announcement: u64) -> String {
    bot.fake
        .message(announcement)
        .map(|m| buttons(&m))
        .unwrap_or_default()
        .into_iter()
        .map(|(b, _)| b)
        .find(|b| b.starts_with("tjn_"))
        .expect("a Join button")
}

/// The one of `players` whose name the bot shows as `name`.
pub(crate) fn member_in(players: &[Member], name: &str) -> Member {
    *players
        .iter()
        .find(|m| kept_name(m.name) == name)
        .unwrap_or_else(|| panic!("no player called {name:?}"))
}

fn member(name: &str) -> Member {
    member_in(&PLAYERS, name)
}

async fn command(bot: &Bot, who: Member, name: &str, options: Value) {
    bot.send(&bot.command(who, name, options)).await;
    bot.delivered().await;
}

/// `/tournament <sub>` by `who`, who manages the server (Discord's admins) if `manager`.
async fn tournament(bot: &Bot, who: Member, manager: bool, sub: &str, options: Value) {
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
    bot.delivered().await;
}

/// The newest board of `game` in the channel.
fn latest_board_of(bot: &Bot, game: &str) -> Option<(u64, Vec<String>)> {
    posts(bot)
        .into_iter()
        .rev()
        .find(|(r, text)| !r.files.is_empty() && text.contains(&format!("Game {game}")))
        .map(|(r, _)| {
            let id = message_id(&r);
            let buttons = bot
                .fake
                .message(id)
                .map(|m| buttons(&m))
                .unwrap_or_default()
                .into_iter()
                .map(|(b, _)| b)
                .collect();
            (id, buttons)
        })
}

async fn play(bot: &Bot, who: Member, game: &str, mv: &str) {
    command(
        bot,
        who,
        "move",
        json!([
            {"name": "game", "type": 3, "value": game},
            {"name": "move", "type": 3, "value": mv}
        ]),
    )
    .await;
}

/// Plays a round: board 1 a few moves and Black resigns with the button under the board,
/// board 2 drawn by offers, the others resigned by Red after a move each. Red's points per
/// game, in half points.
async fn play_round(bot: &Bot, boards: &[Board]) -> Vec<u16> {
    let mut red_points = Vec::new();
    for board in boards {
        let (red, black) = (member(&board.red), member(&board.black));
        let game = board.game.as_str();
        let game_option = json!([{"name": "game", "type": 3, "value": game}]);
        match board.number {
            1 => {
                for (who, mv) in [
                    (red, "h2e2"),
                    (black, "h9g7"),
                    (red, "h0g2"),
                    (black, "i9h9"),
                ] {
                    play(bot, who, game, mv).await;
                }
                let (post, buttons) = latest_board_of(bot, game).expect("a board");
                let resign = buttons
                    .into_iter()
                    .find(|b| b.starts_with("res_"))
                    .expect("a Resign button");
                bot.send(&bot.fake.button(black, &resign, post)).await;
                command(bot, black, "resign", game_option).await;
                red_points.push(2);
            }
            2 => {
                play(bot, red, game, "h2e2").await;
                play(bot, black, game, "h9g7").await;
                command(bot, red, "draw", game_option.clone()).await;
                command(bot, black, "draw", game_option).await;
                red_points.push(1);
            }
            _ => {
                play(bot, red, game, "h2e2").await;
                play(bot, black, game, "h9g7").await;
                command(bot, red, "resign", game_option.clone()).await;
                command(bot, red, "resign", game_option).await;
                red_points.push(0);
            }
        }
    }
    red_points
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eight_player_swiss_runs_in_a_channel_through_buttons_and_commands() {
    let bot = start_configured(
        |config| config.public_url = Some(PUBLIC_URL.to_owned()),
        |_| {},
    )
    .await;
    let admin = PLAYERS[0];
    // Only those who manage the server create one.
    tournament(&bot, PLAYERS[1], false, "swiss", json!([])).await;
    assert!(
        bot.fake
            .log()
            .iter()
            .any(|r| r.seen == Seen::Ephemeral(PLAYERS[1].id)
                && shown(&r.json).contains("Only this chat's admins")),
        "refused, to the asker alone"
    );
    tournament(
        &bot,
        admin,
        true,
        "swiss",
        json!([
            {"name": "rounds", "type": 3, "value": "3"},
            {"name": "variant", "type": 3, "value": "xiangqi"},
            {"name": "time", "type": 3, "value": "24h"}
        ]),
    )
    .await;
    let (announcement, _) = post_with(&bot, "Swiss, 3 rounds").await;
    let announcement = message_id(&announcement);
    let join = join_button(&bot, announcement);
    let id = join.trim_start_matches("tjn_").to_owned();
    for (count, player) in PLAYERS.iter().enumerate() {
        let press = bot.fake.button(*player, &join, announcement);
        bot.send(&press).await;
        bot.delivered().await;
        post_with(&bot, &format!("({} player", count + 1)).await;
    }
    tournament(&bot, admin, true, "start", json!([])).await;

    let mut points: HashMap<String, u16> = HashMap::new();
    for round in 1..=3 {
        let heading = format!("Round {round} of 3: the pairings");
        let (pairings, text) = post_with(&bot, &heading).await;
        let boards = boards_of(&text);
        assert_eq!(boards.len(), 4, "{text}");
        for board in &boards {
            assert_eq!(
                board.link.as_deref(),
                Some(format!("{PUBLIC_URL}/g/{}", board.game).as_str()),
                "{text}"
            );
        }
        assert!(text.contains(&format!("{PUBLIC_URL}/t/{id}")), "{text}");
        // Everyone seated is pinged, and nobody else.
        let mut pinged: Vec<String> = pairings.json["allowed_mentions"]["users"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str().map(str::to_owned))
            .collect();
        pinged.sort();
        let mut everyone: Vec<String> = PLAYERS.iter().map(|m| m.id.to_string()).collect();
        everyone.sort();
        assert_eq!(pinged, everyone);

        // Each player is told by DM of their game and colour.
        let log = bot.fake.log();
        for board in &boards {
            for (name, side) in [(&board.red, "Red"), (&board.black, "Black")] {
                let player = member(name);
                let told = seen_by(&log, &Seen::Direct(player.id)).iter().any(|r| {
                    let text = shown(&r.json);
                    text.contains(&board.game) && text.contains(&format!("You play {side}"))
                });
                assert!(told, "{name} is told of {} as {side}", board.game);
            }
        }

        let red_points = play_round(&bot, &boards).await;
        for (board, red) in boards.iter().zip(red_points) {
            *points.entry(board.red.clone()).or_default() += red;
            *points.entry(board.black.clone()).or_default() += 2 - red;
        }
        let (standings, _) = post_with(&bot, &format!("Standings after round {round} of 3")).await;
        let (_, name, bytes) = standings.files.first().expect("the standings' picture");
        assert!(is_png(bytes), "{name}");
        assert_eq!(
            standings.json["embeds"][0]["image"]["url"],
            format!("attachment://{name}"),
            "shown in the post"
        );
    }

    let (over, text) = post_with(&bot, "The tournament is over").await;
    assert!(!over.files.is_empty(), "with the standings' picture");
    let best = points.values().copied().max().expect("points");
    let seen = unescaped(&text);
    assert!(
        seen.contains("Standings after round 3 of 3"),
        "the final post is also the last round's standings: {seen}"
    );
    // The winners' line comes first; the last round's top three follow it.
    let seen = seen
        .lines()
        .find(|l| l.contains("The tournament is over"))
        .unwrap_or_default()
        .to_string();
    let named: Vec<&String> = points.keys().filter(|n| seen.contains(*n)).collect();
    assert!(!named.is_empty(), "{text}");
    for name in named {
        assert_eq!(points[name], best, "{name} won: {text}");
    }
    for needle in [
        "Round 1 of 3: the pairings",
        "Round 2 of 3: the pairings",
        "Round 3 of 3: the pairings",
        "Standings after round 1 of 3",
        "Standings after round 2 of 3",
        "Standings after round 3 of 3",
        "The tournament is over",
    ] {
        assert_eq!(posts_with(&bot, needle).len(), 1, "{needle}: once");
    }

    // The TRF-16 file, attached to the answer, reads back with the points played.
    let trf = bot.command(
        PLAYERS[3],
        "tournament",
        json!([{"name": "trf", "type": 1, "options": []}]),
    );
    bot.send(&trf).await;
    let log = bot
        .fake
        .wait_for("the TRF file", |log| {
            log.iter()
                .any(|r| r.files.iter().any(|(_, n, _)| n.ends_with(".trf")))
        })
        .await;
    let (_, name, bytes) = log
        .iter()
        .flat_map(|r| r.files.iter())
        .find(|(_, n, _)| n.ends_with(".trf"))
        .expect("the file");
    assert_eq!(name, &format!("{id}.trf"));
    let text = String::from_utf8(bytes.clone()).expect("UTF-8");
    let swiss = jieqi_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(swiss.rounds_paired(), 3);
    for entrant in swiss.entrants() {
        let name = entrant.name.trim();
        let (_, played) = points
            .iter()
            .find(|(full, _)| full.starts_with(name))
            .unwrap_or_else(|| panic!("{name:?} is a player"));
        let read: u16 = entrant.entries.iter().map(|e| e.points().0).sum();
        assert_eq!(read, *played, "{name}'s points in the file");
    }

    // The hostile name: every post of the event that names it shows it as typed (once the
    // escapes are read), none formats it or turns it into a link, and none carries the
    // override.
    let hostile = kept_name(HOSTILE);
    let naming: Vec<(Recorded, String)> = posts(&bot)
        .into_iter()
        .filter(|(_, text)| unescaped(text).contains(&hostile))
        .collect();
    assert!(
        naming.len() >= 5,
        "joined, pairings, standings, end: {naming:#?}"
    );
    for (_, text) in &naming {
        assert!(!text.contains('\u{202e}'), "{text}");
        for raw in ["**Eve**", "_it_", "~~x~~", "`code`", "[x](https://"] {
            assert!(
                !text.contains(raw),
                "{raw} left to Discord to format: {text}"
            );
        }
    }
}
