//! Playing again (issue 50): the Rematch button under a result and `/rematch` (colours
//! swapped, the same terms, exactly once however the presses arrive), and `/seek`, the open
//! challenge anyone but the seeker may take (the first taker gets the game).

use super::common;

use common::*;
use jieqi_service::store::{ChallengeRecord, GameRecord, Seat};
use jieqi_service::{ButtonAction, ChatId, DealSource, Destination, GameId, Input, MessageKind};

const BASE: &str = "https://bot.example.org";

async fn game(h: &Harness, id: &GameId) -> GameRecord {
    h.store.game(id).await.unwrap().expect("game stored")
}

/// The games running in `chat`.
async fn running(h: &Harness, chat: &ChatId) -> Vec<GameRecord> {
    let mut games = Vec::new();
    for id in h.store.chat(chat).await.unwrap().expect("chat").games {
        games.push(game(h, &id).await);
    }
    games
}

/// The challenges open in `chat`.
async fn open_challenges(h: &Harness, chat: &ChatId) -> Vec<ChallengeRecord> {
    let mut open = Vec::new();
    for id in h.store.chat(chat).await.unwrap().expect("chat").challenges {
        if let Some(challenge) = h.store.challenge(&id).await.unwrap() {
            open.push(challenge);
        }
    }
    open
}

/// A live Xiangqi game on 3+2, alice Red against bob, which bob resigns: its id, its chat,
/// and the result's post as delivered.
async fn finished_live_game(h: &mut Harness) -> (GameId, ChatId, jieqi_service::Message) {
    let chat = group("-501");
    let (alice, bob) = (user("alice"), user("bob"));
    not_refused(&h.start_game(&alice, &bob, &chat, "xiangqi red 3+2").await);
    let id = running(h, &chat).await[0].id.clone();
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h7e7").await;
    h.say(&bob, &chat, "/resign").await;
    not_refused(&h.say(&bob, &chat, "/resign").await);
    let delivered = h.deliver().await;
    let result = of_kind(&delivered, MessageKind::Result)
        .first()
        .copied()
        .expect("a result")
        .clone();
    (id, chat, result)
}

fn rematch_of(id: &GameId) -> ButtonAction {
    ButtonAction::Rematch(id.clone())
}

#[tokio::test]
async fn a_live_games_result_carries_a_rematch_button() {
    let mut h = Harness::new(DealSource::Seeded(51)).await;
    let (id, _, result) = finished_live_game(&mut h).await;
    let labels: Vec<(&str, &ButtonAction)> = result
        .buttons
        .iter()
        .map(|b| (b.label.as_str(), &b.action))
        .collect();
    assert!(
        labels.contains(&("Rematch", &rematch_of(&id))),
        "{labels:?}"
    );
    // The button reads back from its data as a Telegram callback or Discord custom id would.
    assert_eq!(
        ButtonAction::decode(&rematch_of(&id).encode()),
        Ok(rematch_of(&id))
    );
}

#[tokio::test]
async fn a_rematch_swaps_colours_and_keeps_the_control_once_the_other_player_accepts() {
    let mut h = Harness::new(DealSource::Seeded(52)).await;
    let (old, chat, _) = finished_live_game(&mut h).await;
    let (alice, bob) = (user("alice"), user("bob"));
    not_refused(&h.press(&alice, &chat, rematch_of(&old)).await);
    let posted = h.deliver().await;
    let offer = of_kind(&posted, MessageKind::Challenge);
    assert_eq!(offer.len(), 1, "{posted:#?}");
    assert!(
        offer[0].text.contains(&format!("rematch of game {old}"))
            && offer[0].text.contains("3+2 clock")
            && offer[0].text.contains("alice plays Black this time"),
        "{}",
        offer[0].text
    );
    assert_eq!(offer[0].mentions, vec![bob.id.clone()]);
    let accept = offer[0]
        .buttons
        .iter()
        .find(|b| matches!(b.action, ButtonAction::Accept(_)))
        .expect("an Accept button")
        .action
        .clone();
    assert!(
        offer[0]
            .buttons
            .iter()
            .any(|b| matches!(b.action, ButtonAction::Decline(_)))
    );
    assert!(running(&h, &chat).await.is_empty());

    not_refused(&h.press(&bob, &chat, accept).await);
    let games = running(&h, &chat).await;
    assert_eq!(games.len(), 1);
    let new = &games[0];
    assert_ne!(new.id, old);
    assert_eq!(new.player(Seat::First).id, bob.id, "bob plays Red now");
    assert_eq!(new.player(Seat::Second).id, alice.id);
    assert_eq!(new.variant, jieqi_rules::Variant::Xiangqi);
    assert_eq!(
        new.clock.as_ref().map(|c| c.control().to_string()),
        Some("3+2".to_owned())
    );
}

