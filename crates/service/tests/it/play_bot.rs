//! `/play bot`: games against the built-in engine. The engine answers off the request path,
//! through the same transaction path as a human move, never gets private messages, resumes
//! after a restart exactly once, and never holds up other chats.

use super::common;

use std::time::{Duration, Instant};

use common::*;
use jieqi_rules::{Game, GameDeal, Rules, Variant};
use jieqi_service::{
    ChatId, DealSource, Destination, GameId, MessageKind, Platform, User, UserId, engine_user_id,
};

/// Far longer than any level's thinking time, even on a busy machine.
const PATIENCE: Duration = Duration::from_secs(120);

fn engine() -> UserId {
    engine_user_id(Platform::Telegram)
}

/// The one game of this chat.
async fn game_of(h: &Harness, chat: &ChatId) -> GameId {
    let record = h.store.chat(chat).await.unwrap().expect("chat stored");
    assert_eq!(record.games.len(), 1, "one game in {chat}");
    record.games[0].clone()
}

async fn moves_played(h: &Harness, game: &GameId) -> (usize, bool) {
    let record = h.store.game(game).await.unwrap().expect("game stored");
    (record.moves.len(), record.is_active())
}

/// Waits until the game has at least `plies` moves or is over; returns when it saw that.
async fn wait_for_plies(h: &Harness, game: &GameId, plies: usize) -> Instant {
    let start = Instant::now();
    loop {
        let (played, active) = moves_played(h, game).await;
        if played >= plies || !active {
            return Instant::now();
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the engine did not move in game {game}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn assert_engine_never_messaged_privately(h: &Harness) {
    for entry in &h.delivered {
        assert_ne!(
            entry.message.to,
            Destination::Private(engine()),
            "the engine got a private message: {entry:#?}"
        );
        assert!(
            !entry.message.mentions.contains(&engine()),
            "the engine was mentioned: {entry:#?}"
        );
    }
}

#[tokio::test]
async fn a_human_plays_a_short_game_against_the_novice_engine() {
    let mut h = Harness::new(DealSource::Seeded(11)).await;
    let alice = user("alice");
    let chat = group("-700");
    let answer = h.say(&alice, &chat, "/play bot novice red").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let game = game_of(&h, &chat).await;
    let started = h.deliver().await;
    let first_board = of_kind(&started, MessageKind::Board);
    assert_eq!(first_board.len(), 1);
    assert!(first_board[0].text.contains("Jieqi bot (novice)"));
    assert_eq!(
        private_to(&started, &alice).len(),
        1,
        "alice hears privately that her game started"
    );

    let mut engine_moves = 0;
    for turn in 0..8usize {
        let legal = h.service.legal_move_texts(&chat, &alice.id).await;
        assert!(!legal.is_empty(), "alice is to move on turn {turn}");
        let mine = &legal[(turn * 7 + 3) % legal.len()];
        let answer = h.say(&alice, &chat, &format!("/move {mine}")).await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
        let (read, active) = moves_played(&h, &game).await;
        if !active {
            break;
        }
        // Alice plays Red, so her moves are the even plies and the count after hers is odd;
        // an even count means the engine answered before this read (it can, on PostgreSQL
        // under load). `played` is the count right after alice's move either way.
        let answered_already = read % 2 == 0;
        let played = if answered_already { read - 1 } else { read };
        // While the engine thinks it is not alice's turn. (The engine may also move during
        // the reads below: then there is nothing to check here.)
        let alice_legal = h.service.legal_move_texts(&chat, &alice.id).await;
        if !answered_already && moves_played(&h, &game).await.0 == played {
            assert!(
                alice_legal.is_empty(),
                "not alice's turn while the engine thinks"
            );
        }
        wait_for_plies(&h, &game, played + 1).await;
        let record = h.store.game(&game).await.unwrap().unwrap();
        if record.moves.len() > played {
            engine_moves += 1;
            let reply = &record.moves[played];
            let deal = GameDeal::from_letters(record.variant, &record.deal).unwrap();
            let before = Game::replay(
                Rules::new(record.variant, record.preset),
                deal,
                &record.moves[..played],
            )
            .unwrap();
            let engine_legal = before.legal_move_texts();
            assert!(
                engine_legal.iter().any(|m| reply.starts_with(m.as_str())),
                "the engine's {reply} is one of {engine_legal:?}"
            );
            let posted = h.deliver().await;
            let boards: Vec<_> = to_chat(&posted, &chat)
                .into_iter()
                .filter(|m| m.kind == MessageKind::Board)
                .collect();
            assert!(
                boards
                    .iter()
                    .any(|m| m.text.contains("by Jieqi bot (novice)")),
                "the engine's move is posted publicly: {boards:#?}"
            );
        }
        if !record.is_active() {
            break;
        }
    }
    assert!(engine_moves > 0);
    if moves_played(&h, &game).await.1 {
        // A draw offer to the engine pings nobody; the engine plays on.
        h.say(&alice, &chat, "/draw").await;
        let offers = h.deliver().await;
        assert_eq!(of_kind(&offers, MessageKind::DrawOffer).len(), 1);
        h.say(&alice, &chat, "/resign").await;
        let answer = h.say(&alice, &chat, "/resign").await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
    }
    h.deliver().await;
    assert_eq!(of_kind(&h.delivered, MessageKind::Result).len(), 1);
    assert_engine_never_messaged_privately(&h);
    // Not rated, and nobody's running games list keeps it.
    let player = h
        .store
        .player(&alice.id)
        .await
        .unwrap()
        .expect("alice stored");
    assert_eq!(player.stats(Variant::Jieqi).games(), 0);
    assert!(player.games.is_empty());
    let bot = h
        .store
        .player(&engine())
        .await
        .unwrap()
        .expect("engine stored");
    assert!(bot.games.is_empty());
    assert!(
        h.store
            .chat(&chat)
            .await
            .unwrap()
            .unwrap()
            .players
            .is_empty()
    );
}

#[tokio::test]
async fn one_game_against_the_engine_per_chat_and_people_are_challenged() {
    let mut h = Harness::new(DealSource::Seeded(12)).await;
    let alice = user("alice");
    let chat = group("-701");
    h.say(&alice, &chat, "/play bot novice red").await;
    let answer = h.say(&alice, &chat, "/play bot").await;
    assert!(refusal(&answer).contains("already playing game"));
    let answer = h.say(&alice, &chat, "/play @bob").await;
    assert!(refusal(&answer).contains("/play bot"));
    let answer = h.say(&alice, &chat, "/play bot grandmaster").await;
    assert!(refusal(&answer).contains("grandmaster"));
}

#[tokio::test]
async fn after_a_restart_the_engine_moves_exactly_once() {
    let mut h = Harness::new(DealSource::Seeded(13)).await;
    let bob = user("bob");
    let chat = group("-702");
    // Bob plays Black: the engine is to move as soon as the game starts. The service is
    // closed before its thinking task gets to run (nothing awaits in between).
    h.say(&bob, &chat, "/play bot novice black").await;
    h.restart().await;
    let game = game_of(&h, &chat).await;
    assert_eq!(
        moves_played(&h, &game).await,
        (0, true),
        "nothing moved yet"
    );

    // The clock's first tick (at once in `run` and `local`) resumes the engine.
    h.tick().await;
    wait_for_plies(&h, &game, 1).await;
    // Give any second attempt every chance to land, including a tick's resumption.
    h.tick().await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    h.tick().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(moves_played(&h, &game).await, (1, true));
    let posted = h.deliver().await;
    let engine_boards: Vec<_> = of_kind(&posted, MessageKind::Board)
        .into_iter()
        .filter(|m| m.text.contains("by Jieqi bot"))
        .collect();
    assert_eq!(engine_boards.len(), 1, "{engine_boards:#?}");
    assert!(!h.service.legal_move_texts(&chat, &bob.id).await.is_empty());
    assert_engine_never_messaged_privately(&h);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_chats_are_answered_while_the_engine_thinks() {
    let mut h = Harness::new(DealSource::Seeded(14)).await;
    let (alice, carol, dave) = (user("alice"), user("carol"), user("dave"));
    let (slow, other) = (group("-703"), group("-704"));
    h.say(&alice, &slow, "/play bot master red").await;
    let game = game_of(&h, &slow).await;
    let legal = h.service.legal_move_texts(&slow, &alice.id).await;
    let answer = h.say(&alice, &slow, &format!("/move {}", legal[0])).await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    // Let the engine's task start its search.
    tokio::time::sleep(Duration::from_millis(50)).await;

    let answer = h
        .say_mentioning(
            &carol,
            &other,
            "/challenge @dave xiangqi",
            vec![dave.clone()],
        )
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let answer = h.say(&dave, &other, "/accept").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let answered = Instant::now();
    assert_eq!(
        moves_played(&h, &game).await,
        (1, true),
        "the other chat's requests were done before the engine's move landed"
    );
    let landed = wait_for_plies(&h, &game, 2).await;
    assert!(answered < landed);
    assert_eq!(moves_played(&h, &game).await.0, 2);
}

#[tokio::test]
async fn play_is_in_the_menu_and_the_help_says_it_is_not_rated() {
    let mut h = Harness::new(DealSource::Seeded(15)).await;
    let menu = h.service.command_menu(jieqi_service::Language::En);
    assert!(menu.iter().any(|(name, _)| *name == "play"));
    let alice: User = user("alice");
    let answer = h.say(&alice, &group("-705"), "/help").await;
    assert!(answer.replies[0].text.contains("/play bot"));
    assert!(answer.replies[0].text.contains("not rated"));
}
