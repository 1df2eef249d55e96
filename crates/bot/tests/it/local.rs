//! `jieqi-bot local` end to end: the real binary, a scripted Jieqi opening, and checks of who
//! was told what.

use crate::common;

use std::time::Duration;

use common::{Local, game_script, pictures, tagged};

fn folders() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let root = tempfile::tempdir().expect("a temporary folder");
    let data = root.path().join("data");
    let out = root.path().join("out");
    (root, data, out)
}

fn is_png(path: &str) -> bool {
    std::fs::read(path).is_ok_and(|bytes| bytes.starts_with(b"\x89PNG\r\n\x1a\n"))
}

fn dm_recipients(lines: &[String]) -> Vec<String> {
    let mut names: Vec<String> = lines
        .iter()
        .filter_map(|line| {
            line.strip_prefix("[dm ")?
                .split_once(']')
                .map(|(name, _)| name.to_owned())
        })
        .collect();
    names.dedup();
    names
}

#[test]
fn a_jieqi_game_starts_and_each_player_alone_sees_what_they_captured() {
    let (_root, data, out) = folders();
    let mut bot = Local::start(&data, &out, &[]);

    let (first, challenge) = bot.say("alice: /challenge @bob jieqi red");
    assert_eq!(first, 1, "a new data folder numbers lines from 1");
    assert!(
        !tagged(&challenge, "[chat]").is_empty(),
        "the challenge is public: {challenge:#?}"
    );
    assert!(
        dm_recipients(&challenge).is_empty(),
        "nobody is told anything privately yet: {challenge:#?}"
    );
    let accept = tagged(&challenge, "[chat]")
        .into_iter()
        .find_map(|rest| {
            rest.split_once("[button] ")
                .map(|(_, data)| data.to_owned())
        })
        .filter(|data| data.starts_with("acc_"))
        .unwrap_or_else(|| panic!("the challenge has an accept button: {challenge:#?}"));

    let (_, intruder) = bot.say("carol: /accept");
    assert!(
        !tagged(&intruder, "[to carol]").is_empty(),
        "carol is told the challenge is not hers: {intruder:#?}"
    );
    assert!(
        tagged(&intruder, "[chat]").is_empty(),
        "a refusal is not public: {intruder:#?}"
    );

    let (_, start) = bot.say(&format!("bob: [button] {accept}"));
    let boards = pictures(&start, "[chat]");
    assert_eq!(
        boards.len(),
        1,
        "the first board is posted once: {start:#?}"
    );
    assert!(is_png(boards[0]), "{} is a PNG", boards[0]);
    assert_eq!(
        dm_recipients(&start),
        ["alice", "bob"],
        "both players hear privately that the game started: {start:#?}"
    );

    let (_, red_capture) = bot.say("alice: /move b2b9");
    assert_eq!(
        pictures(&red_capture, "[chat]").len(),
        1,
        "the new board is public: {red_capture:#?}"
    );
    assert_eq!(
        dm_recipients(&red_capture),
        ["alice"],
        "only alice learns what she captured: {red_capture:#?}"
    );
    let private = pictures(&red_capture, "[dm alice]");
    assert_eq!(
        private.len(),
        1,
        "alice gets her own board: {red_capture:#?}"
    );
    assert!(is_png(private[0]));

    let (_, out_of_turn) = bot.say("alice: /move a3a4");
    assert!(
        !tagged(&out_of_turn, "[to alice]").is_empty(),
        "alice is told it is not her turn: {out_of_turn:#?}"
    );
    assert!(tagged(&out_of_turn, "[chat]").is_empty() && dm_recipients(&out_of_turn).is_empty());

    let (_, black_capture) = bot.say("bob: /move h7h0");
    assert_eq!(pictures(&black_capture, "[chat]").len(), 1);
    assert_eq!(
        dm_recipients(&black_capture),
        ["bob"],
        "only bob learns what he captured: {black_capture:#?}"
    );

    let (_, unreadable) = bot.say("hello there");
    assert!(
        unreadable
            .iter()
            .any(|line| line.starts_with("[local] write a line as `name: text`")),
        "an unreadable line says how to write one: {unreadable:#?}"
    );

    let (status, _) = bot.finish();
    assert!(
        status.success(),
        "exits cleanly at the end of the input: {status}"
    );
}