#[tokio::test]
async fn when_both_press_rematch_the_second_press_starts_the_game() {
    let mut h = Harness::new(DealSource::Seeded(53)).await;
    let (old, chat, _) = finished_live_game(&mut h).await;
    let (alice, bob) = (user("alice"), user("bob"));
    h.press(&bob, &chat, rematch_of(&old)).await;
    h.deliver().await;
    not_refused(&h.press(&alice, &chat, rematch_of(&old)).await);
    let games = running(&h, &chat).await;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].player(Seat::First).id, bob.id);
    assert!(open_challenges(&h, &chat).await.is_empty());
    let delivered = h.deliver().await;
    let closed = of_kind(&delivered, MessageKind::Challenge);
    assert!(
        closed
            .iter()
            .any(|m| m.replaces.is_some() && m.text.contains("Accepted by alice")),
        "{delivered:#?}"
    );
    // A third press while the rematch runs is told of it.
    let again = h.press(&alice, &chat, rematch_of(&old)).await;
    assert!(refusal(&again).contains(games[0].id.as_str()), "{again:#?}");
}

#[tokio::test]
async fn a_strangers_rematch_press_is_refused_naming_the_players() {
    let mut h = Harness::new(DealSource::Seeded(54)).await;
    let (old, chat, _) = finished_live_game(&mut h).await;
    let answer = h.press(&user("carol"), &chat, rematch_of(&old)).await;
    let said = refusal(&answer);
    assert!(
        said.contains("Only the players") && said.contains("alice") && said.contains("bob"),
        "{said}"
    );
    assert!(h.deliver().await.is_empty());
    assert!(open_challenges(&h, &chat).await.is_empty());
    // A game still running has no rematch yet.
    let (alice, bob) = (user("alice"), user("bob"));
    h.start_game(&alice, &bob, &group("-502"), "xiangqi").await;
    let answer = h.say(&alice, &group("-502"), "/rematch").await;
    assert!(refusal(&answer).contains("no finished game"), "{answer:#?}");
}

#[tokio::test]
async fn the_same_rematch_press_delivered_twice_makes_one_offer_and_one_game() {
    let mut h = Harness::new(DealSource::Seeded(55)).await;
    let (old, chat, _) = finished_live_game(&mut h).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let press = h.request(&alice, &chat, Input::Button(rematch_of(&old)), Vec::new());
    let first = h.service.handle(press.clone()).await;
    let second = h.service.handle(press).await;
    not_refused(&first);
    assert_eq!(first.replies, second.replies);
    assert_eq!(open_challenges(&h, &chat).await.len(), 1);
    assert_eq!(
        of_kind(&h.deliver().await, MessageKind::Challenge).len(),
        1,
        "one offer posted"
    );
    // Another press by alice (a double tap: a new update) is told of her offer.
    let answer = h.press(&alice, &chat, rematch_of(&old)).await;
    assert!(
        refusal(&answer).contains("already offered bob"),
        "{answer:#?}"
    );

    let accept = h.request(&bob, &chat, Input::Button(rematch_of(&old)), Vec::new());
    not_refused(&h.service.handle(accept.clone()).await);
    h.service.handle(accept).await;
    assert_eq!(running(&h, &chat).await.len(), 1, "one rematch");
    let started = of_kind(&h.deliver().await, MessageKind::Board).len();
    assert_eq!(started, 1, "one first board");
}

