//! A live game's boards in a group (`live_boards.rs`): at most one per interval (20 s by
//! default), each naming every move since the one before; the first board and the result at
//! once; a capture's private reveal, another game's posts and other answers never held; a
//! game on a time per move still gets a board per move; and a crash at any step loses no move
//! and posts nothing twice. Delivery goes through the store's claims, as a delivery loop's
//! does, on the scenario's fake clock (claims and holds read the service's wall clock), so
//! nothing here waits for real time. On sled, and on PostgreSQL with
//! `JIEQI_TEST_STORE=postgres` (and in `scenarios_on_postgres`).

use super::common;

use std::time::{Duration, SystemTime};

use common::deals::random_game;
use common::*;
use jieqi_rules::Variant;
use jieqi_service::store::PendingMessage;
use jieqi_service::{ChatId, DealSource, Destination, MessageKind, OutboxId, Platform};

const LEASE: Duration = Duration::from_secs(30);
/// The default interval (`ServiceConfig::live_board_interval`).
const INTERVAL: Duration = Duration::from_secs(20);

/// What went out, and at which instant of the scenario.
#[derive(Debug, Default)]
struct Posted(Vec<(SystemTime, PendingMessage)>);

impl Posted {
    /// Boards posted to `chat` (not edits).
    fn boards(&self, chat: &ChatId) -> Vec<&(SystemTime, PendingMessage)> {
        self.0
            .iter()
            .filter(|(_, p)| {
                let m = &p.entry.message;
                m.kind == MessageKind::Board
                    && m.to == Destination::Chat(chat.clone())
                    && m.replaces.is_none()
            })
            .collect()
    }

    fn of_kind(&self, kind: MessageKind) -> Vec<&PendingMessage> {
        self.0
            .iter()
            .map(|(_, p)| p)
            .filter(|p| p.entry.message.kind == kind)
            .collect()
    }

    /// Every outbox id posted, each once.
    fn assert_nothing_twice(&self) {
        let mut ids: Vec<OutboxId> = self.0.iter().map(|(_, p)| p.entry.id).collect();
        let all = ids.len();
        ids.sort_by_key(|id| id.0);
        ids.dedup();
        assert_eq!(ids.len(), all, "a message posted twice: {self:#?}");
    }
}

