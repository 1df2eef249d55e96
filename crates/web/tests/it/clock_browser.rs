//! A live game's clocks in two real browsers (issue 50): alice and bob, each in their own
//! Chromium with their personal link, play a 1+0 Jieqi game by tapping the board. After every
//! move each page's clocks, read to the millisecond (`#clock`'s `data-left-ms`, what its faces
//! show), agree with the game's `/g/<game>/state` counted forward to the instant of reading
//! within 200 ms. Then the side to move lets its time run out: the flag falls by the service's
//! own flag timer on the real clock (no tick runs here, and the timers are what
//! `jieqi-bot run` follows with `Service::follow_flags`), and the result shows on both pages
//! and once in the chat (the outbox's delivery loop with the recording sender of
//! `play_browser.rs`) within 500 ms of the flag's deadline.
//!
//! Prints its figures: the largest disagreement on each page (with the part of it that is the
//! page's 100 ms tick), and deadline → result on each page and in the chat.

use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::Client;
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{GameId, MessageKind, Platform, User, UserId};
use rand::SeedableRng;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::browser::{browser, console_problems, js, requests_elsewhere, until};
use crate::harness::{Table, deal};
use crate::play_browser::{ChatFake, choose, tap, text_of, unix_millis, until_moves};

/// The most a page's clock may differ from the game's state (issue 50).
const CLOCKS_AGREE_WITHIN: u64 = 200;
/// The most the result may take from the flag's deadline to each page and the chat.
const RESULT_WITHIN: u64 = 500;
/// Moves played before the side to move lets its time run out.
const PLIES: usize = 6;

/// The game's clocks as its public state gives them.
struct StateClocks {
    revision: u64,
    left_ms: [u64; 2],
    running: Option<usize>,
    server_time: u64,
}

impl StateClocks {
    /// Each seat's time left at `at` (ms since the epoch), counted forward from the state.
    fn left_at(&self, at: u64) -> [u64; 2] {
        [0, 1].map(|seat| {
            if self.running == Some(seat) {
                self.left_ms[seat].saturating_sub(at.saturating_sub(self.server_time))
            } else {
                self.left_ms[seat]
            }
        })
    }
}

async fn state_clocks(table: &Table, game: &GameId) -> StateClocks {
    let body = reqwest::get(table.url(&format!("/g/{game}/state")))
        .await
        .expect("the state answers")
        .text()
        .await
        .expect("the state's body");
    let state: Value = serde_json::from_str(&body).expect("the state is JSON");
    let clocks = &state["clocks"];
    let figure = |v: &Value| v.as_u64().unwrap_or_else(|| panic!("clocks: {state}"));
    StateClocks {
        revision: figure(&state["revision"]),
        left_ms: [figure(&clocks["left_ms"][0]), figure(&clocks["left_ms"][1])],
        running: clocks["running"].as_u64().map(|seat| seat as usize),
        server_time: figure(&clocks["server_time"]),
    }
}

/// What a page's clocks show at one instant of its own.
struct PageClocks {
    /// The browser's instant of reading (ms since the epoch; the same machine's clock).
    read_at: u64,
    /// What each face shows, in ms.
    left_ms: [u64; 2],
    /// When the page last counted them (its 100 ms tick).
    shown_at: u64,
    text: String,
    revision: u64,
}

async fn page_clocks(client: &Client) -> PageClocks {
    // One script: the instant and what the faces show then are read together.
    let read = js(
        client,
        "const c = document.getElementById('clock'); return [String(Date.now()), \
         c.dataset.leftMs || '', c.dataset.shownAt || '0', c.textContent, \
         document.getElementById('game').dataset.revision || '0']",
    )
    .await;
    let field = |i: usize| read[i].as_str().unwrap_or_default().to_owned();
    let left: Vec<u64> = field(1)
        .split(' ')
        .filter_map(|ms| ms.parse().ok())
        .collect();
    assert_eq!(left.len(), 2, "the clock's data-left-ms: {read}");
    PageClocks {
        read_at: field(0).parse().expect("an instant"),
        left_ms: [left[0], left[1]],
        shown_at: field(2).parse().expect("an instant"),
        text: field(3),
        revision: field(4).parse().expect("a revision"),
    }
}

