//! Tournaments in a chat, as players enter and leave them (issue 53): the announcement's Join
//! and Leave buttons, a start time reached by the tick of one of two processes, an absent
//! player's forfeits (and withdrawal after two), a Swiss's half-point bye asked for and a late
//! entry's zero, unrated events, and the refusals of impossible start times.

use std::time::Duration;

use super::common;

use common::*;
use jieqi_service::store::tournament::{StoredBye, StoredEntry, StoredScore, TournamentState};
use jieqi_service::{
    ButtonAction, ChatId, DealSource, Destination, Input, MessageKind, OutboxEntry, User,
};

/// Plays round `round` to its end but for the games of `absent`, who never moves: elsewhere
/// both sides move and then red resigns (twice: the confirmation). In `absent`'s game the
/// other side makes its first move if it is red.
async fn play_round_without(h: &mut Harness, chat: &ChatId, round: u8, absent: &User) {
    let record = stored(h, chat).await;
    for game in record.round_games(round).cloned().collect::<Vec<_>>() {
        let red = record.players[usize::from(game.first)].user.clone();
        let black = record.players[usize::from(game.second)].user.clone();
        let id = game.game.as_str();
        if red.id == absent.id {
            continue;
        }
        not_refused(&h.say(&red, chat, &format!("/move {id} h2e2")).await);
        if black.id == absent.id {
            continue;
        }
        not_refused(&h.say(&black, chat, &format!("/move {id} h9g7")).await);
        h.say(&red, chat, &format!("/resign {id}")).await;
        h.say(&red, chat, &format!("/resign {id}")).await;
    }
}

#[tokio::test]
async fn join_and_leave_buttons_on_the_announcement_do_what_the_commands_do() {
    let mut h = Harness::new(DealSource::Seeded(60)).await;
    let chat = group("club");
    let [ann, bob, cy] = <[User; 3]>::try_from(players(&["ann", "bob", "cy"])).expect("three");
    not_refused(&h.say(&ann, &chat, "/tournament swiss 2 xiangqi").await);
    h.deliver().await;
    let id = stored(&h, &chat).await.id;
    let announcement = notices_with(&h, &chat, "Swiss, 2 rounds");
    assert_eq!(announcement.len(), 1);
    let actions: Vec<ButtonAction> = announcement[0]
        .buttons
        .iter()
        .map(|b| b.action.clone())
        .collect();
    assert_eq!(
        actions,
        vec![
            ButtonAction::JoinTournament(id.clone()),
            ButtonAction::LeaveTournament(id.clone())
        ]
    );
    for action in &actions {
        let data = action.encode();
        assert!(
            data.len() <= 64
                && data
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        );
    }

    // One press, delivered twice by the platform: counted once.
    let press = h.request(
        &bob,
        &chat,
        Input::Button(ButtonAction::JoinTournament(id.clone())),
        Vec::new(),
    );
    let first = h.service.handle(press.clone()).await;
    let again = h.service.handle(press).await;
    not_refused(&first);
    assert_eq!(first, again, "the repeat gets the same answer");
    assert_eq!(stored(&h, &chat).await.players.len(), 1);
    h.deliver().await;
    assert_eq!(notices_with(&h, &chat, "bob joined").len(), 1, "one notice");
    // A second press is a second join: refused as the command is.
    let twice = h
        .press(&bob, &chat, ButtonAction::JoinTournament(id.clone()))
        .await;
    assert!(refusal(&twice).contains("already"), "{twice:#?}");

    h.press(&cy, &chat, ButtonAction::JoinTournament(id.clone()))
        .await;
    not_refused(
        &h.press(&bob, &chat, ButtonAction::LeaveTournament(id.clone()))
            .await,
    );
    let record = stored(&h, &chat).await;
    assert_eq!(
        record
            .players
            .iter()
            .map(|p| p.user.name.as_str())
            .collect::<Vec<_>>(),
        vec!["cy"],
        "bob left before the start"
    );
    assert!(
        refusal(
            &h.press(&bob, &chat, ButtonAction::LeaveTournament(id.clone()))
                .await
        )
        .contains("not in")
    );

    // The buttons of an event that is over act on nothing else.
    h.say(&ann, &chat, "/tournament cancel").await;
    not_refused(&h.say(&ann, &chat, "/tournament swiss 1").await);
    let old = h
        .press(&bob, &chat, ButtonAction::JoinTournament(id.clone()))
        .await;
    assert!(refusal(&old).contains("is over"), "{old:#?}");
    assert!(stored(&h, &chat).await.players.is_empty());
}

