//! Tournaments in a chat (issue 53), as players run one: an admin creates a Swiss, eight
//! players join, the start pairs round 1 and posts the pairings once, every game is an
//! ordinary game (its board, each player told privately of their game and colour), each
//! round's last result pairs the next round once, the final post names the winner with the
//! standings picture, the TRF-16 export reads back, and tournament games' PGN carry their
//! event and round. Bad settings and entries are refused with the reason.

use super::common;

use common::*;
use jieqi_service::store::tournament::{StoredEntry, TournamentState};
use jieqi_service::{ChatId, DealSource, MessageKind, User};

/// The chat's tournament as stored.
/// Plays round `round`'s games to an end: on board 1 black resigns, on board 2 the two
/// agree a draw, and from board 3 on red resigns; everyone makes a move first, so none is
/// a forfeit.
async fn play_round(h: &mut Harness, chat: &ChatId, round: u8) {
    let record = stored(h, chat).await;
    let games: Vec<_> = record.round_games(round).cloned().collect();
    assert!(!games.is_empty(), "round {round} has games");
    for game in games {
        let red = record.players[usize::from(game.first)].user.clone();
        let black = record.players[usize::from(game.second)].user.clone();
        let id = game.game.as_str();
        for (who, line) in [
            (&red, format!("/move {id} h2e2")),
            (&black, format!("/move {id} h9g7")),
        ] {
            let answer = h.say(who, chat, &line).await;
            assert!(
                answer
                    .replies
                    .iter()
                    .all(|r| r.kind != MessageKind::Refusal),
                "round {round} board {}: {line}: {answer:#?}",
                game.board
            );
        }
        match game.board {
            1 => {
                h.say(&black, chat, &format!("/resign {id}")).await;
                h.say(&black, chat, &format!("/resign {id}")).await;
            }
            2 => {
                h.say(&red, chat, &format!("/draw {id}")).await;
                h.say(&black, chat, &format!("/draw {id}")).await;
            }
            _ => {
                h.say(&red, chat, &format!("/resign {id}")).await;
                h.say(&red, chat, &format!("/resign {id}")).await;
            }
        }
    }
}

fn is_png(message: &jieqi_service::Message) -> bool {
    message
        .image
        .as_ref()
        .is_some_and(|i| i.bytes.starts_with(b"\x89PNG"))
}

