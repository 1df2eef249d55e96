//! The buttons that open a game's board for playing, and the personal links: a Telegram
//! group's boards link the Mini App, a Telegram private chat's open it, Discord's boards carry
//! "Play on the board" (with `WEB_SECRET`); a personal link is only ever given to a player of a
//! running game, where only they can read it.

use super::common;

use common::puzzles::dm;
use common::*;
use jieqi_service::personal_link::{PersonalToken, WebSecret};
use jieqi_service::{
    Answer, ButtonAction, ChatId, DealSource, Destination, GameId, MessageKind, Platform, User,
    UserId,
};

const BASE: &str = "https://bot.example.org";

fn secret() -> WebSecret {
    WebSecret::new(vec![5; 32]).expect("long enough")
}

async fn playable() -> Harness {
    let mut h = Harness::new(DealSource::Seeded(21)).await;
    h.config.public_url = Some(BASE.to_owned());
    h.config.web_secret = Some(secret());
    h.config.telegram_mini_app = Some("board".to_owned());
    h.restart().await;
    h
}

/// The newest board posted to `chat`: its game and its buttons' (label, action).
fn board_buttons(h: &Harness, chat: &ChatId) -> (GameId, Vec<(String, ButtonAction)>) {
    let board = h
        .delivered
        .iter()
        .rev()
        .map(|e| &e.message)
        .find(|m| m.kind == MessageKind::Board && m.to == Destination::Chat(chat.clone()))
        .expect("a board in the chat");
    let buttons = board
        .buttons
        .iter()
        .map(|b| (b.label.clone(), b.action.clone()))
        .collect();
    (board.game.clone().expect("a board's game"), buttons)
}

/// The personal link in a private answer, checked to sign in `who` in `game`.
fn personal_link(answer: &Answer, game: &GameId, who: &User) -> String {
    assert_eq!(answer.replies.len(), 1, "{answer:#?}");
    let reply = &answer.replies[0];
    assert_eq!(reply.to, Destination::ReplyToRequester { ephemeral: true });
    let url = reply
        .buttons
        .iter()
        .find_map(|b| match &b.action {
            ButtonAction::Link(url) if url.contains("#t=") => Some(url.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a personal link: {reply:#?}"));
    let (page, token) = url.split_once("#t=").expect("a token");
    assert_eq!(page, format!("{BASE}/g/{game}"));
    let read = PersonalToken::verify(token, &secret(), T0).expect("the token verifies");
    assert_eq!((&read.game, &read.player), (game, &who.id));
    url
}

fn discord_user(id: &str, name: &str) -> User {
    User::new(UserId::new(Platform::Discord, id), name)
}

#[tokio::test]
async fn telegram_boards_open_the_mini_app_in_groups_by_link_and_in_private_chats_directly() {
    let mut h = playable().await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-701");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    let (game, buttons) = board_buttons(&h, &chat);
    assert!(
        buttons.contains(&(
            "Open the board".to_owned(),
            ButtonAction::Link(format!("https://t.me/jieqi_bot/board?startapp={game}"))
        )),
        "{buttons:?}"
    );
    assert!(
        !buttons
            .iter()
            .any(|(_, action)| matches!(action, ButtonAction::App(_))),
        "Telegram allows no Mini App button in a group: {buttons:?}"
    );

    // A private chat with the bot has the user's own (positive) id.
    let private = ChatId::new(Platform::Telegram, "4242");
    h.say(&alice, &private, "/play bot novice xiangqi red")
        .await;
    h.deliver().await;
    let (game, buttons) = board_buttons(&h, &private);
    assert!(
        buttons.contains(&(
            "Open the board".to_owned(),
            ButtonAction::App(format!("{BASE}/g/{game}"))
        )),
        "{buttons:?}"
    );
}

#[tokio::test]
async fn play_on_the_board_gives_a_player_alone_their_link_while_the_game_runs() {
    let mut h = playable().await;
    let (alice, bob, carol) = (
        discord_user("101", "alice"),
        discord_user("102", "bob"),
        discord_user("103", "carol"),
    );
    let channel = ChatId::new(Platform::Discord, "700");
    h.start_game(&alice, &bob, &channel, "xiangqi red").await;
    h.deliver().await;
    let (game, buttons) = board_buttons(&h, &channel);
    let play = ButtonAction::PlayOnBoard(game.clone());
    assert!(
        buttons.contains(&("Play on the board".to_owned(), play.clone())),
        "{buttons:?}"
    );

    let alices = personal_link(
        &h.press(&alice, &channel, play.clone()).await,
        &game,
        &alice,
    );
    let bobs = personal_link(&h.press(&bob, &channel, play.clone()).await, &game, &bob);
    assert_ne!(alices, bobs);
    let refused = h.press(&carol, &channel, play.clone()).await;
    assert!(refusal(&refused).contains("not a player"), "{refused:#?}");

    // `/board` reposts the board publicly and adds the player's link privately.
    let board = h.say(&bob, &channel, "/board").await;
    personal_link(&board, &game, &bob);
    let reposted = h.deliver().await;
    assert_eq!(of_kind(&reposted, MessageKind::Board).len(), 1);
    for entry in &h.delivered {
        for button in &entry.message.buttons {
            assert!(
                !button.action.encode().contains("#t="),
                "a personal link went through the outbox: {entry:#?}"
            );
        }
        assert!(!entry.message.text.contains("#t="), "{entry:#?}");
    }

    h.say(&bob, &channel, "/resign").await;
    h.say(&bob, &channel, "/resign").await;
    let over = h.press(&alice, &channel, play).await;
    assert!(refusal(&over).contains("is over"), "{over:#?}");
}

#[tokio::test]
async fn without_web_secret_discord_boards_have_no_play_button_and_a_press_says_why() {
    let mut h = Harness::new(DealSource::Seeded(21)).await;
    h.config.public_url = Some(BASE.to_owned());
    h.restart().await;
    let (alice, bob) = (discord_user("101", "alice"), discord_user("102", "bob"));
    let channel = ChatId::new(Platform::Discord, "700");
    h.start_game(&alice, &bob, &channel, "xiangqi red").await;
    h.deliver().await;
    let (game, buttons) = board_buttons(&h, &channel);
    assert!(
        !buttons
            .iter()
            .any(|(_, action)| matches!(action, ButtonAction::PlayOnBoard(_))),
        "{buttons:?}"
    );
    let off = h
        .press(&alice, &channel, ButtonAction::PlayOnBoard(game))
        .await;
    assert!(refusal(&off).contains("WEB_SECRET"), "{off:#?}");
}

#[tokio::test]
async fn a_board_link_asked_for_in_a_telegram_group_is_refused_and_given_in_private() {
    let mut h = playable().await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-701");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    let (game, _) = board_buttons(&h, &chat);

    let asked = format!("/start ply_{game}");
    let public = h.say(&alice, &chat, &asked).await;
    assert!(refusal(&public).contains("seen by everyone"), "{public:#?}");
    let private = h.say(&alice, &dm("alice"), &asked).await;
    personal_link(&private, &game, &alice);
    let stranger = h.say(&user("carol"), &dm("carol"), &asked).await;
    assert!(refusal(&stranger).contains("not a player"), "{stranger:#?}");
}