#[tokio::test]
async fn a_start_time_starts_the_swiss_once_whichever_process_ticks_first() {
    let mut h = Harness::new(DealSource::Seeded(61)).await;
    let chat = group("club");
    let field = players(&["ann", "bob", "cy", "di"]);
    let ann = field[0].clone();

    // Start times a player cannot mean are refused with the forms that work.
    for bad in ["at 25:00", "in 9d", "in soon", "at"] {
        let answer = h
            .say(&ann, &chat, &format!("/tournament swiss 2 {bad}"))
            .await;
        assert!(
            refusal(&answer).contains("is not a start time")
                && refusal(&answer).contains("this chat's time zone"),
            "{bad}: {answer:#?}"
        );
    }

    // 20:00 in a chat that set no time zone is the next 20:00 UTC: the scenario's clock is at
    // 22:13:20 UTC, so tomorrow.
    not_refused(
        &h.say(&ann, &chat, "/tournament swiss 2 xiangqi at 20:00")
            .await,
    );
    let record = stored(&h, &chat).await;
    assert_eq!(
        record.starts_at,
        Some(T0 - T0 % 86_400 + 86_400 + 20 * 3600)
    );
    h.say(&ann, &chat, "/tournament cancel").await;
    h.deliver().await;
    h.delivered.clear();

    not_refused(
        &h.say(&ann, &chat, "/tournament swiss 2 xiangqi in 30m")
            .await,
    );
    h.deliver().await;
    assert_eq!(notices_with(&h, &chat, "starts by itself at").len(), 1);
    for player in &field {
        h.say(player, &chat, "/tournament join").await;
    }
    h.advance(Duration::from_secs(29 * 60));
    h.tick().await;
    assert_eq!(stored(&h, &chat).await.state, TournamentState::Open);

    // Due: two processes tick at once, and round 1 is paired once.
    h.advance(Duration::from_secs(60));
    let other = h.another_process(None).await;
    let at = h.clock_now();
    tokio::join!(h.service.tick(at), other.tick(at));
    let record = stored(&h, &chat).await;
    assert_eq!(record.state, TournamentState::Running);
    assert_eq!(record.round, 1);
    assert_eq!(record.round_games(1).count(), 2);
    h.deliver().await;
    assert_eq!(notices_with(&h, &chat, "Round 1 of 2").len(), 1);
    assert_eq!(
        of_kind(&h.delivered, MessageKind::GameStarted).len(),
        4,
        "two games, each player told once"
    );
    h.tick().await;
    assert_eq!(stored(&h, &chat).await.round_games(1).count(), 2);
}

#[tokio::test]
async fn a_start_time_with_too_few_players_says_so_and_waits_for_a_manual_start() {
    let mut h = Harness::new(DealSource::Seeded(62)).await;
    let chat = group("club");
    let field = players(&["ann", "bob", "cy"]);
    h.say(&field[0], &chat, "/tournament swiss 3 xiangqi in 10m")
        .await;
    for player in &field {
        h.say(player, &chat, "/tournament join").await;
    }
    h.advance(Duration::from_secs(600));
    h.tick().await;
    h.tick().await;
    h.deliver().await;
    let record = stored(&h, &chat).await;
    assert_eq!(record.state, TournamentState::Open);
    assert_eq!(record.starts_at, None, "not due again");
    let told = notices_with(&h, &chat, "did not start at its time");
    assert_eq!(told.len(), 1, "said once");
    assert!(told[0].text.contains("at least 4"), "{}", told[0].text);
    h.say(&user("di"), &chat, "/tournament join").await;
    not_refused(&h.say(&field[0], &chat, "/tournament start").await);
    assert_eq!(stored(&h, &chat).await.round, 1);
}