#[tokio::test]
async fn an_eight_player_swiss_of_three_rounds_runs_from_creation_to_its_winner() {
    let mut h = Harness::new(DealSource::Seeded(53)).await;
    let chat = group("club");
    let players: Vec<User> = ["ann", "bob", "cy", "di", "ed", "flo", "gus", "hal"]
        .into_iter()
        .map(user)
        .collect();
    let admin = players[0].clone();

    // Bad settings are refused with the reason, and only admins create.
    assert!(
        refusal(&h.say(&admin, &chat, "/tournament swiss 99 rounds").await).contains("1 to 30")
    );
    assert!(
        refusal(&h.say(&admin, &chat, "/tournament swiss 3 0+0").await)
            .contains("is not a time I can use")
    );
    assert!(refusal(&h.say(&admin, &chat, "/tournament swiss 3 soon").await).contains("soon"));
    assert!(refusal(&h.say(&admin, &chat, "/tournament join").await).contains("no tournament"));
    h.non_admins.push(players[1].id.clone());
    assert!(refusal(&h.say(&players[1], &chat, "/tournament swiss 3").await).contains("admins"));

    let created = h
        .say(&admin, &chat, "/tournament swiss 3 rounds xiangqi 1d")
        .await;
    assert!(created.replies.is_empty(), "{created:#?}");
    h.deliver().await;
    assert_eq!(notices_with(&h, &chat, "Swiss, 3 rounds").len(), 1);
    assert!(refusal(&h.say(&admin, &chat, "/tournament swiss 3").await).contains("already has"));

    for player in &players[..3] {
        h.say(player, &chat, "/tournament join").await;
    }
    assert!(refusal(&h.say(&players[0], &chat, "/tournament join").await).contains("already"));
    // Three players cannot play three rounds without meeting twice.
    assert!(refusal(&h.say(&admin, &chat, "/tournament start").await).contains("at least 4"));
    for player in &players[3..] {
        h.say(player, &chat, "/tournament join").await;
    }
    assert!(refusal(&h.say(&players[1], &chat, "/tournament start").await).contains("ann"));

    // Nobody in it plays a second event elsewhere at the same time.
    let elsewhere = group("other-club");
    h.say(&players[7], &elsewhere, "/tournament swiss 1").await;
    assert!(
        refusal(&h.say(&players[2], &elsewhere, "/tournament join").await).contains("another chat")
    );

    // The start pairs round 1: four games, posted once, each player told privately.
    h.deliver().await;
    h.delivered.clear();
    let start = h.say(&admin, &chat, "/tournament start").await;
    assert!(start.replies.is_empty(), "{start:#?}");
    let posted = h.deliver().await;
    let record = stored(&h, &chat).await;
    assert_eq!(record.state, TournamentState::Running);
    assert_eq!(record.round, 1);
    assert_eq!(record.round_games(1).count(), 4);
    assert_eq!(notices_with(&h, &chat, "Round 1 of 3").len(), 1);
    for player in &players {
        let told = private_to(&posted, player);
        assert!(
            told.iter().any(|m| m.kind == MessageKind::GameStarted
                && (m.text.contains("You play Red") || m.text.contains("You play Black"))),
            "{} is told their game and colour: {told:#?}",
            player.name
        );
    }
    assert_eq!(
        of_kind(&posted, MessageKind::Board).len(),
        4,
        "each game's first board"
    );

    for round in 1..=3u8 {
        play_round(&mut h, &chat, round).await;
        h.deliver().await;
        let record = stored(&h, &chat).await;
        let after = format!("Standings after round {round} of 3");
        let standings = notices_with(&h, &chat, &after);
        assert_eq!(standings.len(), 1, "{after}, once");
        assert!(is_png(standings[0]), "with the picture");
        if round < 3 {
            assert_eq!(record.round, round + 1, "the next round is paired");
            assert_eq!(record.round_games(round + 1).count(), 4);
            let pairings = format!("Round {} of 3", round + 1);
            assert_eq!(
                notices_with(&h, &chat, &pairings).len(),
                1,
                "{pairings}, once"
            );
        } else {
            assert_eq!(record.state, TournamentState::Finished);
        }
    }

    // Every round's games were new and no two players met twice.
    let record = stored(&h, &chat).await;
    let mut ids: Vec<_> = record.games.iter().map(|g| g.game.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 12);
    for (i, player) in record.players.iter().enumerate() {
        let mut met: Vec<u16> = player
            .entries
            .iter()
            .filter_map(|e| match e {
                StoredEntry::Game { opponent, .. } => Some(*opponent),
                StoredEntry::Bye(_) => None,
            })
            .collect();
        assert_eq!(met.len(), 3, "player {i} played three games");
        met.sort_unstable();
        met.dedup();
        assert_eq!(met.len(), 3, "player {i} met three different opponents");
    }

    let finished = notices_with(&h, &chat, "The tournament is over");
    assert_eq!(finished.len(), 1);
    assert!(is_png(finished[0]));
    let rows = jieqi_tournament::tiebreak::standings(
        &record
            .players
            .iter()
            .map(|p| {
                p.entries
                    .iter()
                    .map(|e| match *e {
                        StoredEntry::Game {
                            opponent,
                            first,
                            score,
                        } => jieqi_tournament::model::Entry::Game {
                            opponent: usize::from(opponent),
                            colour: if first {
                                jieqi_tournament::model::Colour::White
                            } else {
                                jieqi_tournament::model::Colour::Black
                            },
                            score: score.map(|s| match s {
                                jieqi_service::store::tournament::StoredScore::Win => {
                                    jieqi_tournament::model::Score::Win
                                }
                                jieqi_service::store::tournament::StoredScore::Draw => {
                                    jieqi_tournament::model::Score::Draw
                                }
                                jieqi_service::store::tournament::StoredScore::Loss => {
                                    jieqi_tournament::model::Score::Loss
                                }
                                other => panic!("every game was played, not {other:?}"),
                            }),
                        },
                        StoredEntry::Bye(_) => jieqi_tournament::model::Entry::Bye(
                            jieqi_tournament::model::ByeKind::Zero,
                        ),
                    })
                    .collect()
            })
            .collect::<Vec<_>>(),
        &jieqi_tournament::tiebreak::SWISS,
    );
    for winner in rows.iter().filter(|r| r.rank == 1) {
        let name = &record.players[winner.player].user.name;
        assert!(
            finished[0].text.contains(name.as_str()),
            "{name} named: {}",
            finished[0].text
        );
    }
    if let Ok(path) = std::env::var("TOURNAMENT_STANDINGS_PNG") {
        let image = finished[0].image.as_ref().expect("picture");
        std::fs::write(path, &image.bytes).expect("written");
    }

    // Over: too late to join; the TRF-16 file reads back with every result.
    assert!(refusal(&h.say(&user("ivy"), &chat, "/tournament join").await).contains("is over"));
    let trf = h.say(&admin, &chat, "/tournament trf").await;
    let file = trf
        .replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.file_name.ends_with(".trf"))
        .unwrap_or_else(|| panic!("a TRF file: {trf:#?}"));
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    let swiss = jieqi_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(swiss.entrants().len(), 8);
    assert_eq!(swiss.rounds_paired(), 3);
    let points: u16 = swiss.entrants().iter().map(|e| e.points().0).sum();
    assert_eq!(points, 2 * 12, "twelve games, a point each, in half points");

    // ...and the PGN of a tournament game carries its event and round.
    let game = record.round_games(2).next().expect("a game").game.clone();
    let history = h.say(&admin, &chat, &format!("/history {game}")).await;
    let pgn = history
        .replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.file_name.ends_with(".pgn"))
        .expect("a PGN");
    let text = String::from_utf8_lossy(&pgn.bytes);
    assert!(
        text.contains(&format!("[Event \"jieqi-bot tournament {}\"]", record.id)),
        "{text}"
    );
    assert!(text.contains("[Round \"2\"]"), "{text}");
}