/// A clock face as the page writes it: m:ss, or under ten seconds 0:0s.t.
fn face(ms: u64) -> String {
    let secs = ms / 1000;
    if secs < 10 {
        format!("0:0{secs}.{}", (ms % 1000) / 100)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// Each page's worst disagreement with the state so far, and the tick's part in it.
#[derive(Default)]
struct Agreement {
    worst: u64,
    tick_at_worst: u64,
    readings: usize,
}

/// Reads page `client`'s clocks between two reads of the state (the same revision, else it
/// reads again): how far they are from the state counted forward to the page's instant of
/// reading, and how old the page's last tick was then.
async fn disagreement(
    table: &Table,
    game: &GameId,
    client: &Client,
    names: [&str; 2],
) -> (u64, u64) {
    for _ in 0..20 {
        let before = state_clocks(table, game).await;
        let page = page_clocks(client).await;
        let after = state_clocks(table, game).await;
        if before.revision != after.revision || page.revision != before.revision {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        // The faces show what the data says.
        for (seat, name) in names.iter().enumerate() {
            let shown = format!("{name} {}", face(page.left_ms[seat]));
            assert!(page.text.contains(&shown), "{shown} in {}", page.text);
        }
        let expected = before.left_at(page.read_at);
        let off = (0..2)
            .map(|seat| expected[seat].abs_diff(page.left_ms[seat]))
            .max()
            .unwrap_or(0);
        return (off, page.read_at.saturating_sub(page.shown_at));
    }
    panic!("the page and the state never showed one revision");
}

impl Agreement {
    async fn check(
        &mut self,
        table: &Table,
        game: &GameId,
        client: &Client,
        names: [&str; 2],
        page: &str,
    ) {
        let (off, tick) = disagreement(table, game, client, names).await;
        self.readings += 1;
        if off >= self.worst {
            self.worst = off;
            self.tick_at_worst = tick;
        }
        assert!(
            off <= CLOCKS_AGREE_WITHIN,
            "{page}'s clocks are {off} ms from the state's (reading {}, the page's tick {tick} ms old)",
            self.readings
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_show_the_live_clocks_of_the_state_and_the_flag_ends_the_game_on_both_pages_and_once_in_the_chat()
 {
    let (Some(alice_browser), Some(bob_browser)) = (browser().await, browser().await) else {
        return;
    };
    let (alice, bob) = (&alice_browser.client, &bob_browser.client);
    let letters = deal(Variant::Jieqi, 50);
    let mut table = Table::new(vec![letters.clone()], ["alice", "bob"], |_| {}).await;
    table.players = [
        User::new(UserId::new(Platform::Telegram, "1001"), "alice"),
        User::new(UserId::new(Platform::Telegram, "1002"), "bob"),
    ];
    let names = ["alice", "bob"];
    // The flag timers of every live game, as `jieqi-bot run` keeps them; no tick runs, so a
    // flag can only fall by its timer.
    let following = tokio::spawn({
        let service = table.service.clone();
        async move { service.follow_flags().await }
    });
    let game = table.start("jieqi 1+0").await;
    let chat = Arc::new(ChatFake::default());
    let stop = CancellationToken::new();
    let delivery = tokio::spawn(jieqi_service::run_delivery(
        table.service.clone(),
        chat.clone(),
        Platform::Telegram,
        stop.clone(),
    ));
    let page = table.url(&format!("/g/{game}"));
    for (client, seat) in [(alice, 0), (bob, 1)] {
        let token = table.bearer(&game, seat);
        client
            .goto(&format!("{page}#t={}", &token["Bearer ".len()..]))
            .await
            .expect("the player's board");
        assert!(
            until(
                client,
                "return document.getElementById('game').dataset.mode === 'player'",
                Duration::from_secs(10)
            )
            .await,
            "the personal link opens the player's board"
        );
    }

    let mut shadow = Game::new(
        Rules::new(Variant::Jieqi, Preset::Standard),
        GameDeal::from_letters(Variant::Jieqi, &letters).expect("a deal"),
    )
    .expect("a game");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(50);
    let players = [alice, bob];
    let mut agreement = [Agreement::default(), Agreement::default()];
    for ply in 0..PLIES {
        let mover = players[ply % 2];
        let text = choose(&shadow, &mut rng);
        tap(mover, &text[..2]).await;
        tap(mover, &text[2..4]).await;
        shadow.play_text(&text).expect("legal");
        assert!(shadow.outcome().is_none(), "the game goes on after {text}");
        for (seat, client) in players.into_iter().enumerate() {
            until_moves(client, ply + 1).await;
            agreement[seat]
                .check(&table, &game, client, names, names[seat])
                .await;
        }
    }

    // The side to move (Red) lets its time run out; its flag's deadline, as the game has it.
    let record = table
        .store
        .game(&game)
        .await
        .expect("the store")
        .expect("the game");
    let deadline = record
        .clock
        .as_ref()
        .and_then(|clock| clock.flag_deadline())
        .expect("Red's clock runs")
        .as_millis();
    assert!(
        table.service.has_flag_timer(&game),
        "the game's flag timer is armed"
    );
    println!(
        "after {PLIES} plies Red lets its time run out: its flag falls in {} ms",
        deadline.saturating_sub(unix_millis())
    );
    // Meanwhile both pages count Red's clock down with the state's.
    while unix_millis() + 2_000 < deadline {
        for (seat, client) in players.into_iter().enumerate() {
            agreement[seat]
                .check(&table, &game, client, names, names[seat])
                .await;
        }
        tokio::time::sleep(Duration::from_millis(1_500)).await;
    }

    // The result on both pages (the instant each page drew it) and in the chat.
    let mut shown_at = [None, None];
    let mut posted_at = None;
    let waiting = Instant::now();
    while shown_at.iter().any(Option::is_none) || posted_at.is_none() {
        assert!(
            waiting.elapsed() < Duration::from_secs(10),
            "the result shows on both pages and in the chat (pages {shown_at:?}, chat {posted_at:?})"
        );
        for (seat, client) in players.into_iter().enumerate() {
            if shown_at[seat].is_none() {
                let read = js(
                    client,
                    "const g = document.getElementById('game').dataset; \
                     return g.finished === 'true' ? g.updatedAt : ''",
                )
                .await;
                shown_at[seat] = read.as_str().and_then(|at| at.parse::<u64>().ok());
            }
        }
        if posted_at.is_none() {
            posted_at = chat.result_at();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for (seat, client) in players.into_iter().enumerate() {
        let status = text_of(client, "status").await;
        assert!(
            status.contains("ran out of time"),
            "{}'s page: {status}",
            names[seat]
        );
    }
    // Exactly once in the chat, however long it is given.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let results: Vec<String> = chat
        .entries()
        .into_iter()
        .filter(|e| e.message.kind == MessageKind::Result)
        .map(|e| e.message.text)
        .collect();
    assert_eq!(results.len(), 1, "one result in the chat: {results:?}");
    assert!(results[0].contains("ran out of time"), "{}", results[0]);

    let late = |at: u64| at.saturating_sub(deadline);
    let shown_late = shown_at.map(|at| late(at.expect("shown")));
    let posted_late = late(posted_at.expect("posted"));
    for (page, agreement) in names.iter().zip(&agreement) {
        println!(
            "{page}'s page: its clocks at most {} ms from the state's over {} readings \
             (of which the page's tick had aged {} ms)",
            agreement.worst, agreement.readings, agreement.tick_at_worst
        );
    }
    println!(
        "flag deadline -> result: alice's page {} ms, bob's page {} ms, the chat {} ms",
        shown_late[0], shown_late[1], posted_late
    );
    for (page, ms) in names.iter().zip(shown_late) {
        assert!(
            ms <= RESULT_WITHIN,
            "the result showed on {page}'s page {ms} ms after the deadline"
        );
    }
    assert!(
        posted_late <= RESULT_WITHIN,
        "the result reached the chat {posted_late} ms after the deadline"
    );
    // Neither earlier than the flag: it fell strictly after its deadline.
    for at in shown_at.iter().flatten().chain(posted_at.iter()) {
        assert!(
            *at > deadline,
            "the result at {at}, the deadline {deadline}"
        );
    }

    for client in players {
        assert_eq!(console_problems(client).await, Vec::<String>::new());
        assert_eq!(
            requests_elsewhere(client, &table.base).await,
            Vec::<String>::new()
        );
    }
    stop.cancel();
    let _ = delivery.await;
    following.abort();
}
