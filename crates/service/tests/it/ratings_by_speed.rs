//! Ratings by speed, as lichess keeps them: a live game is rated in its control's speed
//! (bullet, blitz, rapid, classical), a game on a time per move in correspondence, each per
//! variant; `/stats` and `/leaderboard` show every speed a player has games in.

use super::common;

use common::*;
use jieqi_clock::Speed;
use jieqi_rules::Variant;
use jieqi_service::{ChatId, DealSource, MessageKind, User};

/// alice (Red) and bob play Xiangqi in `chat` on `control` (a game clock or a time per
/// move) until bob resigns; the result's text.
async fn bob_resigns(h: &mut Harness, chat: &ChatId, control: &str) -> String {
    let (alice, bob) = (user("alice"), user("bob"));
    let answer = h
        .start_game(&alice, &bob, chat, &format!("xiangqi red {control}"))
        .await;
    not_refused(&answer);
    h.say(&alice, chat, "/move h2e2").await;
    h.say(&bob, chat, "/move h9g7").await;
    h.say(&bob, chat, "/resign").await;
    h.say(&bob, chat, "/resign").await;
    let out = h.deliver().await;
    let results = of_kind(&out, MessageKind::Result);
    assert_eq!(results.len(), 1, "{out:#?}");
    results[0].text.clone()
}

async fn player(h: &Harness, who: &User) -> jieqi_service::store::PlayerRecord {
    h.store
        .player(&who.id)
        .await
        .unwrap()
        .expect("player stored")
}

#[tokio::test]
async fn a_live_game_is_rated_in_its_speed_and_a_game_per_move_in_correspondence() {
    let mut h = Harness::new(DealSource::Seeded(41)).await;
    let chat = group("-410");
    let (alice, bob) = (user("alice"), user("bob"));
    let result = bob_resigns(&mut h, &chat, "3+2").await;
    assert!(
        result.contains("New ratings (Blitz): alice 1662 (+162), bob 1338 (−162)."),
        "{result}"
    );
    let ann = player(&h, &alice).await;
    assert_eq!(ann.rating(Variant::Xiangqi, Speed::Blitz).wins, 1);
    assert_eq!(
        ann.rating(Variant::Xiangqi, Speed::Correspondence).games(),
        0
    );
    assert_eq!(
        ann.stats(Variant::Xiangqi).games(),
        0,
        "correspondence untouched"
    );

    // The same two on a day per move: correspondence, from a fresh rating.
    let result = bob_resigns(&mut h, &chat, "1d").await;
    assert!(
        result.contains("New ratings: alice 1662 (+162), bob 1338 (−162)."),
        "{result}"
    );
    // And at 1+0: bullet.
    let result = bob_resigns(&mut h, &chat, "bullet").await;
    assert!(
        result.contains("New ratings (Bullet): alice 1662"),
        "{result}"
    );
    let ann = player(&h, &alice).await;
    let played: Vec<(Speed, u32)> = ann
        .speeds_played(Variant::Xiangqi)
        .into_iter()
        .map(|(speed, stats)| (speed, stats.wins))
        .collect();
    assert_eq!(
        played,
        [
            (Speed::Bullet, 1),
            (Speed::Blitz, 1),
            (Speed::Correspondence, 1)
        ]
    );
    assert_eq!(
        player(&h, &bob)
            .await
            .rating(Variant::Xiangqi, Speed::Blitz)
            .losses,
        1
    );
}

#[tokio::test]
async fn stats_and_the_leaderboard_show_each_speed_played() {
    let mut h = Harness::new(DealSource::Seeded(42)).await;
    let chat = group("-420");
    let (alice, carol) = (user("alice"), user("carol"));
    bob_resigns(&mut h, &chat, "10+5").await;
    bob_resigns(&mut h, &chat, "2d").await;

    let answer = h.say(&alice, &chat, "/stats").await;
    let stats = &answer.replies[0].text;
    assert!(stats.contains("Xiangqi, Rapid: 1662 ± "), "{stats}");
    assert!(
        stats.contains("Xiangqi, Correspondence: 1662 ± "),
        "{stats}"
    );
    assert!(
        !stats.contains("Blitz") && !stats.contains("Jieqi"),
        "{stats}"
    );
    assert!(
        stats.find("Rapid").unwrap() < stats.find("Correspondence").unwrap(),
        "fastest first: {stats}"
    );

    // Every speed played, fastest first, each with its table.
    let answer = h.say(&carol, &chat, "/leaderboard xiangqi").await;
    let table = &answer.replies[0].text;
    let rapid = table.find("Rapid:").expect(table);
    let correspondence = table.find("Correspondence:").expect(table);
    assert!(rapid < correspondence, "{table}");
    assert_eq!(table.matches("1. alice: 1662").count(), 2, "{table}");
    assert_eq!(table.matches("2. bob: 1338").count(), 2, "{table}");
    // One speed, in either order of the words.
    let answer = h.say(&carol, &chat, "/leaderboard rapid xiangqi").await;
    let table = &answer.replies[0].text;
    assert!(
        table.contains("Rapid:") && !table.contains("Correspondence"),
        "{table}"
    );
    let answer = h.say(&carol, &chat, "/leaderboard xiangqi bullet").await;
    let table = &answer.replies[0].text;
    assert!(
        table.contains("Nobody has finished a rated Xiangqi game at Bullet here yet."),
        "{table}"
    );
    let answer = h.say(&carol, &chat, "/leaderboard jieqi").await;
    assert!(
        answer.replies[0]
            .text
            .contains("Nobody has finished a rated Jieqi game here yet."),
        "{answer:#?}"
    );
    let answer = h.say(&carol, &chat, "/leaderboard fast").await;
    let text = refusal(&answer);
    assert!(text.contains("fast") && text.contains("blitz"), "{text}");

    // In Chinese and Vietnamese, the speeds have their own names.
    h.say(&alice, &chat, "/settings language zh").await;
    let answer = h.say(&alice, &chat, "/stats").await;
    let stats = &answer.replies[0].text;
    assert!(stats.contains("象棋（快棋）：1662"), "{stats}");
    assert!(stats.contains("象棋（通讯棋）：1662"), "{stats}");
    h.say(&alice, &chat, "/settings language vi").await;
    let answer = h.say(&carol, &chat, "/leaderboard xiangqi").await;
    let table = &answer.replies[0].text;
    assert!(
        table.contains("Cờ nhanh:") && table.contains("Cờ qua thư:"),
        "{table}"
    );
    assert!(
        jieqi_service::i18n::missing_keys().is_empty(),
        "{:?}",
        jieqi_service::i18n::missing_keys()
    );
}