#[tokio::test]
async fn a_running_swiss_exports_trf_that_reads_back_with_its_results() {
    let mut h = Harness::new(DealSource::Seeded(54)).await;
    let chat = group("club");
    let players: Vec<User> = ["ann", "bob", "cy", "di", "ed"]
        .into_iter()
        .map(user)
        .collect();
    h.say(&players[0], &chat, "/tournament swiss 2 xiangqi")
        .await;
    for player in &players {
        h.say(player, &chat, "/tournament join").await;
    }
    h.say(&players[0], &chat, "/tournament start").await;
    play_round(&mut h, &chat, 1).await;
    // Round 2 was paired as round 1's last game ended: the last round, so too late to join.
    assert!(refusal(&h.say(&user("fay"), &chat, "/tournament join").await).contains("too late"));
    let answer = h.say(&players[0], &chat, "/tournament trf").await;
    let file = answer
        .replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.file_name.ends_with(".trf"))
        .unwrap_or_else(|| panic!("a TRF file: {answer:#?}"));
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    assert!(text.contains("XXR 2"), "{text}");
    let swiss = jieqi_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(swiss.entrants().len(), 5);
    let record = stored(&h, &chat).await;
    assert_eq!(record.round, 2, "round 2 paired");
    // Round 1 of five: two games and the pairing-allocated bye, whose point is in the file.
    assert!(text.contains("0000 - U"), "{text}");
    let standings = h.say(&players[1], &chat, "/tournament standings").await;
    assert!(
        standings.replies.iter().any(|r| r
            .image
            .as_ref()
            .is_some_and(|i| i.bytes.starts_with(b"\x89PNG"))),
        "{standings:#?}"
    );
}