#[tokio::test]
async fn a_player_who_never_moves_forfeits_and_is_withdrawn_after_two_forfeits() {
    let mut h = Harness::new(DealSource::Seeded(63)).await;
    let chat = group("club");
    let field = players(&["ann", "bob", "cy", "di", "ed", "zed"]);
    let zed = field[5].clone();
    h.say(&field[0], &chat, "/tournament swiss 3 xiangqi 3+2")
        .await;
    for player in &field {
        h.say(player, &chat, "/tournament join").await;
    }
    not_refused(&h.say(&field[0], &chat, "/tournament start").await);
    let z = stored(&h, &chat)
        .await
        .player_index(&zed.id)
        .expect("zed in");
    for round in 1..=2u8 {
        play_round_without(&mut h, &chat, round, &zed).await;
        // The first move's 30 s pass.
        h.advance(Duration::from_secs(31));
        h.tick().await;
        let record = stored(&h, &chat).await;
        assert!(
            matches!(
                record.players[z].entries[usize::from(round) - 1],
                StoredEntry::Game {
                    score: Some(StoredScore::ForfeitLoss),
                    ..
                }
            ),
            "round {round}: {:?}",
            record.players[z].entries
        );
        assert_eq!(record.players[z].withdrawn, round == 2, "round {round}");
        assert_eq!(record.round, round + 1, "the next round is paired");
    }
    let posted = h.deliver().await;
    let results = of_kind(&h.delivered, MessageKind::Result);
    assert_eq!(
        results
            .iter()
            .filter(|m| m.text.contains("zed")
                && m.text.contains("loses by forfeit")
                && !m.text.contains("aborted"))
            .count(),
        2,
        "each forfeit is a loss, not an aborted game"
    );
    let told = private_to(&posted, &zed);
    assert!(
        told.iter().any(|m| m.text.contains("you are withdrawn")),
        "zed is told privately: {told:#?}"
    );
    assert_eq!(
        notices_with(&h, &chat, "you are withdrawn").len(),
        0,
        "not in the chat"
    );
    // Withdrawn: round 3 pairs everyone else.
    let record = stored(&h, &chat).await;
    assert_eq!(
        record.players[z].entries.get(2),
        Some(&StoredEntry::Bye(StoredBye::Zero))
    );
    assert!(
        record
            .round_games(3)
            .all(|g| usize::from(g.first) != z && usize::from(g.second) != z)
    );
    // The TRF shows both forfeits as `-`.
    let trf = h.say(&field[0], &chat, "/tournament trf").await;
    let file = trf
        .replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.file_name.ends_with(".trf"))
        .expect("a TRF file");
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    let line = text
        .lines()
        .find(|l| l.starts_with("001") && l.contains("zed"))
        .unwrap_or_else(|| panic!("zed's line: {text}"));
    // Each round is ten columns from 90: opponent, colour, result.
    let results: Vec<&str> = (0..2)
        .map(|r| line.get(89 + r * 10..99 + r * 10).unwrap_or_default())
        .collect();
    assert!(
        results.iter().all(|r| r.trim_end().ends_with('-')),
        "rounds 1 and 2 forfeited: {results:?} in {line}"
    );
    jieqi_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
}