#[test]
fn replaying_a_script_with_resume_does_nothing_twice() {
    let (_root, data, out) = folders();
    let script: Vec<String> = game_script().into_iter().take(4).collect();

    let mut first = Local::start(&data, &out, &[]);
    first.send(&script);
    let (status, printed) = first.finish();
    assert!(status.success());
    assert_eq!(
        pictures(&printed, "[chat]").len(),
        3,
        "first board and two moves: {printed:#?}"
    );

    let mut again = Local::start(&data, &out, &["--resume"]);
    again.send(&script);
    let (status, replayed) = again.finish();
    assert!(status.success());
    assert!(
        tagged(&replayed, "[chat]").is_empty() && dm_recipients(&replayed).is_empty(),
        "the same lines again change nothing and post nothing: {replayed:#?}"
    );
    let acks: Vec<u64> = replayed
        .iter()
        .filter_map(|line| common::ack_number(line))
        .collect();
    assert_eq!(
        acks,
        [1, 2, 3, 4],
        "the replay reused the numbers of the first run"
    );

    // A new run numbers on, and the game is where two moves left it: red to move.
    let mut next = Local::start(&data, &out, &[]);
    let (number, moved) = next.say("alice: /move a3a4");
    assert_eq!(number, 5);
    assert_eq!(
        pictures(&moved, "[chat]").len(),
        1,
        "alice's third-ply move is played: {moved:#?}"
    );
    let (status, _) = next.finish();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn sigterm_stops_after_the_line_at_hand_and_keeps_it() {
    let (_root, data, out) = folders();
    let mut bot = Local::start(&data, &out, &[]);
    let (_, challenge) = bot.say("alice: /challenge @bob jieqi red");
    assert!(!tagged(&challenge, "[chat]").is_empty());
    let pid = bot.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let started = std::time::Instant::now();
    let (status, _) = bot.finish_after_signal();
    assert!(
        status.success(),
        "a terminated local session exits cleanly: {status}"
    );
    assert!(started.elapsed() < Duration::from_secs(60));

    let mut back = Local::start(&data, &out, &[]);
    let (_, accepted) = back.say("bob: /accept");
    assert_eq!(
        pictures(&accepted, "[chat]").len(),
        1,
        "the challenge survived the shutdown: {accepted:#?}"
    );
    let (status, _) = back.finish();
    assert!(status.success());
}

#[test]
fn local_starts_with_a_banner_and_its_help_says_the_input_format() {
    let (_root, data, out) = folders();
    let mut bot = Local::start(&data, &out, &[]);
    let banner = bot
        .next_line(Duration::from_secs(60))
        .expect("a first line before any input");
    assert!(
        banner.starts_with("[local] ") && banner.contains("`name: text`"),
        "{banner}"
    );
    assert!(
        banner.contains("alice: /challenge @bob"),
        "an example: {banner}"
    );
    let (status, _) = bot.finish();
    assert!(status.success());

    let help = std::process::Command::new(env!("CARGO_BIN_EXE_jieqi-bot"))
        .args(["local", "--help"])
        .output()
        .expect("the binary runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("`name: text`"), "{help}");
    assert!(help.contains("alice: /challenge @bob"), "{help}");
}

/// How long the engine's board may take to appear after a move. The terminal used to print
/// messages queued outside a request (the engine's reply) only at its 5 s timer tick, so
/// every level answered in about 5 s. The test plays the club level, which thinks at most
/// 1 s a move: long enough that its reply is committed after the move's own line is done
/// (a novice answers so fast that its reply is printed with the move, which would hide the
/// bug), short enough to come well within 4 s. 4 s is shorter than the old tick and long
/// enough for a busy machine: a hang guard, not a benchmark. With the old tick, the second
/// move, sent right after the tick that printed the first reply, would wait a whole tick
/// for its reply and fail here.
const ENGINE_REPLY: Duration = Duration::from_secs(4);

/// Plays one of `candidates` (the first one accepted) and returns the lines printed for it.
fn play_one_of(bot: &mut Local, candidates: &[&str]) -> Vec<String> {
    for mv in candidates {
        let (_, printed) = bot.say(&format!("alice: /move {mv}"));
        if tagged(&printed, "[to alice]").is_empty() {
            return printed;
        }
    }
    panic!("none of {candidates:?} could be played: {:#?}", bot.printed);
}

/// Waits for the engine's board: `already` holds the lines printed with the move (the
/// mover's own board first).
fn engine_board_within(bot: &mut Local, already: &[String], limit: Duration) {
    let mut boards = pictures(already, "[chat]").len();
    let deadline = std::time::Instant::now() + limit;
    while boards < 2 {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let line = bot.next_line(left).unwrap_or_else(|_| {
            panic!(
                "the engine's board did not appear within {limit:?}: {:#?}",
                bot.printed
            )
        });
        boards += pictures(&[line], "[chat]").len();
    }
}

#[test]
fn the_engine_answers_as_soon_as_it_has_chosen() {
    let (_root, data, out) = folders();
    let mut bot = Local::start(&data, &out, &[]);
    let (_, started) = bot.say("alice: /play bot club xiangqi red");
    assert_eq!(pictures(&started, "[chat]").len(), 1, "{started:#?}");

    let first = play_one_of(&mut bot, &["h2e2"]);
    engine_board_within(&mut bot, &first, ENGINE_REPLY);
    let second = play_one_of(&mut bot, &["h0g2", "b0c2", "a3a4", "i3i4", "c3c4", "g3g4"]);
    engine_board_within(&mut bot, &second, ENGINE_REPLY);
    let (status, _) = bot.finish();
    assert!(status.success());
}

/// The personal links `--web` printed: (player, link).
fn personal_links(lines: &[String]) -> Vec<(String, String)> {
    tagged(lines, "[local]")
        .into_iter()
        .filter_map(|rest| {
            let (player, link) = rest.split_once("'s board (play by tapping): ")?;
            Some((player.to_owned(), link.to_owned()))
        })
        .collect()
}

/// `GET url` with `Authorization: Bearer <token>`: the status and the JSON body, if any.
fn get_as(url: &str, token: &str) -> (u16, serde_json::Value) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let response = reqwest::Client::new()
            .get(url)
            .bearer_auth(token)
            .send()
            .await
            .expect("the web page answers");
        let status = response.status().as_u16();
        let body = response.bytes().await.expect("a body");
        (
            status,
            serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
        )
    })
}