#[tokio::test]
async fn two_processes_ending_a_rounds_last_games_at_once_pair_the_next_round_once() {
    let mut h = Harness::new(DealSource::Seeded(55)).await;
    let chat = group("club");
    let players: Vec<User> = ["ann", "bob", "cy", "di"].into_iter().map(user).collect();
    h.say(&players[0], &chat, "/tournament swiss 2 xiangqi")
        .await;
    for player in &players {
        h.say(player, &chat, "/tournament join").await;
    }
    h.say(&players[0], &chat, "/tournament start").await;
    let record = stored(&h, &chat).await;
    let games: Vec<_> = record.round_games(1).cloned().collect();
    assert_eq!(games.len(), 2);
    let mut confirmations = Vec::new();
    for game in &games {
        let red = record.players[usize::from(game.first)].user.clone();
        let black = record.players[usize::from(game.second)].user.clone();
        let id = game.game.as_str();
        h.say(&red, &chat, &format!("/move {id} h2e2")).await;
        h.say(&black, &chat, &format!("/move {id} h9g7")).await;
        h.say(&red, &chat, &format!("/resign {id}")).await;
        confirmations.push(h.request(
            &red,
            &chat,
            jieqi_service::Input::Text(format!("/resign {id}")),
            Vec::new(),
        ));
    }
    h.deliver().await;
    h.delivered.clear();
    // Each process ends one of the round's two games, at once.
    let other = h.another_process(None).await;
    let second = confirmations.pop().expect("two");
    let first = confirmations.pop().expect("two");
    let (a, b) = tokio::join!(h.service.handle(first), other.handle(second));
    for answer in [&a, &b] {
        not_refused(answer);
    }
    let record = stored(&h, &chat).await;
    assert_eq!(record.round, 2);
    assert_eq!(record.round_games(2).count(), 2, "round 2 paired once");
    h.deliver().await;
    assert_eq!(notices_with(&h, &chat, "Round 2 of 2").len(), 1);
    assert_eq!(notices_with(&h, &chat, "Standings after round 1").len(), 1);
    let started = of_kind(&h.delivered, MessageKind::GameStarted).len();
    assert_eq!(started, 4, "two games, each player told once");
}

#[tokio::test]
async fn a_round_robin_of_three_plays_everyone_once_with_a_round_off_each() {
    let mut h = Harness::new(DealSource::Seeded(56)).await;
    let chat = group("club");
    let players: Vec<User> = ["ann", "bob", "cy"].into_iter().map(user).collect();
    h.say(&players[0], &chat, "/tournament round-robin xiangqi")
        .await;
    for player in &players {
        h.say(player, &chat, "/tournament join").await;
    }
    h.say(&players[0], &chat, "/tournament start").await;
    for round in 1..=3u8 {
        let record = stored(&h, &chat).await;
        assert_eq!(record.round, round);
        assert_eq!(
            record.round_games(round).count(),
            1,
            "one game, one player off"
        );
        play_round(&mut h, &chat, round).await;
    }
    h.deliver().await;
    let record = stored(&h, &chat).await;
    assert_eq!(record.state, TournamentState::Finished);
    for (i, player) in record.players.iter().enumerate() {
        let mut met: Vec<u16> = player
            .entries
            .iter()
            .filter_map(|e| match e {
                StoredEntry::Game { opponent, .. } => Some(*opponent),
                StoredEntry::Bye(_) => None,
            })
            .collect();
        met.sort_unstable();
        let others: Vec<u16> = (0..3u16).filter(|&o| usize::from(o) != i).collect();
        assert_eq!(met, others, "player {i} met each other player once");
    }
    assert_eq!(notices_with(&h, &chat, "The tournament is over").len(), 1);
    assert!(refusal(&h.say(&players[1], &chat, "/tournament trf").await).contains("Swiss"));
    // Once it is over, the chat may run the next one.
    let next = h
        .say(&players[2], &chat, "/tournament round-robin double")
        .await;
    assert!(next.replies.is_empty(), "{next:#?}");
    assert_eq!(
        h.store.chat_tournaments(&chat).await.expect("read").len(),
        2
    );
}

#[tokio::test]
async fn an_announcement_says_once_who_starts_the_event() {
    let mut h = Harness::new(DealSource::Seeded(57)).await;
    let ann = user("ann");
    for (chat, line) in [
        (group("swiss-club"), "/tournament swiss 3"),
        (group("arena-club"), "/tournament arena 10"),
    ] {
        let answer = h.say(&ann, &chat, line).await;
        not_refused(&answer);
        h.deliver().await;
        let announcement = to_chat(&h.delivered, &chat)
            .into_iter()
            .find(|m| m.text.starts_with("Tournament "))
            .expect("the announcement");
        assert_eq!(
            announcement
                .text
                .matches("starts it with /tournament start")
                .count(),
            1,
            "{}",
            announcement.text
        );
        // An event in each chat: ann leaves nothing running to block the next.
        h.say(&ann, &chat, "/tournament cancel").await;
    }
}