/// The moves a board's caption names ("1.", "1…", "2.", ...), from its first line.
fn moves_named(text: &str) -> Vec<String> {
    let first = text.lines().next().unwrap_or_default();
    let Some((_, moves)) = first.split_once(" · ") else {
        return Vec::new();
    };
    moves
        .split("; ")
        .filter_map(|item| item.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// "1.", "1…", "2.", ... for `plies` plies.
fn move_numbers(plies: usize) -> Vec<String> {
    (0..plies)
        .map(|ply| {
            let number = ply / 2 + 1;
            if ply.is_multiple_of(2) {
                format!("{number}.")
            } else {
                format!("{number}…")
            }
        })
        .collect()
}

/// One pass of a delivery loop at the scenario's instant: claims every lane free and due,
/// lets the newest board stand in for boards waiting in a row behind the head, and delivers;
/// again until nothing is due. Stale-button edits go too (they are no board).
async fn deliver_due(h: &Harness, posted: &mut Posted) {
    loop {
        let claimed = h
            .service
            .claim_pending_for(Platform::Telegram, LEASE, 64)
            .await
            .expect("claim");
        if claimed.is_empty() {
            return;
        }
        for head in claimed {
            let out = match h
                .service
                .coalesce_boards(&head, LEASE)
                .await
                .expect("coalesce")
            {
                Some(covering) => covering,
                None => head,
            };
            h.service
                .delivered(out.entry.id, Some(format!("msg{}", out.entry.id.0)))
                .await
                .expect("delivered");
            posted.0.push((h.clock_now(), out));
        }
    }
}

/// A live Xiangqi game (alice Red, bob Black) on 3+2 in `chat`, its first posts delivered.
async fn live_game(h: &mut Harness, chat: &ChatId, posted: &mut Posted) {
    let answer = h
        .start_game(&user("alice"), &user("bob"), chat, "xiangqi red 3+2")
        .await;
    not_refused(&answer);
    deliver_due(h, posted).await;
}

/// `plies` legal moves of a Xiangqi game, as typed.
fn xiangqi_moves(plies: usize) -> Vec<String> {
    let (_, typed, _) = random_game(Variant::Xiangqi, 0, 5, plies);
    assert_eq!(typed.len(), plies, "the random game ended early");
    typed
}

/// Plays `moves` from ply `from` on, one every `every` whole seconds, delivering what is due
/// every second meanwhile and after each move (a delivery loop wakes when a lane is due).
async fn play(
    h: &mut Harness,
    chat: &ChatId,
    moves: &[String],
    from: usize,
    every: Duration,
    posted: &mut Posted,
) {
    let (alice, bob) = (user("alice"), user("bob"));
    for (ply, typed) in moves.iter().enumerate().skip(from) {
        for _ in 0..every.as_secs() {
            h.advance(Duration::from_secs(1));
            deliver_due(h, posted).await;
        }
        let who = if ply.is_multiple_of(2) { &alice } else { &bob };
        not_refused(&h.say(who, chat, &format!("/move {typed}")).await);
        deliver_due(h, posted).await;
    }
}

/// bob resigns (asked, then confirmed) at the current instant.
async fn bob_resigns(h: &mut Harness, chat: &ChatId) {
    let bob = user("bob");
    h.say(&bob, chat, "/resign").await;
    h.say(&bob, chat, "/resign").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_games_quick_moves_reach_the_group_as_few_boards_naming_every_move_and_the_result_at_once()
 {
    let mut h = Harness::new(DealSource::Seeded(11)).await;
    let chat = group("-800");
    let mut posted = Posted::default();
    live_game(&mut h, &chat, &mut posted).await;
    let first = posted.boards(&chat);
    assert_eq!(first.len(), 1, "the first board at once: {posted:#?}");
    assert!(first[0].1.entry.message.text.contains("has started"));

    // 24 moves, one every 3 s: 72 s of play.
    let moves = xiangqi_moves(24);
    play(
        &mut h,
        &chat,
        &moves,
        0,
        Duration::from_secs(3),
        &mut posted,
    )
    .await;
    let during = posted.boards(&chat).len() - 1;
    bob_resigns(&mut h, &chat).await;
    // The result at once, not at the next board's time: the waiting board goes first.
    let before_end = posted.0.len();
    deliver_due(&h, &mut posted).await;
    let at_end: Vec<MessageKind> = posted.0[before_end..]
        .iter()
        .map(|(_, p)| p.entry.message.kind)
        .collect();
    let result = at_end
        .iter()
        .position(|k| *k == MessageKind::Result)
        .expect("the result at once");
    assert!(
        at_end[..result].contains(&MessageKind::Board),
        "the last moves' board before the result: {at_end:?}"
    );

    let boards = posted.boards(&chat);
    // The game's 72 s hold three instants of its 20 s grid (20, 40, 60 s), and its end one.
    assert!(during <= 3, "{during} boards during 24 moves: {posted:#?}");
    assert_eq!(boards.len() - 1, during + 1);
    // At most one board per interval while it ran.
    for pair in boards[1..boards.len() - 1].windows(2) {
        let gap = pair[1].0.duration_since(pair[0].0).unwrap_or_default();
        assert!(gap >= INTERVAL, "boards {gap:?} apart");
    }
    // Every move named once, in order.
    let named: Vec<String> = boards
        .iter()
        .flat_map(|(_, b)| moves_named(&b.entry.message.text))
        .collect();
    assert_eq!(named, move_numbers(24));
    posted.assert_nothing_twice();
    assert!(h.service.pending(100).await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_a_time_per_move_still_posts_a_board_per_move() {
    let mut h = Harness::new(DealSource::Seeded(12)).await;
    let chat = group("-801");
    let mut posted = Posted::default();
    let answer = h
        .start_game(&user("alice"), &user("bob"), &chat, "xiangqi red")
        .await;
    not_refused(&answer);
    deliver_due(&h, &mut posted).await;
    let moves = xiangqi_moves(6);
    play(
        &mut h,
        &chat,
        &moves,
        0,
        Duration::from_secs(3),
        &mut posted,
    )
    .await;
    let boards = posted.boards(&chat);
    assert_eq!(boards.len(), 7, "{posted:#?}");
    for (ply, (_, board)) in boards[1..].iter().enumerate() {
        assert_eq!(
            moves_named(&board.entry.message.text),
            &move_numbers(ply + 1)[ply..]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capturers_reveal_goes_out_at_once_while_the_groups_board_waits() {
    // Red's covered piece on h2 is really a chariot, Black's on h9 really a cannon.
    let mut h = Harness::new(DealSource::Scripted {
        seed: 7,
        deals: vec!["rheaaecrhcpppppPPPPPCRCHEAAEHR".to_owned()],
    })
    .await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-802");
    let mut posted = Posted::default();
    not_refused(&h.start_game(&alice, &bob, &chat, "jieqi red 3+2").await);
    deliver_due(&h, &mut posted).await;
    h.advance(Duration::from_secs(2));
    // The covered "cannon" on h2 jumps the covered piece on h7 and takes the one on h9.
    not_refused(&h.say(&alice, &chat, "/move h2h9").await);
    let before = posted.0.len();
    deliver_due(&h, &mut posted).await;
    // (An old board's buttons greyed out, in a lane of their own, may go too: no post.)
    let now: Vec<&PendingMessage> = posted.0[before..]
        .iter()
        .map(|(_, p)| p)
        .filter(|p| !matches!(p.entry.message.to, Destination::StaleButtons(_)))
        .collect();
    assert_eq!(now.len(), 1, "{now:#?}");
    assert_eq!(now[0].entry.message.kind, MessageKind::Reveal);
    assert_eq!(
        now[0].entry.message.to,
        Destination::Private(alice.id.clone())
    );
    // The group's board comes at the game's next 20 s.
    h.advance(Duration::from_secs(17));
    deliver_due(&h, &mut posted).await;
    assert_eq!(posted.boards(&chat).len(), 1, "not yet: {posted:#?}");
    h.advance(Duration::from_secs(1));
    deliver_due(&h, &mut posted).await;
    let boards = posted.boards(&chat);
    assert_eq!(boards.len(), 2);
    assert_eq!(moves_named(&boards[1].1.entry.message.text), ["1."]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_games_posts_and_other_answers_in_the_chat_are_not_held_behind_a_waiting_board() {
    let mut h = Harness::new(DealSource::Seeded(13)).await;
    let chat = group("-803");
    let mut posted = Posted::default();
    live_game(&mut h, &chat, &mut posted).await;
    let (carol, dave, erin) = (user("carol"), user("dave"), user("erin"));
    not_refused(&h.start_game(&carol, &dave, &chat, "xiangqi red").await);
    deliver_due(&h, &mut posted).await;
    assert_eq!(posted.boards(&chat).len(), 2, "both first boards");

    h.advance(Duration::from_secs(2));
    not_refused(&h.say(&user("alice"), &chat, "/move h2e2").await);
    // While alice's board waits: carol's move, and erin's challenge.
    not_refused(&h.say(&carol, &chat, "/move h2e2").await);
    not_refused(
        &h.say_mentioning(&erin, &chat, "/challenge @frank", vec![user("frank")])
            .await,
    );
    let before = posted.0.len();
    deliver_due(&h, &mut posted).await;
    let kinds: Vec<(MessageKind, String)> = posted.0[before..]
        .iter()
        .map(|(_, p)| (p.entry.message.kind, p.entry.message.text.clone()))
        .collect();
    assert!(
        kinds
            .iter()
            .any(|(k, t)| *k == MessageKind::Board && t.contains("by carol")),
        "carol's board at once: {kinds:#?}"
    );
    assert!(
        kinds.iter().any(|(k, _)| *k == MessageKind::Challenge),
        "erin's challenge at once: {kinds:#?}"
    );
    assert!(
        !kinds.iter().any(|(_, t)| t.contains("by alice")),
        "alice's board waits: {kinds:#?}"
    );
    h.advance(INTERVAL);
    deliver_due(&h, &mut posted).await;
    assert!(
        posted
            .boards(&chat)
            .iter()
            .any(|(_, b)| b.entry.message.text.contains("by alice"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_in_a_live_game_sends_the_waiting_board_first_and_goes_at_once() {
    let mut h = Harness::new(DealSource::Seeded(14)).await;
    let chat = group("-804");
    let mut posted = Posted::default();
    live_game(&mut h, &chat, &mut posted).await;
    let moves = xiangqi_moves(2);
    play(
        &mut h,
        &chat,
        &moves,
        0,
        Duration::from_secs(2),
        &mut posted,
    )
    .await;
    assert_eq!(posted.boards(&chat).len(), 1, "the moves' board waits");
    h.say(&user("alice"), &chat, "/draw").await;
    let before = posted.0.len();
    deliver_due(&h, &mut posted).await;
    let kinds: Vec<MessageKind> = posted.0[before..]
        .iter()
        .map(|(_, p)| &p.entry.message)
        .filter(|m| m.to == Destination::Chat(chat.clone()) && m.kind != MessageKind::Notice)
        .map(|m| m.kind)
        .collect();
    assert_eq!(kinds, [MessageKind::Board, MessageKind::DrawOffer]);
    let boards = posted.boards(&chat);
    assert_eq!(
        moves_named(&boards[1].1.entry.message.text),
        move_numbers(2)
    );
}

/// The crash points of the live-board steps: a restart while a board waits, after a move
/// stood in for it, after its lane was claimed when due (the claim lapses), and after the
/// result hastened it. No move is lost and nothing is posted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_at_any_step_of_a_live_games_boards_loses_no_move_and_posts_nothing_twice() {
    let mut h = Harness::new(DealSource::Seeded(15)).await;
    let chat = group("-805");
    let mut posted = Posted::default();
    live_game(&mut h, &chat, &mut posted).await;
    let moves = xiangqi_moves(8);
    let (alice, bob) = (user("alice"), user("bob"));
    let say_move = |ply: usize| -> (jieqi_service::User, String) {
        let who = if ply.is_multiple_of(2) { &alice } else { &bob };
        (who.clone(), format!("/move {}", moves[ply]))
    };

    // 1. A board waits; the process dies; after the restart it goes out at its time.
    h.advance(Duration::from_secs(3));
    let (who, text) = say_move(0);
    not_refused(&h.say(&who, &chat, &text).await);
    h.restart().await;
    deliver_due(&h, &mut posted).await;
    assert_eq!(posted.boards(&chat).len(), 1, "still waiting");

    // 2. A move stands in for it (one commit); the process dies right after.
    h.advance(Duration::from_secs(3));
    let (who, text) = say_move(1);
    not_refused(&h.say(&who, &chat, &text).await);
    h.restart().await;
    let waiting: Vec<_> = h
        .service
        .pending(100)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.message.to == Destination::Chat(chat.clone()))
        .collect();
    assert_eq!(waiting.len(), 1, "one board waits: {waiting:#?}");
    assert_eq!(moves_named(&waiting[0].message.text), move_numbers(2));

    // 3. At its time its lane is claimed, with a short lease, and the process dies before
    // posting: the claim lapses (PostgreSQL keeps it until then; sled's go with the process)
    // and the board goes out once.
    h.advance(Duration::from_secs(14));
    let short = Duration::from_millis(500);
    let claimed = h
        .service
        .claim_pending_for(Platform::Telegram, short, 64)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1, "{claimed:#?}");
    h.restart().await;
    h.advance(Duration::from_secs(1));
    deliver_due(&h, &mut posted).await;
    assert_eq!(posted.boards(&chat).len(), 2);

    // 4. More moves wait; the result hastens their board; the process dies before posting.
    let from = 2;
    for ply in from..moves.len() {
        h.advance(Duration::from_secs(2));
        let (who, text) = say_move(ply);
        not_refused(&h.say(&who, &chat, &text).await);
        if ply == 4 {
            h.restart().await;
        }
    }
    bob_resigns(&mut h, &chat).await;
    h.restart().await;
    let before = posted.0.len();
    deliver_due(&h, &mut posted).await;
    let kinds: Vec<MessageKind> = posted.0[before..]
        .iter()
        .map(|(_, p)| p.entry.message.kind)
        .collect();
    assert!(
        kinds.starts_with(&[MessageKind::Board]) && kinds.contains(&MessageKind::Result),
        "{kinds:?}"
    );

    let named: Vec<String> = posted
        .boards(&chat)
        .iter()
        .flat_map(|(_, b)| moves_named(&b.entry.message.text))
        .collect();
    assert_eq!(named, move_numbers(moves.len()));
    posted.assert_nothing_twice();
    assert!(h.service.pending(100).await.unwrap().is_empty());
    assert_eq!(posted.of_kind(MessageKind::Result).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_process_delivers_the_waiting_board_at_its_time_and_not_before() {
    let mut h = Harness::new(DealSource::Seeded(16)).await;
    let chat = group("-806");
    let mut posted = Posted::default();
    live_game(&mut h, &chat, &mut posted).await;
    let moves = xiangqi_moves(3);
    play(
        &mut h,
        &chat,
        &moves,
        0,
        Duration::from_secs(2),
        &mut posted,
    )
    .await;
    assert_eq!(posted.boards(&chat).len(), 1, "the moves' board waits");
    // Another process sharing the store (PostgreSQL: its own pool) delivers from now on.
    let other = h.another_process(None).await;
    let claim = |service: jieqi_service::Service| async move {
        service
            .claim_pending_for(Platform::Telegram, LEASE, 64)
            .await
            .expect("claim")
    };
    assert!(claim(other.clone()).await.is_empty(), "not before its time");
    h.advance(Duration::from_secs(14));
    let due = claim(other.clone()).await;
    assert_eq!(due.len(), 1, "{due:#?}");
    assert_eq!(
        moves_named(&due[0].entry.message.text),
        move_numbers(3),
        "the one board names all three moves"
    );
    other
        .delivered(due[0].entry.id, Some("msg".to_owned()))
        .await
        .expect("delivered");
    assert!(claim(other).await.is_empty());
}
