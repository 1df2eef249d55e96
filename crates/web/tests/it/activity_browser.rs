//! The Discord Activity in a real browser, with Discord's real Embedded App SDK: three host
//! pages of the fake Discord play Discord's client (alice's and bob's on phones, carol's on a
//! desktop), each framing the Activity and answering the SDK's `postMessage` protocol. Each
//! signs in (handshake, READY, AUTHORIZE with a code the fake issues, the bot's exchange with
//! the fake's token endpoint and `/users/@me`, AUTHENTICATE). Alice's "New game" challenges
//! bob, who is in the Activity; bob accepts with the channel post's button, through the Discord
//! adapter as in any game; both Activities open their boards, carol watches from her list.
//! They play a Jieqi game by tapping: after each covered piece taken the capturer's Activity
//! names it and the others do not; the channel gets its (coalesced) board posts and each capturer a
//! private reveal, from the Discord adapter's delivery to the fake. Screenshots go to
//! `JIEQI_SCREENSHOT_DIR` when it is set (`docs/activity-*.png`).

use std::time::{Duration, Instant};

use fantoccini::Client;
use jieqi_fake_discord::{ALICE, BOB, CAROL, CHANNEL, Member};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Side, Variant};
use jieqi_service::Service;
use rand::SeedableRng;
use serde_json::Value;

use crate::browser::{console_problems, js, until};
use crate::harness::activity::{
    OnDiscord, click, discord_user, host_record, open_host, three_browsers, until_board,
};
use crate::harness::deal;
use crate::play_browser::{choose, role_name, tap, text_of, until_moves};

const SEED: u64 = 31;

fn screenshot_dir() -> Option<String> {
    std::env::var("JIEQI_SCREENSHOT_DIR").ok()
}

async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = screenshot_dir() {
        let png = client.screenshot().await.expect("a screenshot");
        std::fs::write(format!("{dir}/{name}"), png).expect("written");
    }
}

/// Opens the host page of `who` on the channel's instance and waits for its list.
async fn launch(client: &Client, on: &OnDiscord, who: Member, platform: &str) {
    open_host(
        client,
        &on.fake,
        &on.table.base,
        who,
        "instance-1",
        platform,
    )
    .await;
    assert_eq!(
        js(
            client,
            "return document.getElementById('activity').dataset.state + ' ' + document.getElementById('activity').dataset.user"
        )
        .await,
        Value::from(format!("lobby {}", who.id))
    );
}