#[tokio::test]
async fn rematch_presses_racing_on_two_processes_make_one_game() {
    let mut h = Harness::new(DealSource::Seeded(56)).await;
    let other = h.another_process(None).await;
    let (old, chat, _) = finished_live_game(&mut h).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let here = h.request(&alice, &chat, Input::Button(rematch_of(&old)), Vec::new());
    let there = h.request(&bob, &chat, Input::Button(rematch_of(&old)), Vec::new());
    let (a, b) = tokio::join!(h.service.handle(here), other.handle(there));
    not_refused(&a);
    not_refused(&b);
    let games = running(&h, &chat).await;
    assert_eq!(games.len(), 1, "{games:#?}");
    assert_eq!(games[0].player(Seat::First).id, bob.id);
    assert!(open_challenges(&h, &chat).await.is_empty());
}

#[tokio::test]
async fn a_rematch_against_the_engine_starts_at_once_at_the_same_level_colours_swapped() {
    let mut h = Harness::new(DealSource::Seeded(57)).await;
    let chat = group("-503");
    let alice = user("alice");
    not_refused(
        &h.say(&alice, &chat, "/play bot novice red xiangqi 3+2")
            .await,
    );
    let old = running(&h, &chat).await[0].id.clone();
    h.say(&alice, &chat, "/resign").await;
    not_refused(&h.say(&alice, &chat, "/resign").await);
    let result = of_kind(&h.deliver().await, MessageKind::Result)[0].clone();
    assert!(
        result.buttons.iter().any(|b| b.action == rematch_of(&old)),
        "{result:#?}"
    );
    not_refused(&h.press(&alice, &chat, rematch_of(&old)).await);
    let games = running(&h, &chat).await;
    assert_eq!(games.len(), 1);
    let new = &games[0];
    assert_eq!(
        new.player(Seat::Second).id,
        alice.id,
        "alice plays Black now"
    );
    let engine = new.engine.as_ref().expect("against the engine");
    assert_eq!(
        (engine.seat, engine.level.as_str()),
        (Seat::First, "novice")
    );
    assert_eq!(
        new.clock.as_ref().map(|c| c.control().to_string()),
        Some("3+2".to_owned())
    );
    assert!(open_challenges(&h, &chat).await.is_empty());
}

#[tokio::test]
async fn a_seek_is_taken_by_the_first_taker_and_the_other_is_told_it_was_taken() {
    let mut h = Harness::new(DealSource::Seeded(58)).await;
    h.config.public_url = Some(BASE.to_owned());
    h.restart().await;
    let other = h.another_process(None).await;
    let chat = group("-504");
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    not_refused(&h.say(&alice, &chat, "/seek xiangqi").await);
    let posted = h.deliver().await;
    let seek = of_kind(&posted, MessageKind::Challenge)[0].clone();
    assert!(
        seek.text.contains("alice is looking for a game") && seek.text.contains("3+2 clock"),
        "{}",
        seek.text
    );
    let labels: Vec<&str> = seek.buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Take it", "Cancel"]);
    let ButtonAction::Accept(take) = seek.buttons[0].action.clone() else {
        panic!("{seek:#?}");
    };

    let by_bob = h.request(
        &bob,
        &chat,
        Input::Button(ButtonAction::Accept(take.clone())),
        vec![],
    );
    let by_carol = h.request(
        &carol,
        &chat,
        Input::Button(ButtonAction::Accept(take)),
        vec![],
    );
    let (b, c) = tokio::join!(h.service.handle(by_bob), other.handle(by_carol));
    let games = running(&h, &chat).await;
    assert_eq!(games.len(), 1, "{games:#?}");
    let taker = if games[0].seat_of(&bob.id).is_some() {
        assert!(refusal(&c).contains("taken"), "{c:#?}");
        not_refused(&b);
        "bob"
    } else {
        assert!(refusal(&b).contains("taken"), "{b:#?}");
        not_refused(&c);
        "carol"
    };
    assert!(games[0].seat_of(&alice.id).is_some());
    assert_eq!(
        games[0].clock.as_ref().map(|c| c.control().to_string()),
        Some("3+2".to_owned())
    );
    // The seek's post says who took it and links the new game's board.
    let delivered = h.deliver().await;
    let closed = of_kind(&delivered, MessageKind::Challenge);
    assert_eq!(closed.len(), 1, "{delivered:#?}");
    assert!(
        closed[0].text.contains(&format!("Accepted by {taker}")),
        "{}",
        closed[0].text
    );
    let page = format!("{BASE}/g/{}", games[0].id);
    assert!(
        closed[0]
            .buttons
            .iter()
            .any(|b| b.action == ButtonAction::Link(page.clone()) && b.label == "Watch live"),
        "{closed:#?}"
    );
}

