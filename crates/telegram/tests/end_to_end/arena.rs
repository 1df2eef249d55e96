//! A 10-minute arena in a group, run by its players through the real adapter against the
//! fake Bot API (issue 53), its ten minutes on the harness's scripted clock: the admin
//! creates it, players enter by the Join button and by `/tournament join`, the start pairs
//! everyone waiting and a late entry is paired at once; the games are played to a result by
//! commands and buttons, and each game's end pairs its players again with whoever waits,
//! never with the one they just met; wins on a streak count double (🔥), a player who leaves
//! is paired no more, pairing stops two minutes before the end, and the end comes by the
//! service's tick with a game still running, which does not count. Every pairing is posted
//! once with each game's live link, each player told privately of their game and colour,
//! and the final post names the winner with the standings picture. One player's name is
//! hostile (HTML, Markdown, a right-to-left override, very long): plain text everywhere.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, SystemTime};

use crate::fake_bot_api::Post;
use crate::harness::{GROUP, Harness, STEP};
use crate::tournament_support::{
    PUBLIC_URL, assert_hostile_name_is_plain_text, hostile_shown, id_of, introduce, png_size,
    posts_with,
};

/// The six players: Telegram id and the name the bot calls them by.
fn players() -> Vec<(i64, String)> {
    let mut players: Vec<(i64, String)> = ["ann", "ben", "cy", "dot", "eli"]
        .iter()
        .zip(201..)
        .map(|(name, id)| (id, format!("@{name}")))
        .collect();
    players.push((206, hostile_shown()));
    players
}

/// One game of the arena as its pairings post reads: `A (red) – B 🔥 (black), game g7k2 ·
/// <link>`, the flame after a player on a streak.
#[derive(Clone, Debug)]
struct Pairing {
    red: String,
    black: String,
    red_on_fire: bool,
    black_on_fire: bool,
    game: String,
    link: Option<String>,
}

/// A name as a pairings line shows it, and whether a flame follows it.
fn name_and_fire(shown: &str) -> (String, bool) {
    match shown.strip_suffix(" 🔥") {
        Some(name) => (name.to_owned(), true),
        None => (shown.to_owned(), false),
    }
}

/// The games of an arena pairings post.
fn pairings_of(post: &str) -> Vec<Pairing> {
    post.lines()
        .filter_map(|line| {
            let (names, game) = line.rsplit_once(", game ")?;
            let (red, black) = names.split_once(" (red) – ")?;
            let black = black.strip_suffix(" (black)")?;
            let (game, link) = match game.split_once(" · ") {
                Some((game, link)) => (game, Some(link.to_owned())),
                None => (game, None),
            };
            let (red, red_on_fire) = name_and_fire(red);
            let (black, black_on_fire) = name_and_fire(black);
            Some(Pairing {
                red,
                black,
                red_on_fire,
                black_on_fire,
                game: game.to_owned(),
                link,
            })
        })
        .collect()
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    RedWins,
    BlackWins,
    Draw,
}

/// The arena as the chat saw it: every pairing posted, results as played, who left; and
/// the points counted as lichess counts them (2 a win, 1 a draw, doubled after two wins in
/// a row until a game is not won), apart from the service's own count.
#[derive(Default)]
struct Seen {
    pairings: Vec<Pairing>,
    /// Pairings posts read so far.
    posts: usize,
    ended: HashMap<String, End>,
    left: HashSet<String>,
    points: HashMap<String, u32>,
    streak: HashMap<String, u32>,
    last_opponent: HashMap<String, String>,
}

impl Seen {
    fn running(&self) -> Vec<Pairing> {
        self.pairings
            .iter()
            .filter(|p| !self.ended.contains_key(&p.game))
            .cloned()
            .collect()
    }

    fn playing(&self, name: &str) -> bool {
        self.running()
            .iter()
            .any(|p| p.red == name || p.black == name)
    }

    fn on_fire(&self, name: &str) -> bool {
        self.streak.get(name).copied().unwrap_or(0) >= 2
    }