/// The channel's board posts and the DMs' reveals, as the fake received them.
fn posts_in(fake: &jieqi_fake_discord::FakeDiscord, channel: u64) -> Vec<String> {
    fake.created_in(channel)
        .iter()
        .map(|m| m.json["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_discord_hosts_sign_in_challenge_play_by_tapping_and_watch() {
    let Some(browsers) = three_browsers().await else {
        return;
    };
    let [alice, bob, carol] = browsers.each_ref().map(|b| &b.client);
    let on = OnDiscord::run(SEED).await;
    let (fake, table) = (&on.fake, &on.table);
    let service: Service = table.service.clone();

    launch(alice, &on, ALICE, "mobile").await;
    launch(bob, &on, BOB, "mobile").await;
    launch(carol, &on, CAROL, "desktop").await;
    let record = host_record(alice).await;
    for command in ["AUTHORIZE", "AUTHENTICATE"] {
        assert!(
            record["commands"]
                .as_array()
                .is_some_and(|c| c.contains(&Value::from(command))),
            "{record}"
        );
    }
    assert_eq!(record["authenticated"], ALICE.id.to_string());
    assert_eq!(record["problems"], Value::Array(vec![]), "{record}");

    // Alice challenges bob, who is in the Activity with her.
    click(alice, "#new-game-button").await;
    assert!(
        until(
            alice,
            &format!(
                "return !!document.querySelector(\"#opponent option[value='{}']\")",
                BOB.id
            ),
            Duration::from_secs(10)
        )
        .await,
        "bob is offered as an opponent"
    );
    js(
        alice,
        &format!("document.getElementById('opponent').value = '{}'; document.getElementById('variant').value = 'jieqi'; return true", BOB.id),
    )
    .await;
    click(alice, "#send-challenge").await;
    let challenge_post = {
        let started = Instant::now();
        loop {
            let found = fake
                .created_in(CHANNEL)
                .into_iter()
                .find(|m| m.json.to_string().contains("acc_"));
            if let Some(post) = found {
                break post;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the challenge reaches the channel: {:?}; the Activity says {}",
                posts_in(fake, CHANNEL),
                text_of(alice, "activity-status").await
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let accept = jieqi_fake_discord::buttons(&challenge_post.json)
        .into_iter()
        .find(|(id, _)| id.starts_with("acc_"))
        .expect("Accept")
        .0;
    fake.dispatch(&fake.button(BOB, &accept, challenge_post.id));

    // Both Activities open their boards by themselves; carol picks the game from her list.
    until_board(alice, None, "player").await;
    until_board(bob, None, "player").await;
    let game = service
        .activity_games(&table.chat, &discord_user(ALICE).id)
        .await
        .expect("store")
        .mine
        .first()
        .cloned()
        .expect("alice's game");
    assert!(
        until(
            carol,
            &format!("return !!document.querySelector(\"#here [data-game='{game}'] button\")"),
            Duration::from_secs(15)
        )
        .await,
        "carol's list shows the channel's game"
    );
    screenshot(carol, "activity-desktop.png").await;
    click(carol, &format!("#here [data-game='{game}'] button")).await;
    until_board(carol, Some(&game), "spectator").await;

    // Who plays Red: the first seat.
    let alice_seat = service
        .player_page(&game, &discord_user(ALICE).id, None)
        .await
        .expect("store")
        .expect("alice plays")
        .seat;
    let players: [&Client; 2] = if alice_seat == 0 {
        [alice, bob]
    } else {
        [bob, alice]
    };
    let letters = deal(Variant::Jieqi, SEED);
    let mut shadow = Game::new(
        Rules::new(Variant::Jieqi, Preset::Standard),
        GameDeal::from_letters(Variant::Jieqi, &letters).expect("a deal"),
    )
    .expect("a game");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
    let mut covered_taken = [0usize; 2];
    let mut ply = 0;
    while shadow.outcome().is_none() && ply < 120 {
        let seat = ply % 2;
        let (mover, other) = (players[seat], players[1 - seat]);
        let text = choose(&shadow, &mut rng);
        let (from, to) = (&text[..2], &text[2..4]);
        until_moves(mover, ply).await;
        tap(mover, from).await;
        if ply == 12 {
            screenshot(mover, "activity-phone.png").await;
        }
        tap(mover, to).await;
        shadow.play_text(&text).expect("legal");
        until_moves(other, ply + 1).await;
        until_moves(carol, ply + 1).await;
        if let Some((capturer, piece)) = shadow.captured_covered_by(ply) {
            let by = usize::from(capturer == Side::Black);
            covered_taken[by] += 1;
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
                until(
                    players[by],
                    &format!("return document.getElementById('known').querySelectorAll('p').length === {}", covered_taken[by]),
                    Duration::from_secs(5)
                )
                .await,
                "the capturer's Activity lists what they took"
            );
            let known = text_of(players[by], "known").await;
            assert!(known.contains(&name), "{name} in {known}");
            let theirs = js(
                players[1 - by],
                "return document.getElementById('known').querySelectorAll('p').length",
            )
            .await;
            assert_eq!(
                theirs,
                Value::from(covered_taken[1 - by]),
                "the opponent does not learn it"
            );
            let seen = js(carol, "return document.body.innerText").await;
            assert!(
                !seen
                    .as_str()
                    .unwrap_or_default()
                    .contains("the covered piece you captured"),
                "nor does the spectator"
            );
        }
        ply += 1;
    }
    if shadow.outcome().is_none() {
        let mover = players[ply % 2];
        click(mover, "#resign").await;
        click(mover, "#resign-yes").await;
        println!("resigned from the Activity after {ply} plies");
    } else {
        println!(
            "the game ended by play after {ply} plies: {:?}",
            shadow.outcome()
        );
    }
    for client in [alice, bob, carol] {
        assert!(
            until(
                client,
                "return document.getElementById('game').dataset.finished === 'true'",
                Duration::from_secs(15)
            )
            .await,
            "every Activity shows the end"
        );
    }
    assert!(
        covered_taken.iter().sum::<usize>() > 0,
        "covered pieces were taken"
    );

    // The channel got its boards and each capturer their reveals. Boards of moves made faster
    // than the channel's shared send budget allows are coalesced (the newest names the moves
    // since the last), so there are at least one and at most one a move (plus the result); the
    // posts are counted once they stop coming.
    let started = Instant::now();
    let mut last = (usize::MAX, Instant::now());
    loop {
        let boards = posts_in(fake, CHANNEL)
            .iter()
            .filter(|c| c.contains(&format!("Game {game}")))
            .count();
        let reveals: Vec<usize> = [ALICE, BOB]
            .iter()
            .map(|who| {
                // The reveals: the DMs with a picture (the first DM says the game began).
                fake.dm_channel(who.id).map_or(0, |dm| {
                    fake.created_in(dm)
                        .iter()
                        .filter(|m| m.json.to_string().contains("attachment://"))
                        .count()
                })
            })
            .collect();
        let alice_took = covered_taken[if alice_seat == 0 { 0 } else { 1 }];
        let bob_took = covered_taken[if alice_seat == 0 { 1 } else { 0 }];
        if boards != last.0 {
            last = (boards, Instant::now());
        }
        let settled = last.1.elapsed() > Duration::from_secs(8);
        if settled && boards >= 1 && reveals[0] >= alice_took && reveals[1] >= bob_took {
            assert_eq!(
                reveals,
                vec![alice_took, bob_took],
                "one reveal per covered piece taken"
            );
            assert!(
                boards <= ply + 1,
                "no board posted twice: {boards} boards for {ply} moves"
            );
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "the chat gets its posts: {boards} boards of {ply} moves, reveals {reveals:?}, taken {covered_taken:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Back to the list from a board: it signs in again by itself and lists the finished game.
    click(alice, "#back-link").await;
    assert!(
        until(
            alice,
            &format!("const a = document.getElementById('activity'); return !!a && a.dataset.state === 'lobby' && !!document.querySelector(\"#finished [data-game='{game}']\")"),
            Duration::from_secs(30)
        )
        .await,
        "the list again, with the finished game"
    );
    screenshot(alice, "activity-list-phone.png").await;

    for client in [alice, bob, carol] {
        let problems = console_problems(client).await;
        assert_eq!(problems, Vec::<String>::new());
        let elsewhere = js(
            client,
            "return performance.getEntriesByType('resource').map(e => e.name).filter(u => !u.startsWith(location.origin))",
        )
        .await;
        assert_eq!(elsewhere, Value::Array(vec![]), "nothing from another host");
        let record = host_record(client).await;
        assert_eq!(record["problems"], Value::Array(vec![]), "{record}");
    }
    on.stop().await;
}
