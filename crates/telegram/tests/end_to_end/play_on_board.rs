//! Playing on the web board from Telegram: boards in a group carry the Mini App's direct link
//! ("Open the board", `t.me/<bot>/<app>?startapp=<game>`), boards in a private chat open the
//! Mini App itself (a `web_app` button), and a personal link is only ever given in a private
//! chat: asked for in a group (`/start ply_<game>`), it is refused there and nothing with a
//! token reaches the group.

use jieqi_service::personal_link::WebSecret;
use jieqi_service::{Platform, ServiceConfig, UserId};

use crate::fake_bot_api::{BOT_USERNAME, Post};
use crate::harness::{ALICE, GROUP, Harness, IDENTITY_DEAL, STEP};

const PUBLIC_URL: &str = "https://bot.example.org";
const MINI_APP: &str = "board";

/// The web page, personal links and the Mini App, all set up.
fn playable(config: &mut ServiceConfig) {
    config.public_url = Some(PUBLIC_URL.to_owned());
    config.web_secret = WebSecret::new(vec![9; 32]);
    config.telegram_mini_app = Some(MINI_APP.to_owned());
}

/// The game of a board, from its Resign button (`res_<game>`).
fn game_of(board: &Post) -> String {
    board
        .button_starting("res_")
        .and_then(|data| {
            // `res_<game>_<ply>`: the game, without the board's ply.
            let rest = data.strip_prefix("res_")?;
            Some(
                rest.split_once('_')
                    .map_or(rest, |(game, _)| game)
                    .to_owned(),
            )
        })
        .unwrap_or_else(|| panic!("a Resign button: {:?}", board.buttons()))
}

/// The newest board picture posted in `chat`, once there is one.
async fn board_in(h: &Harness, chat: i64) -> Post {
    h.fake
        .wait_for(&format!("a board in {chat}"), STEP, |fake| {
            fake.posts_in(chat)
                .iter()
                .any(|p| p.photo.is_some() && p.button_starting("res_").is_some())
        })
        .await;
    h.posts(chat)
        .into_iter()
        .rev()
        .find(|p| p.photo.is_some() && p.button_starting("res_").is_some())
        .expect("a board")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn group_boards_link_the_mini_app_and_a_personal_link_asked_for_there_is_refused() {
    let h = Harness::start_configured(7, &[IDENTITY_DEAL], playable).await;
    h.start_game().await;
    let board = board_in(&h, GROUP).await;
    let game = game_of(&board);
    let open = format!("https://t.me/{BOT_USERNAME}/{MINI_APP}?startapp={game}");
    assert!(
        board
            .buttons()
            .iter()
            .any(|(label, url)| label == "Open the board" && *url == open),
        "{:?}",
        board.buttons()
    );
    assert!(
        board.web_apps().is_empty(),
        "no Mini App button in a group (Telegram refuses it): {:?}",
        board.buttons()
    );

    // Asking for a personal link in the group, the deep-link way: refused there, no link.
    h.fake.say(ALICE, GROUP, &format!("/start ply_{game}"));
    let refusal = h.post_containing(GROUP, "seen by everyone").await;
    assert!(!refusal.text.contains("#t="), "{}", refusal.text);

    // In her private chat the same asks gets her own link.
    h.fake.say(ALICE, ALICE, &format!("/start ply_{game}"));
    let answer = h.post_containing(ALICE, "Your own board").await;
    let link = answer
        .buttons()
        .into_iter()
        .map(|(_, url)| url)
        .find(|url| url.contains("#t="))
        .unwrap_or_else(|| panic!("a personal link: {:?}", answer.buttons()));
    let (page, token) = link.split_once("#t=").expect("a token");
    assert_eq!(page, format!("{PUBLIC_URL}/g/{game}"));
    let read = h.service.personal_token(token).expect("the token verifies");
    assert_eq!(read.game.as_str(), game);
    assert_eq!(
        read.player,
        UserId::new(Platform::Telegram, ALICE.to_string())
    );

    for text in h.texts_to(GROUP) {
        assert!(
            !text.contains("#t="),
            "a personal link in the group: {text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_in_a_private_chat_open_the_mini_app() {
    let h = Harness::start_configured(7, &[IDENTITY_DEAL], playable).await;
    h.fake.say(ALICE, ALICE, "/start");
    h.post_containing(ALICE, "Hello").await;
    h.fake.say(ALICE, ALICE, "/play bot novice xiangqi red");
    let board = board_in(&h, ALICE).await;
    let game = game_of(&board);
    assert_eq!(
        board.web_apps(),
        [(
            "Open the board".to_owned(),
            format!("{PUBLIC_URL}/g/{game}")
        )],
        "{:?}",
        board.buttons()
    );
    let refused: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|call| call.status >= 400 && call.method != "getUpdates")
        .collect();
    assert!(refused.is_empty(), "Telegram refused nothing: {refused:?}");
}
