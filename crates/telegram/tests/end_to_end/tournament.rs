//! An eight-player Swiss of three rounds in a group, run by its players through the real
//! adapter against the fake Bot API (issue 53): the admin creates it, everyone presses
//! Join, the start pairs round 1; each round's pairings are posted once with every game's
//! live link, each player is told privately of their game and colour, the games are played
//! to a result by commands and buttons, the standings after each round come with a PNG, the
//! final post names the winner, and `/tournament trf` sends a TRF-16 file that reads back
//! with the same points. One player's name is hostile (HTML, Markdown, a right-to-left
//! override, very long): it reaches every post as plain text, without its override.

use std::collections::HashMap;

use crate::fake_bot_api::Post;
use crate::harness::{GROUP, Harness, STEP};
use crate::tournament_support::{
    PUBLIC_URL, assert_hostile_name_is_plain_text, hostile_shown, id_of, introduce, png_size,
    posts_with,
};

/// One board of a round, as its pairings post reads.
#[derive(Clone, Debug)]
struct Board {
    number: usize,
    red: String,
    black: String,
    game: String,
    link: Option<String>,
}

/// The boards of a pairings post: `Board 1: A (red) – B (black), game g7k2 · <link>`.
fn boards_of(post: &str) -> Vec<Board> {
    post.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Board ")?;
            let (number, rest) = rest.split_once(": ")?;
            let (names, game) = rest.rsplit_once(", game ")?;
            let (red, black) = names.split_once(" (red) – ")?;
            let black = black.strip_suffix(" (black)")?;
            let (game, link) = match game.split_once(" · ") {
                Some((game, link)) => (game, Some(link.to_owned())),
                None => (game, None),
            };
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

/// The eight players: Telegram id and the name the bot calls them by.
fn players() -> Vec<(i64, String)> {
    let mut players: Vec<(i64, String)> = ["ann", "ben", "cy", "dot", "eli", "fay", "gus"]
        .iter()
        .zip(101..)
        .map(|(name, id)| (id, format!("@{name}")))
        .collect();
    players.push((108, hostile_shown()));
    players
}

fn photos_of(h: &Harness, game: &str) -> Vec<Post> {
    h.posts(GROUP)
        .into_iter()
        .filter(|p| p.photo.is_some() && p.text.contains(&format!("Game {game}")))
        .collect()
}

/// `who` plays `mv` in `game` and waits for the board it makes.
async fn play(h: &Harness, who: i64, game: &str, mv: &str) {
    let before = photos_of(h, game).len();
    h.fake.say(who, GROUP, &format!("/move {game} {mv}"));
    h.fake
        .wait_for(&format!("the board after {mv} in {game}"), STEP, |_| {
            photos_of(h, game).len() > before
        })
        .await;
}

/// Waits for the post that ends `game` (its result).
async fn game_over(h: &Harness, game: &str) {
    h.fake
        .wait_for(&format!("the end of {game}"), STEP, |fake| {
            fake.posts_in(GROUP)
                .iter()
                .any(|p| p.text.contains(game) && p.text.contains("is over"))
        })
        .await;
}

/// The round's games played to a result by their players. Board 1 is played for a few
/// moves and Black resigns with the button under its board; board 2 is drawn by offers;
/// from board 3 on Red resigns after a move each. Returns each game's points for Red, in
/// half points.
async fn play_round(h: &Harness, players: &[(i64, String)], boards: &[Board]) -> Vec<u16> {
    let mut red_points = Vec::new();
    for board in boards {
        let red = id_of(players, &board.red);
        let black = id_of(players, &board.black);
        let game = board.game.as_str();
        match board.number {
            1 => {
                for (who, mv) in [
                    (red, "h2e2"),
                    (black, "h9g7"),
                    (red, "h0g2"),
                    (black, "i9h9"),
                    (red, "i0h0"),
                    (black, "b9c7"),
                ] {
                    play(h, who, game, mv).await;
                }
                let last = photos_of(h, game).pop().expect("a board");
                let resign = last.button_starting("res_").expect("a Resign button");
                h.fake.press(black, &last, &resign);
                // Resigning asks once; the second /resign confirms.
                h.fake
                    .wait_for("the question whether to resign", STEP, |fake| {
                        fake.calls()
                            .iter()
                            .any(|c| c.method == "answerCallbackQuery")
                    })
                    .await;
                h.fake.say(black, GROUP, &format!("/resign {game}"));
                red_points.push(2);
            }
            2 => {
                play(h, red, game, "h2e2").await;
                play(h, black, game, "h9g7").await;
                h.fake.say(red, GROUP, &format!("/draw {game}"));
                h.post_containing(GROUP, "offers a draw").await;
                h.fake.say(black, GROUP, &format!("/draw {game}"));
                red_points.push(1);
            }
            _ => {
                play(h, red, game, "h2e2").await;
                play(h, black, game, "h9g7").await;
                h.fake.say(red, GROUP, &format!("/resign {game}"));
                h.fake.say(red, GROUP, &format!("/resign {game}"));
                red_points.push(0);
            }
        }
        game_over(h, game).await;
    }
    red_points
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eight_player_swiss_runs_in_a_group_through_buttons_and_commands() {
    let h = Harness::start_configured(53, &[], |config| {
        config.public_url = Some(PUBLIC_URL.to_owned());
    })
    .await;
    let players = players();
    introduce(&h, &players).await;
    let admin = players[0].0;
    h.fake.make_admin(GROUP, admin);

    // Only an admin creates; Telegram is asked who administers the group.
    h.fake
        .say(players[1].0, GROUP, "/tournament swiss 3 rounds xiangqi 1d");
    h.post_containing(GROUP, "Only this chat's admins").await;
    h.fake
        .say(admin, GROUP, "/tournament swiss 3 rounds xiangqi 1d");
    let announcement = h.post_containing(GROUP, "Swiss, 3 rounds").await;
    let join = announcement.button_starting("tjn_").expect("a Join button");
    assert!(
        announcement.button_starting("tlv_").is_some(),
        "a Leave button"
    );
    let id = join.trim_start_matches("tjn_").to_owned();

    // Everyone presses Join: the real callback query.
    for (count, (player, _)) in players.iter().enumerate() {
        h.fake.press(*player, &announcement, &join);
        h.post_containing(GROUP, &format!("({} player", count + 1))
            .await;
    }
    let hostile_joined = h.post_containing(GROUP, "joined the tournament (8").await;
    assert!(
        hostile_joined.text.starts_with(&hostile_shown()),
        "{}",
        hostile_joined.text
    );

    h.fake.say(admin, GROUP, "/tournament start");
    let mut points: HashMap<String, u16> = HashMap::new();
    let mut looked_at = false;
    for round in 1..=3usize {
        let heading = format!("Round {round} of 3: the pairings");
        let pairings = h.post_containing(GROUP, &heading).await;
        let boards = boards_of(&pairings.text);
        assert_eq!(boards.len(), 4, "{}", pairings.text);
        for board in &boards {
            assert_eq!(
                board.link.as_deref(),
                Some(format!("{PUBLIC_URL}/g/{}", board.game).as_str()),
                "each game's live link: {}",
                pairings.text
            );
        }
        assert!(
            pairings.text.contains(&format!("{PUBLIC_URL}/t/{id}")),
            "the event's page: {}",
            pairings.text
        );
        let mut seated: Vec<&str> = boards
            .iter()
            .flat_map(|b| [b.red.as_str(), b.black.as_str()])
            .collect();
        seated.sort_unstable();
        seated.dedup();
        assert_eq!(seated.len(), 8, "everyone plays once: {}", pairings.text);

        // Each player is told privately of their game and colour.
        for board in &boards {
            for (name, side) in [(&board.red, "Red"), (&board.black, "Black")] {
                let player = id_of(&players, name);
                let notice = h.post_containing(player, &board.game).await;
                assert!(
                    notice.text.contains(&format!("You play {side}")),
                    "{name}: {}",
                    notice.text
                );
            }
        }

        let red_points = play_round(&h, &players, &boards).await;
        for (board, red) in boards.iter().zip(red_points) {
            *points.entry(board.red.clone()).or_default() += red;
            *points.entry(board.black.clone()).or_default() += 2 - red;
        }

        let after = format!("Standings after round {round} of 3");
        let standings = h.post_containing(GROUP, &after).await;
        let picture = standings.photo.as_ref().expect("the standings' picture");
        let (width, height) = png_size(picture);
        assert!(width >= 400 && height >= 200, "{width}×{height}");
        if let Ok(path) = std::env::var("TOURNAMENT_STANDINGS_PNG")
            && !looked_at
        {
            std::fs::write(path, picture).expect("written");
            looked_at = true;
        }
        if round < 3 {
            let next = format!("Round {} of 3: the pairings", round + 1);
            h.post_containing(GROUP, &next).await;
        }
    }

    // The final post names the winners (everyone with the most points here: the three
    // rounds' results give no tie-break a chance to split them in general, so the check
    // is that the named ones have the most points and the top scorer is among them).
    let over = h.post_containing(GROUP, "The tournament is over").await;
    assert!(over.photo.is_some(), "with the standings' picture");
    let best = points.values().copied().max().expect("points");
    // The winners' line comes first; the last round's top three follow it.
    let winners_line = over
        .text
        .lines()
        .find(|l| l.contains("The tournament is over"))
        .unwrap_or_default();
    assert!(
        over.text.contains("Standings after round 3 of 3"),
        "the final post is also the last round's standings: {}",
        over.text
    );
    let named: Vec<&String> = points
        .keys()
        .filter(|n| winners_line.contains(*n))
        .collect();
    assert!(!named.is_empty(), "{}", over.text);
    for name in named {
        assert_eq!(
            points[name], best,
            "{name} won with the most points: {}",
            over.text
        );
    }

    // Every post appeared once.
    for needle in [
        "Round 1 of 3: the pairings",
        "Round 2 of 3: the pairings",
        "Round 3 of 3: the pairings",
        "Standings after round 1 of 3",
        "Standings after round 2 of 3",
        "Standings after round 3 of 3",
        "The tournament is over",
    ] {
        assert_eq!(posts_with(&h, needle).len(), 1, "{needle}: once");
    }
    assert!(h.fake.duplicates().is_empty(), "{:#?}", h.fake.duplicates());

    // The TRF-16 file reads back with three rounds and the points played.
    h.fake.say(players[3].0, GROUP, "/tournament trf");
    h.fake
        .wait_for("the TRF file", STEP, |fake| {
            fake.posts_in(GROUP).iter().any(|p| {
                p.document
                    .as_ref()
                    .is_some_and(|d| d.file_name.ends_with(".trf"))
            })
        })
        .await;
    let file = h
        .posts(GROUP)
        .into_iter()
        .find_map(|p| p.document.filter(|d| d.file_name.ends_with(".trf")))
        .expect("the file");
    assert_eq!(file.file_name, format!("{id}.trf"));
    let text = String::from_utf8(file.bytes).expect("UTF-8");
    let swiss = jieqi_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(swiss.rounds_paired(), 3, "{text}");
    assert_eq!(swiss.entrants().len(), 8);
    for entrant in swiss.entrants() {
        let name = entrant.name.trim();
        let (_, played) = points
            .iter()
            .find(|(full, _)| full.starts_with(name))
            .unwrap_or_else(|| panic!("{name:?} is a player"));
        let read: u16 = entrant.entries.iter().map(|e| e.points().0).sum();
        assert_eq!(read, *played, "{name}'s points in the file");
    }

    // The hostile name went out as plain text everywhere: no call asked Telegram to read
    // markup, and no override character reached the group.
    assert_hostile_name_is_plain_text(&h);
}