#[tokio::test]
async fn a_swiss_gives_a_half_point_bye_asked_for_once_and_a_late_entry_zero() {
    let mut h = Harness::new(DealSource::Seeded(64)).await;
    let chat = group("club");
    let field = players(&["ann", "bob", "cy", "di", "ed"]);
    let ed = field[4].clone();
    h.say(&field[0], &chat, "/tournament swiss 3 xiangqi").await;
    for player in &field {
        h.say(player, &chat, "/tournament join").await;
    }
    not_refused(&h.say(&ed, &chat, "/tournament bye").await);
    assert!(refusal(&h.say(&ed, &chat, "/tournament bye").await).contains("already"));
    assert!(refusal(&h.say(&user("stranger"), &chat, "/tournament bye").await).contains("not in"));
    not_refused(&h.say(&field[0], &chat, "/tournament start").await);
    let record = stored(&h, &chat).await;
    let e = record.player_index(&ed.id).expect("ed in");
    assert_eq!(
        record.players[e].entries,
        vec![StoredEntry::Bye(StoredBye::Half)],
        "ed's half-point bye in round 1"
    );
    assert_eq!(record.round_games(1).count(), 2, "the other four play");
    assert!(record.byes_asked.is_empty());

    // Late: fay gets nothing for round 1.
    let fay = user("fay");
    not_refused(&h.say(&fay, &chat, "/tournament join").await);
    let record = stored(&h, &chat).await;
    let f = record.player_index(&fay.id).expect("fay in");
    assert_eq!(
        record.players[f].entries,
        vec![StoredEntry::Bye(StoredBye::Zero)]
    );
    let trf = h.say(&fay, &chat, "/tournament trf").await;
    let file = trf
        .replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.file_name.ends_with(".trf"))
        .expect("a TRF file");
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    let swiss = jieqi_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let points = |name: &str| {
        swiss
            .entrants()
            .iter()
            .find(|en| en.name == name)
            .map(|en| en.points().0)
    };
    assert_eq!(points("ed"), Some(1), "a half point, in half points");
    assert_eq!(points("fay"), Some(0));
    assert!(text.contains("0000 - H"), "{text}");
    assert!(text.contains("0000 - Z"), "{text}");

    // A round robin has no byes to ask for.
    let rr = group("rr");
    let gil = user("gil");
    h.say(&gil, &rr, "/tournament round-robin").await;
    not_refused(&h.say(&gil, &rr, "/tournament join").await);
    assert!(refusal(&h.say(&gil, &rr, "/tournament bye").await).contains("Swiss"));
}

/// Plays a one-round Swiss of two in `chat`, created with `options`; returns the result post.
async fn one_game_event(h: &mut Harness, chat: &ChatId, options: &str) -> String {
    let field = players(&["ann", "bob"]);
    not_refused(
        &h.say(
            &field[0],
            chat,
            &format!("/tournament swiss 1 xiangqi {options}"),
        )
        .await,
    );
    for player in &field {
        h.say(player, chat, "/tournament join").await;
    }
    not_refused(&h.say(&field[0], chat, "/tournament start").await);
    let record = stored(h, chat).await;
    let game = record.round_games(1).next().expect("a game").clone();
    let red = record.players[usize::from(game.first)].user.clone();
    let black = record.players[usize::from(game.second)].user.clone();
    let id = game.game.as_str();
    h.say(&red, chat, &format!("/move {id} h2e2")).await;
    h.say(&black, chat, &format!("/move {id} h9g7")).await;
    h.say(&red, chat, &format!("/resign {id}")).await;
    h.say(&red, chat, &format!("/resign {id}")).await;
    let posted = h.deliver().await;
    of_kind(&posted, MessageKind::Result)
        .first()
        .map(|m| m.text.clone())
        .expect("a result")
}