#[test]
fn with_web_each_player_gets_a_personal_link_of_their_own_when_the_game_starts() {
    let (_root, data, out) = folders();
    let mut bot = Local::start(&data, &out, &["--web", "127.0.0.1:0"]);
    let (_, challenge) = bot.say("alice: /challenge @bob jieqi red");
    assert!(
        personal_links(&challenge).is_empty(),
        "no game yet, no link: {challenge:#?}"
    );
    let (_, start) = bot.say("bob: /accept");
    let links = personal_links(&start);
    let players: Vec<&str> = links.iter().map(|(player, _)| player.as_str()).collect();
    assert_eq!(players, ["alice", "bob"], "one link per player: {start:#?}");
    let (alice, bob) = (&links[0].1, &links[1].1);
    assert_ne!(alice, bob);

    // Each link is the game's page with a token in its fragment that signs its holder in as
    // that player, in that game.
    for (player, link) in &links {
        let (page, token) = link.split_once("#t=").expect("a token in the fragment");
        assert!(page.starts_with("http://127.0.0.1:"), "{link}");
        let (status, me) = get_as(&format!("{page}/me"), token);
        assert_eq!(status, 200, "{link}: {me}");
        let seat = me["seat"].as_u64().expect("the player's seat");
        assert_eq!(
            me["players"][seat as usize]["name"].as_str(),
            Some(player.as_str()),
            "{player}'s link signs in as {player}: {me}"
        );
    }
    let (page, token) = alice.split_once("#t=").expect("a token");
    let forged = format!("{token}x");
    assert_eq!(get_as(&format!("{page}/me"), &forged).0, 401);

    let (_, moved) = bot.say("alice: /move b2b9");
    assert!(
        personal_links(&moved).is_empty(),
        "the links are printed once, at the start: {moved:#?}"
    );
    let (status, _) = bot.finish();
    assert!(status.success());

    // A new run signs with a new secret: the old links stop working, and /board gives a
    // player a fresh one.
    let mut again = Local::start(&data, &out, &["--web", "127.0.0.1:0"]);
    let (_, board) = again.say("bob: /board");
    let fresh = tagged(&board, "[to bob]")
        .into_iter()
        .find_map(|rest| {
            let (_, link) = rest.strip_prefix("link ")?.split_once("\": ")?;
            Some(link.to_owned())
        })
        .filter(|link| link.contains("#t="))
        .unwrap_or_else(|| panic!("bob's fresh link: {board:#?}"));
    let (page, token) = fresh.split_once("#t=").expect("a token");
    let (status, me) = get_as(&format!("{page}/me"), token);
    assert_eq!(status, 200, "{fresh}: {me}");
    let (old_page, old_token) = bob.split_once("#t=").expect("a token");
    let old_game = old_page.rsplit('/').next().expect("the game");
    assert_eq!(
        get_as(&format!("{page}/me"), old_token).0,
        401,
        "the last run's link for {old_game} is refused"
    );
    let (status, _) = again.finish();
    assert!(status.success());
}