    /// A result that counts (the game ended before the arena's end).
    fn count(&mut self, pairing: &Pairing, end: End) {
        self.ended.insert(pairing.game.clone(), end);
        for (me, won, drew) in [
            (&pairing.red, end == End::RedWins, end == End::Draw),
            (&pairing.black, end == End::BlackWins, end == End::Draw),
        ] {
            let base = if won { 2 } else { u32::from(drew) };
            let factor = if self.on_fire(me) { 2 } else { 1 };
            *self.points.entry(me.clone()).or_default() += base * factor;
            let streak = self.streak.entry(me.clone()).or_default();
            *streak = if won { *streak + 1 } else { 0 };
        }
    }
}

/// Reads the pairings posts not read yet, checking each new game against what an arena
/// promises: neither player busy or gone, not the opponent just met, a flame exactly on a
/// streak, the game's live link and the event's page; and each player's private notice of
/// the game and their colour. Returns the new games.
async fn read_pairings(
    h: &Harness,
    seen: &mut Seen,
    id: &str,
    players: &[(i64, String)],
) -> Vec<Pairing> {
    let posts: Vec<Post> = h
        .posts(GROUP)
        .into_iter()
        .filter(|p| p.text.starts_with(&format!("Arena {id}, new games")))
        .collect();
    let mut new = Vec::new();
    for post in &posts[seen.posts..] {
        assert!(
            post.text.contains(&format!("{PUBLIC_URL}/t/{id}")),
            "the event's page: {}",
            post.text
        );
        let games = pairings_of(&post.text);
        assert!(!games.is_empty(), "{}", post.text);
        for pairing in games {
            for (me, them, fire) in [
                (&pairing.red, &pairing.black, pairing.red_on_fire),
                (&pairing.black, &pairing.red, pairing.black_on_fire),
            ] {
                assert!(
                    !seen.playing(me),
                    "{me} paired while playing: {}",
                    post.text
                );
                assert!(
                    !seen.left.contains(me),
                    "{me} paired after leaving: {}",
                    post.text
                );
                assert_ne!(
                    seen.last_opponent.get(me),
                    Some(them),
                    "{me} paired straight again with {them}: {}",
                    post.text
                );
                assert_eq!(fire, seen.on_fire(me), "{me}'s flame: {}", post.text);
            }
            assert_eq!(
                pairing.link.as_deref(),
                Some(format!("{PUBLIC_URL}/g/{}", pairing.game).as_str()),
                "each game's live link: {}",
                post.text
            );
            seen.last_opponent
                .insert(pairing.red.clone(), pairing.black.clone());
            seen.last_opponent
                .insert(pairing.black.clone(), pairing.red.clone());
            seen.pairings.push(pairing.clone());
            new.push(pairing);
        }
    }
    seen.posts = posts.len();
    for pairing in &new {
        for (name, side) in [(&pairing.red, "Red"), (&pairing.black, "Black")] {
            let notice = h.post_containing(id_of(players, name), &pairing.game).await;
            assert!(
                notice.text.contains(&format!("You play {side}")),
                "{name}: {}",
                notice.text
            );
        }
    }
    new
}

/// While pairing is open nobody waits who could play someone else waiting: two waiting
/// players have just met each other.
fn assert_nobody_waits_needlessly(seen: &Seen, players: &[(i64, String)]) {
    let waiting: Vec<&String> = players
        .iter()
        .map(|(_, name)| name)
        .filter(|name| !seen.playing(name) && !seen.left.contains(*name))
        .collect();
    for (k, a) in waiting.iter().enumerate() {
        for b in &waiting[k + 1..] {
            assert!(
                seen.last_opponent.get(*a) == Some(*b) || seen.last_opponent.get(*b) == Some(*a),
                "{a} and {b} both wait and could play"
            );
        }
    }
}

fn boards_of(h: &Harness, game: &str) -> usize {
    h.posts(GROUP)
        .iter()
        .filter(|p| p.photo.is_some() && p.text.contains(&format!("Game {game}")))
        .count()
}