#[tokio::test]
async fn an_unrated_tournaments_games_change_no_rating_and_a_rated_ones_do() {
    let mut h = Harness::new(DealSource::Seeded(65)).await;
    let unrated = one_game_event(&mut h, &group("club"), "unrated").await;
    assert!(!unrated.contains("New ratings"), "{unrated}");
    let games = |h: &Harness| {
        let store = h.store.clone();
        async move {
            let ann = store
                .player(&user("ann").id)
                .await
                .expect("read")
                .expect("ann");
            let stats = ann.rating(
                jieqi_rules::Variant::Xiangqi,
                jieqi_clock::Speed::Correspondence,
            );
            stats.wins + stats.losses + stats.draws
        }
    };
    assert_eq!(games(&h).await, 0, "the unrated game is not counted");
    let rated = one_game_event(&mut h, &group("other"), "").await;
    assert!(rated.contains("New ratings"), "{rated}");
    assert_eq!(games(&h).await, 1, "the rated one is");
}

#[tokio::test]
async fn after_the_final_post_standings_answer_with_text_and_not_the_picture_again() {
    let mut h = Harness::new(DealSource::Seeded(66)).await;
    let chat = group("club");
    one_game_event(&mut h, &chat, "").await;
    assert_eq!(stored(&h, &chat).await.state, TournamentState::Finished);
    let finals = notices_with(&h, &chat, "The tournament is over");
    assert_eq!(finals.len(), 1);
    assert!(finals[0].image.is_some(), "the final post has the picture");
    let answer = h.say(&user("bob"), &chat, "/tournament standings").await;
    not_refused(&answer);
    assert!(
        answer.replies.iter().all(|r| r.image.is_none()),
        "no picture again: {answer:#?}"
    );
    let text = &answer.replies[0].text;
    assert!(text.contains("the final post above"), "{text}");
    assert!(text.contains("ann") && text.contains("bob"), "{text}");
}

/// The announcement's delivered entry of the chat's latest event and the edits made of it.
fn announcement_and_edits(h: &Harness, chat: &ChatId, id: &str) -> (OutboxEntry, Vec<OutboxEntry>) {
    let announcement = h
        .delivered
        .iter()
        .find(|e| {
            e.message.to == Destination::Chat(chat.clone())
                && e.message.replaces.is_none()
                && e.message.buttons.iter().any(
                    |b| matches!(&b.action, ButtonAction::JoinTournament(t) if t.as_str() == id),
                )
        })
        .expect("the announcement")
        .clone();
    let edits = h
        .delivered
        .iter()
        .filter(|e| e.message.replaces == Some(announcement.id))
        .cloned()
        .collect();
    (announcement, edits)
}

#[tokio::test]
async fn the_join_and_leave_buttons_leave_the_announcement_once_the_event_is_over() {
    let mut h = Harness::new(DealSource::Seeded(67)).await;

    // Called off: one edit of the announcement, buttons gone, its text kept.
    let chat = group("club");
    let ann = user("ann");
    not_refused(&h.say(&ann, &chat, "/tournament swiss 2 xiangqi").await);
    h.deliver().await;
    let id = stored(&h, &chat).await.id;
    let (announcement, edits) = announcement_and_edits(&h, &chat, id.as_str());
    assert!(edits.is_empty(), "untouched while open");
    assert_eq!(stored(&h, &chat).await.announcement, Some(announcement.id));
    not_refused(&h.say(&ann, &chat, "/tournament cancel").await);
    h.deliver().await;
    let (_, edits) = announcement_and_edits(&h, &chat, id.as_str());
    assert_eq!(edits.len(), 1, "{edits:#?}");
    assert!(edits[0].message.buttons.is_empty() && edits[0].message.text.is_empty());
    assert_eq!(
        edits[0].replaces_ref.as_deref(),
        Some(format!("msg{}", announcement.id.0).as_str()),
        "the platform's post is the one edited"
    );

    // Finished: the same, once, in the change that ends it.
    let other = group("other-club");
    one_game_event(&mut h, &other, "").await;
    let record = stored(&h, &other).await;
    assert_eq!(record.state, TournamentState::Finished);
    let (_, edits) = announcement_and_edits(&h, &other, record.id.as_str());
    assert_eq!(edits.len(), 1, "{edits:#?}");
    assert!(edits[0].message.buttons.is_empty());
}