#[tokio::test]
async fn seeks_are_refused_in_private_with_a_bad_control_naming_someone_and_to_their_seeker() {
    let mut h = Harness::new(DealSource::Seeded(59)).await;
    let chat = group("-505");
    let alice = user("alice");
    let answer = h.say(&alice, &group("dm-alice"), "/seek").await;
    assert!(refusal(&answer).contains("group chat"), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/seek 3+999").await;
    let said = refusal(&answer);
    assert!(
        said.contains("3+999") && said.contains("increment"),
        "{said}"
    );
    let answer = h.say(&alice, &chat, "/seek @bob").await;
    assert!(refusal(&answer).contains("/challenge @"), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/seek chess").await;
    assert!(refusal(&answer).contains("chess"), "{answer:#?}");
    assert!(h.deliver().await.is_empty());

    // Her own seek: she cannot take it, and its Cancel withdraws it.
    not_refused(&h.say(&alice, &chat, "/seek 10+5").await);
    let seek = of_kind(&h.deliver().await, MessageKind::Challenge)[0].clone();
    assert!(seek.text.contains("10+5 clock"), "{}", seek.text);
    let answer = h.press(&alice, &chat, seek.buttons[0].action.clone()).await;
    assert!(
        refusal(&answer).contains("your own challenge"),
        "{answer:#?}"
    );
    let answer = h.say(&alice, &chat, "/accept").await;
    assert!(
        refusal(&answer).contains("your own challenge"),
        "{answer:#?}"
    );
    not_refused(&h.press(&alice, &chat, seek.buttons[1].action.clone()).await);
    assert!(open_challenges(&h, &chat).await.is_empty());
    let closed = of_kind(&h.deliver().await, MessageKind::Challenge)[0].clone();
    assert!(
        closed.text.contains("Withdrawn by alice"),
        "{}",
        closed.text
    );
}

#[tokio::test]
async fn play_anyone_posts_a_seek_and_seek_and_rematch_are_in_the_menu() {
    let mut h = Harness::new(DealSource::Seeded(60)).await;
    let chat = group("-506");
    not_refused(
        &h.say(&user("alice"), &chat, "/play anyone rapid jieqi")
            .await,
    );
    let seek = of_kind(&h.deliver().await, MessageKind::Challenge)[0].clone();
    assert!(
        seek.text.contains("looking for a game") && seek.text.contains("10+5 clock"),
        "{}",
        seek.text
    );
    assert!(matches!(
        seek.to,
        Destination::Chat(ref posted) if *posted == chat
    ));
    for language in jieqi_service::Language::ALL {
        let menu = h.service.command_menu(language);
        for name in ["seek", "rematch"] {
            assert!(menu.iter().any(|(n, _)| *n == name), "{language}: {name}");
        }
    }
}