/// `who` plays `mv` in `game` and waits for the board it makes.
async fn play(h: &Harness, who: i64, game: &str, mv: &str) {
    let before = boards_of(h, game);
    h.fake.say(who, GROUP, &format!("/move {game} {mv}"));
    h.fake
        .wait_for(&format!("the board after {mv} in {game}"), STEP, |_| {
            boards_of(h, game) > before
        })
        .await;
}

/// `who` resigns `game` by command and confirms with the button the question carries.
async fn resign(h: &Harness, who: i64, game: &str) {
    h.fake.say(who, GROUP, &format!("/resign {game}"));
    let question = h
        .post_containing(GROUP, &format!("Do you really want to resign game {game}"))
        .await;
    let confirm = question
        .button_starting("rsy_")
        .expect("a Yes, resign button");
    h.fake.press(who, &question, &confirm);
}

/// Both sides move, then the game ends as `end` says; waits until its result and whatever
/// it caused (the next pairings) are delivered.
async fn play_out(h: &Harness, players: &[(i64, String)], pairing: &Pairing, end: End) {
    let red = id_of(players, &pairing.red);
    let black = id_of(players, &pairing.black);
    let game = pairing.game.as_str();
    play(h, red, game, "h2e2").await;
    play(h, black, game, "h9g7").await;
    match end {
        End::RedWins => resign(h, black, game).await,
        End::BlackWins => resign(h, red, game).await,
        End::Draw => {
            h.fake.say(red, GROUP, &format!("/draw {game}"));
            h.post_containing(GROUP, &format!("offers a draw in game {game}"))
                .await;
            h.fake.say(black, GROUP, &format!("/draw {game}"));
        }
    }
    h.post_containing(GROUP, &format!("Game {game} is over."))
        .await;
    h.delivered().await;
}

/// The game `seen` would end next: ann's if she plays (she wins it), else the oldest.
fn next_to_end(seen: &Seen, ann: &str, turn: usize) -> (Pairing, End) {
    let running = seen.running();
    if let Some(hers) = running.iter().find(|p| p.red == ann || p.black == ann) {
        let end = if hers.red == ann {
            End::RedWins
        } else {
            End::BlackWins
        };
        return (hers.clone(), end);
    }
    let end = if turn.is_multiple_of(2) {
        End::Draw
    } else {
        End::RedWins
    };
    (running.first().expect("a game running").clone(), end)
}

/// Moves the clock on to `at` (if it is still to come).
fn advance_to(h: &Harness, at: SystemTime) {
    if let Ok(ahead) = at.duration_since(h.clock.now()) {
        h.advance(ahead);
    }
}

