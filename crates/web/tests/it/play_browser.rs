//! Playing on the board in a real browser: alice and bob, each in their own Chromium with
//! their personal link, play a whole Jieqi game by tapping the board, while a spectator's
//! browser watches and a chat fake (the outbox's delivery loop with a recording sender)
//! receives the usual posts and private reveals.
//!
//! Prints the figures of issue 22: the time from the second tap to the move shown on the
//! other player's page, and from a move (tapped, or typed as `/move`) to its board post
//! reaching the chat.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use fantoccini::{Client, Locator};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Side, Variant};
use jieqi_service::{
    Destination, MessageKind, OutboxEntry, Platform, SendError, Sender, User, UserId,
};
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::browser::{browser, console_problems, js, moves_shown, requests_elsewhere, until};
use crate::harness::{Table, deal};

/// What the chat received, and when.
#[derive(Default)]
pub(crate) struct ChatFake {
    received: Mutex<Vec<(u64, OutboxEntry)>>,
}

pub(crate) fn unix_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[async_trait]
impl Sender for ChatFake {
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        let mut received = self.received.lock().expect("not poisoned");
        received.push((unix_millis(), entry.clone()));
        Ok(Some(format!("m{}", received.len())))
    }
}

impl ChatFake {
    /// When the board post of the move numbered `number` (`12.`) reached the chat.
    fn board_of(&self, game: &str, number: &str) -> Option<u64> {
        let needle = format!("Game {game} · {number} ");
        self.received
            .lock()
            .expect("not poisoned")
            .iter()
            .find(|(_, e)| {
                e.message.kind == MessageKind::Board
                    && e.message.replaces.is_none()
                    && e.message.text.starts_with(&needle)
            })
            .map(|(at, _)| *at)
    }

    /// When the first result reached the chat.
    pub(crate) fn result_at(&self) -> Option<u64> {
        self.received
            .lock()
            .expect("not poisoned")
            .iter()
            .find(|(_, e)| e.message.kind == MessageKind::Result)
            .map(|(at, _)| *at)
    }

    pub(crate) fn entries(&self) -> Vec<OutboxEntry> {
        self.received
            .lock()
            .expect("not poisoned")
            .iter()
            .map(|(_, e)| e.clone())
            .collect()
    }
}

