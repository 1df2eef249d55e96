//! The rest of the chat surface: languages, settings, watching from another chat, one edited
//! board message, Telegram deep-link accepts, several games in one chat, declines and
//! cancels, and what happens with names the platform did not resolve.

use super::common;

use common::*;
use jieqi_service::{
    ButtonAction, ChatId, DealSource, Destination, Language, MessageKind, Platform, User, UserId,
};

async fn start_game(
    h: &mut Harness,
    a: &User,
    b: &User,
    chat: &ChatId,
    options: &str,
) -> jieqi_service::GameId {
    let answer = h.start_game(a, b, chat, options).await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    of_kind(&out, MessageKind::Board)[0]
        .game
        .clone()
        .expect("game id")
}

#[tokio::test]
async fn a_chat_speaks_its_language_and_new_chats_start_in_the_users() {
    let mut h = Harness::new(DealSource::Seeded(20)).await;
    let mut lan = user("lan");
    lan.language = Some("vi".to_owned());
    let chat = group("-700");
    let answer = h.say(&lan, &chat, "/help").await;
    assert!(
        answer.replies[0].text.starts_with("Các lệnh"),
        "{}",
        answer.replies[0].text
    );
    let answer = h.say(&lan, &chat, "/settings language zh").await;
    assert!(
        answer.replies[0].text.starts_with("已保存"),
        "{}",
        answer.replies[0].text
    );
    assert!(
        answer.replies[0].text.contains("wxf"),
        "a new language keeps the notation"
    );
    h.say(&lan, &chat, "/settings notation chinese").await;
    // The chat's setting now wins over the user's client language.
    let answer = h.say(&lan, &chat, "/move h2e2").await;
    assert!(refusal(&answer).contains("对局"), "{answer:#?}");
    let answer = h.say(&lan, &chat, "/settings colour blue").await;
    assert!(refusal(&answer).contains("colour"));
    let answer = h.say(&lan, &chat, "/settings style crayons").await;
    assert!(
        refusal(&answer).contains("characters, symbols"),
        "{answer:#?}"
    );

    // A Chinese chat sees Chinese move names in captions.
    let (ming, hua) = (user("ming"), user("hua"));
    start_game(&mut h, &ming, &hua, &chat, "xiangqi red").await;
    h.say(&ming, &chat, "/move h2e2").await;
    let out = h.deliver().await;
    let board = of_kind(&out, MessageKind::Board)
        .into_iter()
        .find(|m| m.replaces.is_none())
        .unwrap();
    assert!(board.text.contains("炮二平五"), "{}", board.text);

    let menu = h.service.command_menu(Language::Vi);
    assert_eq!(menu.len(), 25);
    assert!(menu.iter().any(|(name, _)| *name == "tournament"));
    assert!(menu.iter().any(|(name, _)| *name == "review"));
    assert!(menu.iter().any(|(name, _)| *name == "learn"));
    assert!(menu.iter().any(|(name, _)| *name == "puzzle"));
    assert!(
        menu.iter()
            .all(|(_, description)| description.chars().count() <= 100)
    );
    assert!(
        jieqi_service::i18n::missing_keys().is_empty(),
        "{:?}",
        jieqi_service::i18n::missing_keys()
    );
}

#[tokio::test]
async fn another_chat_can_watch_and_stop_watching_a_game() {
    let mut h = Harness::new(DealSource::Seeded(21)).await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let (home, fans) = (group("-710"), group("-711"));
    let game = start_game(&mut h, &alice, &bob, &home, "xiangqi red").await;

    let answer = h.say(&carol, &fans, &format!("/watch {game}")).await;
    assert_eq!(answer.replies[0].kind, MessageKind::Board);
    assert!(answer.replies[0].image.is_some());
    let answer = h.say(&carol, &fans, &format!("/watch {game}")).await;
    assert!(refusal(&answer).contains("already follows"));
    let answer = h.say(&carol, &home, &format!("/watch {game}")).await;
    assert!(refusal(&answer).contains("in this chat already"));
    let answer = h.say(&carol, &fans, "/watch zzzz").await;
    assert!(refusal(&answer).contains("no game zzzz"), "{answer:#?}");

    h.say(&alice, &home, "/move h2e2").await;
    let out = h.deliver().await;
    let to_fans = to_chat(&out, &fans);
    assert_eq!(to_fans.len(), 1, "fans get the board, without buttons");
    assert!(to_fans[0].buttons.is_empty() && to_fans[0].image.is_some());
    // Fans see the board; spectators cannot play from there.
    let answer = h.say(&carol, &fans, &format!("/move {game} h9g7")).await;
    assert!(refusal(&answer).contains("not a player"));
    // /board in the fans' chat shows the followed game.
    let answer = h.say(&carol, &fans, "/board").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    assert_eq!(to_chat(&out, &fans)[0].game.as_ref(), Some(&game));

    let answer = h.say(&carol, &fans, "/unwatch").await;
    assert!(answer.replies[0].text.contains(game.as_str()));
    h.say(&bob, &home, "/move h9g7").await;
    let out = h.deliver().await;
    assert!(to_chat(&out, &fans).is_empty());
    let answer = h.say(&carol, &fans, "/unwatch").await;
    assert!(refusal(&answer).contains("follows no game"));
}