/// What the group and each player's private chat read, for `--no-capture`.
fn print_transcript(h: &Harness, players: &[(i64, String)]) {
    let picture = |p: &Post| if p.photo.is_some() { " [picture]" } else { "" };
    println!("===== the group =====");
    for post in h.posts(GROUP) {
        let buttons: Vec<String> = post.buttons().into_iter().map(|(label, _)| label).collect();
        println!("{}{} {buttons:?}\n---", post.text, picture(&post));
    }
    for (id, name) in players {
        println!("===== {name}, privately =====");
        for post in h.posts(*id) {
            println!("{}{}\n---", post.text, picture(&post));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_minute_arena_runs_in_a_group_on_the_ticking_clock_through_buttons_and_commands() {
    let h = Harness::start_configured(54, &[], |config| {
        config.public_url = Some(PUBLIC_URL.to_owned());
    })
    .await;
    let players = players();
    introduce(&h, &players).await;
    let name = |i: usize| players[i].1.clone();
    let (ann, ben, cy, dot, eli, eve) = (
        players[0].0,
        players[1].0,
        players[2].0,
        players[3].0,
        players[4].0,
        players[5].0,
    );
    h.fake.make_admin(GROUP, ann);

    // Only an admin creates; a time per move of a day, so that no clock runs out while the
    // test moves time on by minutes.
    h.fake.say(ben, GROUP, "/tournament arena 10 xiangqi 1d");
    h.post_containing(GROUP, "Only this chat's admins").await;
    h.fake.say(ann, GROUP, "/tournament arena 10 xiangqi 1d");
    let announcement = h.post_containing(GROUP, "arena of 10 minutes").await;
    let join = announcement.button_starting("tjn_").expect("a Join button");
    let leave = announcement
        .button_starting("tlv_")
        .expect("a Leave button");
    let id = join.trim_start_matches("tjn_").to_owned();

    // Four press Join (the real callback query), one types the command.
    for (count, player) in [ann, ben, cy, eve].into_iter().enumerate() {
        h.fake.press(player, &announcement, &join);
        h.post_containing(
            GROUP,
            &format!("joined the tournament ({} player", count + 1),
        )
        .await;
    }
    h.fake.say(dot, GROUP, "/tournament join");
    h.post_containing(GROUP, "joined the tournament (5 players)")
        .await;
    let hostile_joined = h.post_containing(GROUP, "joined the tournament (4").await;
    assert!(
        hostile_joined.text.starts_with(&hostile_shown()),
        "{}",
        hostile_joined.text
    );

    // The start: the end set ten minutes ahead, everyone waiting paired (two games, one
    // player waits).
    let before_start = h.clock.now();
    h.fake.say(ann, GROUP, "/tournament start");
    let started = h
        .post_containing(
            GROUP,
            &format!("Arena {id} has started: 10 minutes, until "),
        )
        .await;
    assert!(started.text.contains(" UTC."), "{}", started.text);
    h.delivered().await;
    let mut seen = Seen::default();
    let first = read_pairings(&h, &mut seen, &id, &players).await;
    assert_eq!(first.len(), 2, "{:?}", first);
    let entered: Vec<(i64, String)> = players.iter().filter(|(p, _)| *p != eli).cloned().collect();
    assert_nobody_waits_needlessly(&seen, &entered);

    // A late entry is paired at once with the one waiting.
    h.fake.say(eli, GROUP, "/tournament join");
    h.post_containing(GROUP, "joined the arena (6 players)")
        .await;
    h.delivered().await;
    let late = read_pairings(&h, &mut seen, &id, &players).await;
    assert_eq!(late.len(), 1, "{late:?}");
    assert!(late[0].red == name(4) || late[0].black == name(4));
    assert_nobody_waits_needlessly(&seen, &players);

    // Games end one by one, a minute apart; ann wins every game she plays (her third on
    // a streak: worth double), the others are drawn or won by Red. Each end pairs again.
    let ann_name = name(0);
    let mut turn = 0;
    let ann_games = |seen: &Seen| {
        seen.pairings
            .iter()
            .filter(|p| seen.ended.contains_key(&p.game))
            .filter(|p| p.red == ann_name || p.black == ann_name)
            .count()
    };
    while ann_games(&seen) < 3 {
        turn += 1;
        assert!(turn < 12, "ann gets her games");
        h.advance(Duration::from_secs(30));
        h.tick().await;
        let (pairing, end) = next_to_end(&seen, &ann_name, turn);
        play_out(&h, &players, &pairing, end).await;
        seen.count(&pairing, end);
        read_pairings(&h, &mut seen, &id, &players).await;
        assert_nobody_waits_needlessly(&seen, &players);
    }
    assert_eq!(seen.points[&ann_name], 8, "2, 2 and 4 on the streak");
    assert!(
        seen.pairings
            .iter()
            .any(|p| (p.red == ann_name && p.red_on_fire)
                || (p.black == ann_name && p.black_on_fire)),
        "her third game's pairing shows her streak"
    );
    h.fake.say(cy, GROUP, "/tournament standings");
    let standings = h.post_containing(GROUP, "Arena standings").await;
    assert!(
        standings.text.contains(&format!("1. {ann_name} 8 🔥")),
        "{}",
        standings.text
    );
    let (width, height) = png_size(standings.photo.as_ref().expect("a picture"));
    assert!(width >= 400 && height >= 200, "{width}×{height}");

    // dot leaves by the button: a game of hers is played out, and she is paired no more.
    h.fake.press(dot, &announcement, &leave);
    h.post_containing(GROUP, &format!("{} left the tournament", name(3)))
        .await;
    h.delivered().await;
    seen.left.insert(name(3));
    if let Some(hers) = seen
        .running()
        .into_iter()
        .find(|p| p.red == name(3) || p.black == name(3))
    {
        let end = if hers.red == name(3) {
            End::BlackWins
        } else {
            End::RedWins
        };
        play_out(&h, &players, &hers, end).await;
        seen.count(&hers, end);
        read_pairings(&h, &mut seen, &id, &players).await;
        assert_nobody_waits_needlessly(&seen, &players);
    }
    // Another game ends before the stop, and its players are paired again without her.
    turn += 1;
    let (pairing, end) = next_to_end(&seen, &ann_name, turn);
    play_out(&h, &players, &pairing, end).await;
    seen.count(&pairing, end);
    read_pairings(&h, &mut seen, &id, &players).await;
    assert_nobody_waits_needlessly(&seen, &players);

    // Two minutes before the end pairing stops: a game ending then frees its players to
    // wait for the end.
    assert!(
        h.clock.now() < before_start + Duration::from_secs(7 * 60),
        "all of that before the stop"
    );
    advance_to(&h, before_start + Duration::from_secs(9 * 60));
    h.tick().await;
    let running = seen.running();
    assert!(running.len() >= 2, "{running:?}");
    let posts_before = seen.posts;
    play_out(&h, &players, &running[0], End::RedWins).await;
    seen.count(&running[0], End::RedWins);
    assert!(read_pairings(&h, &mut seen, &id, &players).await.is_empty());
    assert_eq!(
        seen.posts, posts_before,
        "no pairings in the last two minutes"
    );

    // The end: a tick at ten minutes finishes it, with a game still being played.
    let still = seen.running();
    assert!(!still.is_empty());
    advance_to(&h, before_start + Duration::from_secs(9 * 60 + 30));
    h.tick().await;
    assert!(
        posts_with(&h, "The tournament is over").is_empty(),
        "not before its end"
    );
    advance_to(&h, before_start + Duration::from_secs(10 * 60 + 2));
    h.tick().await;
    let over = h.post_containing(GROUP, "The tournament is over").await;
    h.delivered().await;
    let best = seen.points.values().copied().max().expect("points");
    let winners: Vec<&String> = seen
        .points
        .iter()
        .filter(|(_, p)| **p == best)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(winners, [&ann_name], "{:?}", seen.points);
    assert!(
        over.text.contains(&format!("The winner: {ann_name}!")),
        "{}",
        over.text
    );
    let still_text = if still.len() == 1 {
        "1 game still being played does not count".to_owned()
    } else {
        format!("{} games still being played do not count", still.len())
    };
    assert!(over.text.contains(&still_text), "{}", over.text);
    let picture = over.photo.as_ref().expect("the standings' picture");
    let (width, height) = png_size(picture);
    assert!(width >= 400 && height >= 200, "{width}×{height}");
    if let Ok(path) = std::env::var("ARENA_STANDINGS_PNG") {
        std::fs::write(path, picture).expect("written");
    }

    // The game still running is played out as an ordinary game, and counts for nothing.
    play_out(&h, &players, &still[0], End::BlackWins).await;
    assert!(read_pairings(&h, &mut seen, &id, &players).await.is_empty());
    h.fake.say(cy, GROUP, "/tournament standings");
    let frozen = h.post_containing(GROUP, "The arena is over").await;
    assert!(
        frozen.text.contains(&format!("1. {ann_name} {best}")),
        "{}",
        frozen.text
    );

    // Every post once; the hostile name plain text, without its override.
    for needle in [&format!("Arena {id} has started"), "The tournament is over"] {
        assert_eq!(posts_with(&h, needle).len(), 1, "{needle}: once");
    }
    assert!(h.fake.duplicates().is_empty(), "{:#?}", h.fake.duplicates());
    assert_hostile_name_is_plain_text(&h);
    print_transcript(&h, &players);
}