pub(crate) async fn attribute(client: &Client, name: &str) -> String {
    js(
        client,
        &format!("return document.getElementById('game').dataset.{name} || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

pub(crate) async fn text_of(client: &Client, id: &str) -> String {
    js(
        client,
        &format!("return document.getElementById('{id}').innerText"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

pub(crate) async fn tap(client: &Client, point: &str) {
    client
        .find(Locator::Css(&format!("#taps [data-point='{point}']")))
        .await
        .unwrap_or_else(|e| panic!("no tap target at {point}: {e}"))
        .click()
        .await
        .expect("a tap");
}

pub(crate) async fn until_moves(client: &Client, n: usize) {
    let started = Instant::now();
    while moves_shown(client).await < n {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "move {n} was not shown within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The move to play: mate if there is one, else a covered piece taken if possible (so the
/// players learn secrets), else any, from a seeded choice.
pub(crate) fn choose(game: &Game, rng: &mut rand_chacha::ChaCha8Rng) -> String {
    let legal = game.legal_move_texts();
    let after = |text: &String| {
        let mut trial = game.clone();
        trial.play_text(text).ok().map(|_| trial)
    };
    if let Some(mate) = legal
        .iter()
        .find(|t| after(t).is_some_and(|g| g.outcome().is_some()))
    {
        return mate.clone();
    }
    // A capture: the destination holds a piece now.
    let public = game.view(jieqi_rules::Viewer::Public);
    let takes: Vec<&String> = legal
        .iter()
        .filter(|t| {
            let to = jieqi_rules::Point {
                file: t.as_bytes()[2] - b'a',
                rank: t.as_bytes()[3] - b'0',
            };
            !matches!(public.cell(to), Some(jieqi_rules::Cell::Empty) | None)
        })
        .collect();
    if !takes.is_empty() && rng.gen_bool(0.9) {
        return takes[rng.gen_range(0..takes.len())].clone();
    }
    legal[rng.gen_range(0..legal.len())].clone()
}

/// The move number as the chat writes it: `12.` for Red's move, `12…` for Black's.
pub(crate) fn move_number(ply: usize) -> String {
    if ply.is_multiple_of(2) {
        format!("{}.", ply / 2 + 1)
    } else {
        format!("{}…", ply / 2 + 1)
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_a_whole_jieqi_game_by_tapping_the_board() {
    let (Some(alice_browser), Some(bob_browser), Some(watcher)) =
        (browser().await, browser().await, browser().await)
    else {
        return;
    };
    let (alice, bob, spectator) = (&alice_browser.client, &bob_browser.client, &watcher.client);
    let letters = deal(Variant::Jieqi, 21);
    let mut table = Table::new(vec![letters.clone()], ["alice", "bob"], |_| {}).await;
    table.players = [
        User::new(UserId::new(Platform::Telegram, "1001"), "alice"),
        User::new(UserId::new(Platform::Telegram, "1002"), "bob"),
    ];
    // Started before the chat fake drains the outbox: the table finds the game in it.
    let game = table.start("jieqi").await;
    let chat = Arc::new(ChatFake::default());
    let stop = CancellationToken::new();
    let delivery = tokio::spawn(jieqi_service::run_delivery(
        table.service.clone(),
        chat.clone(),
        Platform::Telegram,
        stop.clone(),
    ));
    let mut shadow = Game::new(
        Rules::new(Variant::Jieqi, Preset::Standard),
        GameDeal::from_letters(Variant::Jieqi, &letters).expect("a deal"),
    )
    .expect("a game");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);

    // A few moves typed in the chat first: how fast their board posts reach the chat.
    let mut typed_to_chat = Vec::new();
    let mut covered_taken = [0usize; 2];
    for ply in 0..10 {
        let text = choose(&shadow, &mut rng);
        let started = unix_millis();
        table.play(ply, &text).await;
        shadow.play_text(&text).expect("legal");
        if let Some((capturer, _)) = shadow.captured_covered_by(ply) {
            covered_taken[usize::from(capturer == Side::Black)] += 1;
        }
        let number = move_number(ply);
        let waiting = Instant::now();
        let arrived = loop {
            if let Some(at) = chat.board_of(game.as_str(), &number) {
                break at;
            }
            assert!(
                waiting.elapsed() < Duration::from_secs(10),
                "the board of {number} reaches the chat"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        typed_to_chat.push(arrived - started);
    }

    let red = table.bearer(&game, 0);
    let black = table.bearer(&game, 1);
    let page = table.url(&format!("/g/{game}"));
    alice
        .goto(&format!("{page}#t={}", &red["Bearer ".len()..]))
        .await
        .expect("alice's board");
    bob.goto(&format!("{page}#t={}", &black["Bearer ".len()..]))
        .await
        .expect("bob's board");
    spectator.goto(&page).await.expect("the spectator's page");
    for client in [alice, bob] {
        assert!(
            until(
                client,
                "return document.getElementById('game').dataset.mode === 'player'",
                Duration::from_secs(10)
            )
            .await,
            "the personal link opens the player's board"
        );
        // The credential left the address bar at once.
        let address = client.current_url().await.expect("the address");
        assert!(!address.as_str().contains("#t="), "{address}");
    }
    assert_eq!(attribute(spectator, "mode").await, "spectator");

    let players = [alice, bob];
    let mut tap_to_other = Vec::new();
    let mut tap_to_chat = Vec::new();
    let mut checked_out_of_turn = false;
    let mut checked_double = false;
    let mut ply = shadow.history_len();
    while shadow.outcome().is_none() && ply < 160 {
        let seat = ply % 2;
        let (mover, other) = (players[seat], players[1 - seat]);
        let text = choose(&shadow, &mut rng);
        let (from, to) = (&text[..2], &text[2..4]);
        until_moves(mover, ply).await;

        if !checked_out_of_turn {
            // The waiting player taps a move: refused on their page, nothing changes.
            let revision = table.service.game_revision(&game).await.expect("store");
            tap(other, "a0").await;
            tap(other, "a1").await;
            assert!(
                until(
                    other,
                    "return document.getElementById('notice').classList.contains('refused')",
                    Duration::from_secs(5)
                )
                .await,
                "a tap out of turn is refused on the page"
            );
            let reason = text_of(other, "notice").await;
            assert!(reason.contains("not your turn"), "{reason}");
            assert_eq!(
                table.service.game_revision(&game).await.expect("store"),
                revision
            );
            checked_out_of_turn = true;
        }

        tap(mover, from).await;
        if ply == 24
            && let Ok(dir) = std::env::var("JIEQI_SCREENSHOT_DIR")
        {
            // A player's board mid-game with a piece chosen and its destinations marked.
            let png = mover.screenshot().await.expect("a screenshot");
            std::fs::write(format!("{dir}/web-play-phone.png"), png).expect("written");
        }
        let marked = js(mover, &format!("return document.querySelector(\"#taps [data-point='{to}']\").classList.contains('target')")).await;
        assert_eq!(
            marked,
            Value::Bool(true),
            "{to} is marked as a destination of {from}"
        );
        if !checked_double && ply > 6 {
            // A double tap on the destination plays once.
            js(mover, &format!("const t = document.querySelector(\"#taps [data-point='{to}']\"); t.click(); t.click(); return true")).await;
            checked_double = true;
        } else {
            tap(mover, to).await;
        }
        shadow.play_text(&text).expect("legal");
        until_moves(other, ply + 1).await;
        until_moves(spectator, ply + 1).await;
        let sent: u64 = attribute(mover, "sentAt").await.parse().expect("a time");
        let shown: u64 = attribute(other, "updatedAt").await.parse().expect("a time");
        // The page measured its trips to the bot (the lag it reports with its next move).
        let lag = attribute(mover, "lagMs").await;
        assert!(
            lag.parse::<u64>().is_ok(),
            "the page's measured lag: {lag:?}"
        );
        tap_to_other.push(shown.saturating_sub(sent));
        let number = move_number(ply);
        let started = Instant::now();
        let posted = loop {
            if let Some(at) = chat.board_of(game.as_str(), &number) {
                break Some(at);
            }
            if shadow.outcome().is_some() || started.elapsed() > Duration::from_secs(10) {
                break None;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        if let Some(at) = posted {
            tap_to_chat.push(at.saturating_sub(sent));
        }
        assert_eq!(
            table
                .service
                .game_page(&game, None)
                .await
                .expect("store")
                .expect("game")
                .moves
                .len(),
            ply + 1,
            "each move played once"
        );

        if let Some((capturer, piece)) = shadow.captured_covered_by(ply) {
            let by = if capturer == Side::Red { 0 } else { 1 };
            covered_taken[by] += 1;
            let (capturer_page, opponent_page) = (players[by], players[1 - by]);
            let name = format!(
                "{} {}",
                if piece.side == Side::Red {
                    "Red"
                } else {
                    "Black"
                },
                role_name(piece.role)
            );
            assert!(
                until(capturer_page, &format!("return document.getElementById('known').querySelectorAll('p').length === {}", covered_taken[by]), Duration::from_secs(5)).await,
                "the capturer's page lists what they took"
            );
            let known = text_of(capturer_page, "known").await;
            assert!(known.contains(&name), "{name} in {known}");
            // Neither the opponent nor a spectator learns it.
            let line = format!("Move {number} ");
            let opponent_known = text_of(opponent_page, "known").await;
            assert!(!opponent_known.contains(&line), "{opponent_known}");
            let theirs = js(
                opponent_page,
                "return document.getElementById('known').querySelectorAll('p').length",
            )
            .await;
            assert_eq!(theirs, Value::from(covered_taken[1 - by]));
            let seen = js(spectator, "return document.body.innerText").await;
            let seen = seen.as_str().unwrap_or_default();
            assert!(!seen.contains("the covered piece you captured"), "{seen}");
            assert!(!seen.contains(&name) || !seen.contains(&line), "{seen}");
        }
        ply += 1;
    }
    if shadow.outcome().is_none() {
        // Long enough: the player to move resigns from the board, with its confirmation.
        let mover = players[ply % 2];
        mover
            .find(Locator::Id("resign"))
            .await
            .expect("resign")
            .click()
            .await
            .expect("a tap");
        mover
            .find(Locator::Id("resign-yes"))
            .await
            .expect("yes")
            .click()
            .await
            .expect("a tap");
        println!("the game was resigned from the board after {ply} plies");
    } else {
        println!(
            "the game ended by play after {ply} plies: {:?}",
            shadow.outcome()
        );
    }
    for client in [alice, bob, spectator] {
        assert!(
            until(
                client,
                "return document.getElementById('game').dataset.finished === 'true'",
                Duration::from_secs(10)
            )
            .await,
            "every page shows the end"
        );
    }
    assert!(checked_double, "the double tap was tried");
    assert!(
        covered_taken.iter().sum::<usize>() > 0,
        "covered pieces were taken"
    );

    // The chat got its posts: a board per move, a private reveal to each capturer, the result.
    let started = Instant::now();
    while !chat
        .entries()
        .iter()
        .any(|e| e.message.kind == MessageKind::Result)
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the result reaches the chat"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let entries = chat.entries();
    for (seat, taken) in covered_taken.iter().enumerate() {
        let reveals = entries
            .iter()
            .filter(|e| e.message.kind == MessageKind::Reveal)
            .filter(|e| e.message.to == Destination::Private(table.players[seat].id.clone()))
            .count();
        assert_eq!(
            reveals, *taken,
            "one private reveal per covered piece taken"
        );
    }
    for client in [alice, bob, spectator] {
        assert_eq!(console_problems(client).await, Vec::<String>::new());
        assert_eq!(
            requests_elsewhere(client, &table.base).await,
            Vec::<String>::new()
        );
    }
    stop.cancel();
    let _ = delivery.await;

    tap_to_other.sort_unstable();
    tap_to_chat.sort_unstable();
    typed_to_chat.sort_unstable();
    println!(
        "second tap -> move shown on the other player's page: p50 {} ms, p99 {} ms, max {} ms over {} moves",
        percentile(&tap_to_other, 0.5),
        percentile(&tap_to_other, 0.99),
        tap_to_other[tap_to_other.len() - 1],
        tap_to_other.len()
    );
    println!(
        "second tap -> board post at the chat: p50 {} ms, p99 {} ms over {} moves; typed /move -> board post: p50 {} ms, max {} ms over {} moves",
        percentile(&tap_to_chat, 0.5),
        percentile(&tap_to_chat, 0.99),
        tap_to_chat.len(),
        percentile(&typed_to_chat, 0.5),
        typed_to_chat[typed_to_chat.len() - 1],
        typed_to_chat.len()
    );
}

pub(crate) fn role_name(role: jieqi_rules::Role) -> &'static str {
    use jieqi_rules::Role;
    match role {
        Role::General => "general",
        Role::Advisor => "advisor",
        Role::Elephant => "elephant",
        Role::Horse => "horse",
        Role::Chariot => "chariot",
        Role::Cannon => "cannon",
        Role::Soldier => "soldier",
    }
}