#[tokio::test]
async fn one_edited_board_message_per_game() {
    let mut h = Harness::new(DealSource::Seeded(22)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-720");
    h.say(&alice, &chat, "/settings board edit").await;
    h.deliver().await;
    start_game(&mut h, &alice, &bob, &chat, "xiangqi red").await;
    let first_board = of_kind(&h.delivered, MessageKind::Board)[0];
    let first_id = h
        .delivered
        .iter()
        .find(|e| std::ptr::eq(&e.message, first_board))
        .unwrap()
        .id;
    h.say(&alice, &chat, "/move h2e2").await;
    let out = h.deliver().await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].message.replaces, Some(first_id));
    assert_eq!(
        out[0].replaces_ref.as_deref(),
        Some(format!("msg{}", first_id.0).as_str())
    );
    assert!(out[0].message.image.is_some() && out[0].message.buttons.len() == 2);
    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    let out = h.deliver().await;
    let boards = of_kind(&out, MessageKind::Board);
    assert_eq!(boards.len(), 1);
    assert_eq!(boards[0].replaces, Some(first_id));
    assert!(boards[0].buttons.is_empty());
    assert_eq!(of_kind(&out, MessageKind::Result).len(), 1);
}

#[tokio::test]
async fn a_telegram_deep_link_accepts_from_the_private_chat() {
    let mut h = Harness::new(DealSource::Seeded(23)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-730");
    h.say_mentioning(&alice, &chat, "/challenge @bob", vec![bob.clone()])
        .await;
    let out = h.deliver().await;
    let token = out[0].message.buttons[0].action.encode();
    let dm = ChatId::new(Platform::Telegram, "dm-bob");
    let answer = h.say(&bob, &dm, &format!("/start {token}")).await;
    assert_eq!(answer.replies.len(), 1);
    assert!(
        answer.replies[0]
            .text
            .contains("You accepted alice's challenge"),
        "{}",
        answer.replies[0].text
    );
    let out = h.deliver().await;
    assert_eq!(
        to_chat(&out, &chat)
            .iter()
            .filter(|m| m.kind == MessageKind::Board)
            .count(),
        1
    );
    // A plain /start greets; chatter without a slash is not for the bot.
    let answer = h.say(&bob, &dm, "/start").await;
    assert_eq!(answer.replies[0].kind, MessageKind::Guide);
    let answer = h.say(&bob, &dm, "hello bot").await;
    assert!(answer.replies.is_empty());
    let answer = h.say(&bob, &chat, "/board@other_bot").await;
    assert!(answer.replies.is_empty(), "commands for other bots pass by");
    // From the DM, Bob's only game is found without an id.
    let answer = h.say(&bob, &dm, "/peek").await;
    assert!(answer.replies[0].image.is_some());
    assert_eq!(
        answer.replies[0].to,
        Destination::ReplyToRequester { ephemeral: false }
    );
}

#[tokio::test]
async fn several_games_in_one_chat_need_an_id() {
    let mut h = Harness::new(DealSource::Seeded(24)).await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-740");
    let one = start_game(&mut h, &alice, &bob, &chat, "xiangqi red").await;
    let two = start_game(&mut h, &alice, &carol, &chat, "xiangqi red").await;
    // One game per pair of players per chat.
    let answer = h
        .say_mentioning(&bob, &chat, "/challenge @alice", vec![alice.clone()])
        .await;
    assert!(
        refusal(&answer).contains("already have a game"),
        "{answer:#?}"
    );

    let answer = h.say(&alice, &chat, "/move h2e2").await;
    let text = refusal(&answer);
    assert!(
        text.contains(one.as_str()) && text.contains(two.as_str()),
        "{text}"
    );
    assert!(text.contains("/move "), "{text}");
    let answer = h.say(&alice, &chat, &format!("/move {two} h2e2")).await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let answer = h.say(&carol, &chat, "/move h9g7").await;
    assert!(answer.replies.is_empty(), "carol has one game: {answer:#?}");
    let answer = h.say(&alice, &chat, "/games").await;
    let list = &answer.replies[0].text;
    assert!(
        list.contains(one.as_str()) && list.contains(two.as_str()),
        "{list}"
    );
    assert_eq!(
        h.service.legal_move_texts(&chat, &alice.id).await,
        Vec::<String>::new(),
        "two games: ambiguous"
    );
    assert!(
        h.service.legal_move_texts(&chat, &bob.id).await.is_empty(),
        "not bob's turn"
    );
    h.say(&alice, &chat, &format!("/move {one} h2e2")).await;
    assert!(
        h.service
            .legal_move_texts(&chat, &bob.id)
            .await
            .contains(&"h9g7".to_owned())
    );
}

#[tokio::test]
async fn challenges_can_be_declined_cancelled_and_need_resolved_names() {
    let mut h = Harness::new(DealSource::Seeded(25)).await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-750");
    let answer = h.say(&alice, &chat, "/challenge @zed").await;
    assert!(
        refusal(&answer).contains("cannot tell who @zed is"),
        "{answer:#?}"
    );
    let answer = h
        .say_mentioning(&alice, &chat, "/challenge @alice", vec![alice.clone()])
        .await;
    assert!(refusal(&answer).contains("cannot challenge yourself"));
    let answer = h.say(&alice, &chat, "/challenge chess").await;
    assert!(refusal(&answer).contains("chess"));
    let dm = ChatId::new(Platform::Telegram, "dm-alice");
    let answer = h.say(&alice, &dm, "/challenge").await;
    assert!(refusal(&answer).contains("group chat"));

    // Declined by the one challenged (a Telegram reply resolves Bob without an @name).
    h.say_mentioning(&alice, &chat, "/challenge", vec![bob.clone()])
        .await;
    let posted = h.deliver().await;
    let ButtonAction::Decline(id) = posted[0].message.buttons[1].action.clone() else {
        panic!()
    };
    let answer = h
        .press(&carol, &chat, ButtonAction::Decline(id.clone()))
        .await;
    assert!(refusal(&answer).contains("for bob"));
    let answer = h
        .press(&bob, &chat, ButtonAction::Decline(id.clone()))
        .await;
    assert!(answer.replies.is_empty());
    let out = h.deliver().await;
    assert!(out[0].message.text.contains("Declined by bob"));
    let answer = h.press(&bob, &chat, ButtonAction::Accept(id)).await;
    assert!(refusal(&answer).contains("no open challenge"));

    // An open challenge: the challenger cannot take it, anyone else can; cancel withdraws.
    h.say(&alice, &chat, "/challenge banqi").await;
    let answer = h.say(&alice, &chat, "/accept").await;
    assert!(
        refusal(&answer).contains("your own challenge"),
        "{answer:#?}"
    );
    let answer = h.say(&bob, &chat, "/decline").await;
    assert!(
        refusal(&answer).contains("no open challenge for you"),
        "{answer:#?}"
    );
    let answer = h.say(&bob, &chat, "/cancel").await;
    assert!(
        refusal(&answer).contains("no open challenge here"),
        "{answer:#?}"
    );
    let answer = h.say(&alice, &chat, "/cancel").await;
    assert!(answer.replies.is_empty());
    let out = h.deliver().await;
    assert!(
        out.iter()
            .any(|e| e.message.text.contains("Withdrawn by alice"))
    );
    let answer = h.say(&carol, &chat, "/accept").await;
    assert!(refusal(&answer).contains("no open challenge"));
    let unknown = User::new(UserId::new(Platform::Telegram, "x"), "x");
    let answer = h.say(&unknown, &chat, "/frobnicate").await;
    assert!(refusal(&answer).contains("/frobnicate"));
}