/// The data of the first button printed in the chat whose data starts with `prefix`.
fn chat_button(lines: &[String], prefix: &str) -> String {
    tagged(lines, "[chat]")
        .into_iter()
        .find_map(|rest| {
            rest.split_once("[button] ")
                .map(|(_, data)| data.to_owned())
                .filter(|data| data.starts_with(prefix))
        })
        .unwrap_or_else(|| panic!("a {prefix}… button in the chat: {lines:#?}"))
}

#[test]
fn a_seek_taken_and_a_rematch_are_played_in_the_terminal_too() {
    let (_root, data, out) = folders();
    let mut bot = Local::start(&data, &out, &[]);
    let (_, seek) = bot.say("alice: /seek xiangqi");
    assert!(
        tagged(&seek, "[chat]")
            .iter()
            .any(|line| line.contains("alice is looking for a game")),
        "{seek:#?}"
    );
    let take = chat_button(&seek, "acc_");
    let (_, taken) = bot.say(&format!("bob: [button] {take}"));
    assert!(
        tagged(&taken, "[chat]")
            .iter()
            .any(|line| line.contains("Accepted by bob")),
        "{taken:#?}"
    );
    bot.say("bob: /resign");
    let (_, result) = bot.say("bob: /resign");
    let rematch = chat_button(&result, "rem_");
    let (_, offered) = bot.say(&format!("alice: [button] {rematch}"));
    assert!(
        tagged(&offered, "[chat]")
            .iter()
            .any(|line| line.contains("rematch of game")),
        "{offered:#?}"
    );
    let (_, started) = bot.say("bob: /rematch");
    assert!(
        tagged(&started, "[chat]")
            .iter()
            .any(|line| line.contains("has started")),
        "{started:#?}"
    );
    let (status, _) = bot.finish();
    assert!(status.success(), "{status:?}");
}
