//! Arenas in a chat (issue 53, lichess's arena), as players run one: an admin creates it
//! with a start time, players join by command and button, the start pairs everyone
//! waiting, each game's end pairs its players again with whoever waits (never with the last
//! opponent), wins on a streak count double, a player who leaves is paired no more, an
//! absent player forfeits and is withdrawn, pairing stops near the end, the end comes by
//! the tick with games still running (they do not count) and the final post names the
//! winner with the standings picture. Each pairing is made once: a repeated update, and
//! two processes ending two games at once.

use std::collections::HashMap;
use std::time::Duration;

use super::common;

use common::*;
use jieqi_service::store::TournamentRecord;
use jieqi_service::store::tournament::{ArenaGame, StoredScore, TournamentState};
use jieqi_service::{ButtonAction, ChatId, DealSource, Input, MessageKind, User};

/// The arena's games being played.
fn playing(record: &TournamentRecord) -> Vec<ArenaGame> {
    record
        .arena_games
        .iter()
        .filter(|g| g.score.is_none())
        .cloned()
        .collect()
}

/// How `play_out` ends a game.
#[derive(Clone, Copy, Debug)]
enum End {
    RedWins,
    BlackWins,
    Draw,
}

/// Both sides move, then the game ends as `end` says (a resignation confirmed, or a draw
/// offered and taken); the answer to the last request.
async fn play_out(
    h: &mut Harness,
    chat: &ChatId,
    record: &TournamentRecord,
    game: &ArenaGame,
    end: End,
) -> jieqi_service::Answer {
    let red = record.players[usize::from(game.first)].user.clone();
    let black = record.players[usize::from(game.second)].user.clone();
    let id = game.game.as_str();
    not_refused(&h.say(&red, chat, &format!("/move {id} h2e2")).await);
    not_refused(&h.say(&black, chat, &format!("/move {id} h9g7")).await);
    let (first, second) = match end {
        End::RedWins => (&black, &black),
        End::BlackWins => (&red, &red),
        End::Draw => (&red, &black),
    };
    let word = if matches!(end, End::Draw) {
        "draw"
    } else {
        "resign"
    };
    h.say(first, chat, &format!("/{word} {id}")).await;
    h.say(second, chat, &format!("/{word} {id}")).await
}

/// Each player's (points, wins, games) counted from the stored results as lichess counts
/// them, apart from the service's own count: 2 a win, 1 a draw, doubled after two wins in a
/// row until a game is not won; a forfeit counts as a win or a loss.
fn lichess_scores(record: &TournamentRecord) -> Vec<(u32, u32, u32)> {
    let mut scores = vec![(0, 0, 0); record.players.len()];
    let mut streak = vec![0; record.players.len()];
    for game in &record.arena_games {
        let Some(score) = game.score else { continue };
        let first_won = matches!(score, StoredScore::Win | StoredScore::ForfeitWin);
        let second_won = matches!(score, StoredScore::Loss | StoredScore::ForfeitLoss);
        for (p, won) in [(game.first, first_won), (game.second, second_won)] {
            let p = usize::from(p);
            let base = if won {
                2
            } else if score == StoredScore::Draw {
                1
            } else {
                0
            };
            let factor = if streak[p] >= 2 { 2 } else { 1 };
            scores[p].0 += base * factor;
            scores[p].1 += u32::from(won);
            scores[p].2 += 1;
            streak[p] = if won { streak[p] + 1 } else { 0 };
        }
    }
    scores
}

/// Asserts what an arena promises at every moment: nobody in two games at once (the codec
/// refuses that anyway), each player's consecutive games against different opponents, and
/// nobody left waiting who could be paired with another waiting player (two waiting players
/// just met each other) while pairing is open.
fn assert_arena_invariants(record: &TournamentRecord, pairing_open: bool) {
    let mut last: HashMap<u16, u16> = HashMap::new();
    for game in &record.arena_games {
        for (me, them) in [(game.first, game.second), (game.second, game.first)] {
            assert_ne!(
                last.get(&me),
                Some(&them),
                "player {me} met {them} twice in a row: {:?}",
                record.arena_games
            );
            last.insert(me, them);
        }
    }
    if !pairing_open || record.state != TournamentState::Running {
        return;
    }
    let busy: Vec<u16> = playing(record)
        .iter()
        .flat_map(|g| [g.first, g.second])
        .collect();
    let waiting: Vec<u16> = (0..record.players.len())
        .map(|i| u16::try_from(i).expect("small"))
        .filter(|i| !busy.contains(i) && !record.players[usize::from(*i)].withdrawn)
        .collect();
    for (k, a) in waiting.iter().enumerate() {
        for b in &waiting[k + 1..] {
            assert!(
                last.get(a) == Some(b) || last.get(b) == Some(a),
                "players {a} and {b} both wait and could play: {record:?}"
            );
        }
    }
}

#[tokio::test]
async fn an_arena_runs_from_creation_to_its_final_post() {
    let mut h = Harness::new(DealSource::Seeded(70)).await;
    let chat = group("club");
    // Names as players write them, markup and direction overrides too: the picture and
    // the page draw them as text.
    let field = players(&["ann", "bob <b>&amp;</b>", "cy\u{202E}evil", "李小龙", "ed"]);
    let [ann, bob, cy, di, ed] = <[User; 5]>::try_from(field.clone()).expect("five");

    // Bad settings are refused with the reason, and only admins create.
    assert!(refusal(&h.say(&ann, &chat, "/tournament arena 0").await).contains("1 to 1440"));
    assert!(refusal(&h.say(&ann, &chat, "/tournament arena 1441").await).contains("1 to 1440"));
    assert!(
        refusal(&h.say(&ann, &chat, "/tournament arena 10 0+0").await)
            .contains("is not a time I can use")
    );
    assert!(refusal(&h.say(&ann, &chat, "/tournament arena 10 soon").await).contains("soon"));
    h.non_admins.push(bob.id.clone());
    assert!(refusal(&h.say(&bob, &chat, "/tournament arena 10").await).contains("admins"));

    not_refused(
        &h.say(&ann, &chat, "/tournament arena 10 xiangqi 1d in 5m")
            .await,
    );
    h.deliver().await;
    let announcement = notices_with(&h, &chat, "arena of 10 minutes");
    assert_eq!(announcement.len(), 1, "announced once");
    let id = stored(&h, &chat).await.id;
    assert_eq!(
        announcement[0].buttons[0].action,
        ButtonAction::JoinTournament(id.clone())
    );
    for player in [&ann, &bob, &cy, &di] {
        not_refused(&h.say(player, &chat, "/tournament join").await);
    }
    not_refused(
        &h.press(&ed, &chat, ButtonAction::JoinTournament(id.clone()))
            .await,
    );

    // Its start time comes: everyone waiting is paired, four of five.
    h.advance(Duration::from_secs(4 * 60));
    h.tick().await;
    assert_eq!(stored(&h, &chat).await.state, TournamentState::Open);
    h.advance(Duration::from_secs(60));
    h.tick().await;
    h.deliver().await;
    let record = stored(&h, &chat).await;
    assert_eq!(record.state, TournamentState::Running);
    let start = h
        .clock_now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    assert_eq!(record.ends_at, Some(start + 600));
    assert_eq!(record.arena_games.len(), 2);
    assert_eq!(
        notices_with(&h, &chat, &format!("Arena {id} has started")).len(),
        1
    );
    assert_eq!(
        notices_with(&h, &chat, "new games").len(),
        1,
        "one pairings post"
    );
    assert_eq!(
        of_kind(&h.delivered, MessageKind::GameStarted).len(),
        4,
        "each player told privately once"
    );
    assert_arena_invariants(&record, true);

    // Games end; ann wins every game she plays, elsewhere red wins or they draw. Her game
    // ends first whenever she plays, so she plays three.
    let a = record.player_index(&ann.id).expect("ann in");
    let ann_games = |r: &TournamentRecord| {
        r.arena_games
            .iter()
            .filter(|g| usize::from(g.first) == a || usize::from(g.second) == a)
            .filter(|g| g.score.is_some())
            .count()
    };
    let mut ends = 0;
    while ann_games(&stored(&h, &chat).await) < 3 {
        ends += 1;
        assert!(ends < 20, "ann gets her games");
        let record = stored(&h, &chat).await;
        let running = playing(&record);
        let game = running
            .iter()
            .find(|g| usize::from(g.first) == a || usize::from(g.second) == a)
            .unwrap_or(&running[0])
            .clone();
        let end = if usize::from(game.first) == a {
            End::RedWins
        } else if usize::from(game.second) == a {
            End::BlackWins
        } else if ends % 2 == 0 {
            End::Draw
        } else {
            End::RedWins
        };
        not_refused(&play_out(&mut h, &chat, &record, &game, end).await);
        let after = stored(&h, &chat).await;
        assert_eq!(
            after.arena_game(&game.game).and_then(|g| g.score),
            Some(match end {
                End::RedWins => StoredScore::Win,
                End::BlackWins => StoredScore::Loss,
                End::Draw => StoredScore::Draw,
            })
        );
        assert_arena_invariants(&after, true);
    }
    // Three wins: 2, 2, then 4 on the streak; the standings show it with the flame.
    h.deliver().await;
    let standings = h.say(&cy, &chat, "/tournament standings").await;
    let text = &standings.replies[0].text;
    assert!(text.contains("1. ann 8 🔥"), "{text}");
    assert!(
        standings.replies[0]
            .image
            .as_ref()
            .is_some_and(|i| i.bytes.starts_with(b"\x89PNG")),
        "{standings:#?}"
    );
    assert!(
        !notices_with(&h, &chat, "ann 🔥").is_empty(),
        "her third game's pairing shows her streak"
    );

    // di leaves: her game (if any) is played out, and she is paired no more.
    not_refused(
        &h.press(&di, &chat, ButtonAction::LeaveTournament(id.clone()))
            .await,
    );
    let d = record.player_index(&di.id).expect("di in");
    let games_before = stored(&h, &chat).await.arena_games.len();
    for _ in 0..3 {
        let record = stored(&h, &chat).await;
        let Some(game) = playing(&record).first().cloned() else {
            break;
        };
        play_out(&mut h, &chat, &record, &game, End::BlackWins).await;
        assert_arena_invariants(&stored(&h, &chat).await, true);
    }
    let record = stored(&h, &chat).await;
    assert!(record.players[d].withdrawn);
    assert!(
        record.arena_games[games_before..]
            .iter()
            .all(|g| usize::from(g.first) != d && usize::from(g.second) != d),
        "di paired after leaving: {:?}",
        record.arena_games
    );

    // The page lists every pairing, the newest first, with the standings.
    let page = h
        .service
        .tournament_page(&id, None)
        .await
        .expect("read")
        .expect("a page");
    assert_eq!(page.rounds.len(), 1);
    assert_eq!(page.rounds[0].games.len(), record.arena_games.len());
    assert_eq!(
        page.rounds[0].games[0].game,
        record.arena_games.last().expect("games").game.to_string()
    );
    assert_eq!(page.tiebreaks, vec!["W", "G"]);
    assert_eq!(page.standings[0].name, "ann");

    // Four players are left: a lone game's end frees all four, who make two games.
    for _ in 0..3 {
        let record = stored(&h, &chat).await;
        let running = playing(&record);
        if running.len() == 2 {
            break;
        }
        play_out(&mut h, &chat, &record, &running[0], End::RedWins).await;
    }
    // In the last two minutes no game is paired: a game ending then leaves its players
    // waiting.
    h.advance(Duration::from_secs(600 - 90));
    let record = stored(&h, &chat).await;
    let running = playing(&record);
    assert_eq!(running.len(), 2, "two games run: {record:?}");
    play_out(&mut h, &chat, &record, &running[0], End::RedWins).await;
    let late = stored(&h, &chat).await;
    assert_eq!(
        late.arena_games.len(),
        record.arena_games.len(),
        "no pairing"
    );
    assert_arena_invariants(&late, false);

    // The end: the tick ends it with the standings frozen; a game still being played is
    // played out but does not count.
    let still = playing(&late);
    assert_eq!(still.len(), 1);
    h.advance(Duration::from_secs(90));
    h.deliver().await;
    h.delivered.clear();
    h.tick().await;
    h.tick().await;
    let posted = h.deliver().await;
    let record = stored(&h, &chat).await;
    assert_eq!(record.state, TournamentState::Finished);
    let finals: Vec<jieqi_service::Message> = notices_with(&h, &chat, "The tournament is over")
        .into_iter()
        .cloned()
        .collect();
    assert_eq!(finals.len(), 1, "the final post, once: {posted:#?}");
    // The leaders by points, then wins, then fewer games.
    let scores = lichess_scores(&record);
    let best = scores
        .iter()
        .map(|&(points, wins, games)| (points, wins, std::cmp::Reverse(games)))
        .max()
        .expect("players");
    let leaders: Vec<&str> = (0..scores.len())
        .filter(|&i| (scores[i].0, scores[i].1, std::cmp::Reverse(scores[i].2)) == best)
        .map(|i| record.players[i].user.name.as_str())
        .collect();
    let named = if leaders.len() == 1 {
        format!("The winner: {}!", leaders[0])
    } else {
        format!("Shared first place: {}!", leaders.join(", "))
    };
    assert!(
        finals[0].text.contains(&named),
        "{named} in {}",
        finals[0].text
    );
    let standings = h.say(&cy, &chat, "/tournament standings").await;
    for (i, player) in record.players.iter().enumerate() {
        assert!(
            standings.replies[0]
                .text
                .contains(&format!("{} {}", player.user.name, scores[i].0))
                || scores[i].0 < best.0,
            "{}: {:?} in {}",
            player.user.name,
            scores[i],
            standings.replies[0].text
        );
    }
    assert!(
        finals[0]
            .image
            .as_ref()
            .is_some_and(|i| i.bytes.starts_with(b"\x89PNG"))
    );
    assert!(
        finals[0]
            .text
            .contains("1 game still being played does not count"),
        "{}",
        finals[0].text
    );
    play_out(&mut h, &chat, &record, &still[0], End::RedWins).await;
    let after = stored(&h, &chat).await;
    assert_eq!(after.arena_game(&still[0].game).and_then(|g| g.score), None);
    assert_eq!(after.revision, record.revision, "the arena is not touched");
    assert!(refusal(&h.say(&bob, &chat, "/tournament join").await).contains("is over"));

    // Its games' PGN name the event, and no round.
    let game = record.arena_games[0].game.clone();
    let history = h.say(&ann, &chat, &format!("/history {game}")).await;
    let pgn = history
        .replies
        .iter()
        .filter_map(|r| r.image.as_ref())
        .find(|i| i.file_name.ends_with(".pgn"))
        .expect("a PGN");
    let text = String::from_utf8_lossy(&pgn.bytes);
    assert!(
        text.contains(&format!("[Event \"jieqi-bot tournament {id}\"]")),
        "{text}"
    );
    assert!(text.contains("[Round \"-\"]"), "{text}");
}

#[tokio::test]
async fn a_late_entry_is_paired_at_once_and_a_player_who_left_may_come_back() {
    let mut h = Harness::new(DealSource::Seeded(71)).await;
    let chat = group("club");
    let [ann, bob, cy] = <[User; 3]>::try_from(players(&["ann", "bob", "cy"])).expect("three");
    h.say(&ann, &chat, "/tournament arena 30 xiangqi 1d").await;
    assert!(refusal(&h.say(&ann, &chat, "/tournament start").await).contains("at least 2"));
    let before = h.say(&bob, &chat, "/tournament standings").await;
    assert!(
        before.replies[0].text.contains("has not started"),
        "{before:#?}"
    );
    for player in [&ann, &bob] {
        h.say(player, &chat, "/tournament join").await;
    }
    not_refused(&h.say(&ann, &chat, "/tournament start").await);
    let record = stored(&h, &chat).await;
    assert_eq!(record.arena_games.len(), 1);
    // ann and bob finish; they just met, so they wait.
    play_out(&mut h, &chat, &record, &record.arena_games[0], End::Draw).await;
    let record = stored(&h, &chat).await;
    assert_eq!(playing(&record).len(), 0);
    // cy joins late and is paired at once with one of them.
    not_refused(&h.say(&cy, &chat, "/tournament join").await);
    let record = stored(&h, &chat).await;
    assert_eq!(playing(&record).len(), 1);
    let c = record.player_index(&cy.id).expect("cy in");
    assert!(
        playing(&record)
            .iter()
            .any(|g| usize::from(g.first) == c || usize::from(g.second) == c)
    );
    // cy leaves, finishes her game, and comes back: paired again.
    not_refused(&h.say(&cy, &chat, "/tournament leave").await);
    let game = playing(&record)[0].clone();
    play_out(&mut h, &chat, &record, &game, End::RedWins).await;
    let record = stored(&h, &chat).await;
    assert_eq!(playing(&record).len(), 0, "cy left; the other two just met");
    not_refused(&h.say(&cy, &chat, "/tournament join").await);
    let record = stored(&h, &chat).await;
    assert!(!record.players[c].withdrawn);
    assert_eq!(playing(&record).len(), 1, "back and paired");
    h.deliver().await;
    assert_eq!(notices_with(&h, &chat, "is back in the arena").len(), 1);
}

#[tokio::test]
async fn an_absent_player_forfeits_the_win_to_the_other_and_is_withdrawn() {
    let mut h = Harness::new(DealSource::Seeded(72)).await;
    let chat = group("club");
    let [ann, zed] = <[User; 2]>::try_from(players(&["ann", "zed"])).expect("two");
    h.say(&ann, &chat, "/tournament arena 20 xiangqi 1+0").await;
    for player in [&ann, &zed] {
        h.say(player, &chat, "/tournament join").await;
    }
    not_refused(&h.say(&ann, &chat, "/tournament start").await);
    let record = stored(&h, &chat).await;
    let game = record.arena_games[0].clone();
    let z = record.player_index(&zed.id).expect("zed in");
    // ann makes her first move if she has red; zed never moves.
    if usize::from(game.second) == z {
        not_refused(
            &h.say(&ann, &chat, &format!("/move {} h2e2", game.game))
                .await,
        );
    }
    h.advance(Duration::from_secs(31));
    h.tick().await;
    let record = stored(&h, &chat).await;
    let score = record.arena_game(&game.game).and_then(|g| g.score);
    let expected = if usize::from(game.first) == z {
        StoredScore::ForfeitLoss
    } else {
        StoredScore::ForfeitWin
    };
    assert_eq!(score, Some(expected));
    assert!(
        record.players[z].withdrawn,
        "withdrawn at the first forfeit"
    );
    let posted = h.deliver().await;
    assert!(
        private_to(&posted, &zed)
            .iter()
            .any(|m| m.text.contains("Join again")),
        "zed is told privately how to come back"
    );
    let standings = h.say(&ann, &chat, "/tournament standings").await;
    assert!(
        standings.replies[0].text.contains("1. ann 2"),
        "{standings:#?}"
    );
}

#[tokio::test]
async fn a_game_end_delivered_twice_scores_and_pairs_once() {
    let mut h = Harness::new(DealSource::Seeded(73)).await;
    let chat = group("club");
    let field = players(&["ann", "bob", "cy", "di"]);
    h.say(&field[0], &chat, "/tournament arena 30 xiangqi 1d")
        .await;
    for player in &field {
        h.say(player, &chat, "/tournament join").await;
    }
    not_refused(&h.say(&field[0], &chat, "/tournament start").await);
    let record = stored(&h, &chat).await;
    let game = record.arena_games[0].clone();
    let red = record.players[usize::from(game.first)].user.clone();
    let black = record.players[usize::from(game.second)].user.clone();
    let id = game.game.as_str();
    h.say(&red, &chat, &format!("/move {id} h2e2")).await;
    h.say(&black, &chat, &format!("/move {id} h9g7")).await;
    h.say(&red, &chat, &format!("/resign {id}")).await;
    let confirm = h.request(
        &red,
        &chat,
        Input::Text(format!("/resign {id}")),
        Vec::new(),
    );
    let first = h.service.handle(confirm.clone()).await;
    let after = stored(&h, &chat).await;
    let again = h.service.handle(confirm).await;
    assert_eq!(first, again, "the repeat gets the same answer");
    assert_eq!(stored(&h, &chat).await, after, "and changes nothing");
    assert_eq!(
        after.arena_game(&game.game).and_then(|g| g.score),
        Some(StoredScore::Loss)
    );
}

#[tokio::test]
async fn two_processes_ending_two_games_at_once_pair_each_player_once() {
    let mut h = Harness::new(DealSource::Seeded(74)).await;
    let chat = group("club");
    let field = players(&["ann", "bob", "cy", "di"]);
    h.say(&field[0], &chat, "/tournament arena 30 xiangqi 1d")
        .await;
    for player in &field {
        h.say(player, &chat, "/tournament join").await;
    }
    not_refused(&h.say(&field[0], &chat, "/tournament start").await);
    let record = stored(&h, &chat).await;
    assert_eq!(record.arena_games.len(), 2);
    let mut confirmations = Vec::new();
    for game in &record.arena_games {
        let red = record.players[usize::from(game.first)].user.clone();
        let black = record.players[usize::from(game.second)].user.clone();
        let id = game.game.as_str();
        h.say(&red, &chat, &format!("/move {id} h2e2")).await;
        h.say(&black, &chat, &format!("/move {id} h9g7")).await;
        h.say(&red, &chat, &format!("/resign {id}")).await;
        confirmations.push(h.request(
            &red,
            &chat,
            Input::Text(format!("/resign {id}")),
            Vec::new(),
        ));
    }
    h.deliver().await;
    h.delivered.clear();
    let other = h.another_process(None).await;
    let second = confirmations.pop().expect("two");
    let first = confirmations.pop().expect("two");
    let (a, b) = tokio::join!(h.service.handle(first), other.handle(second));
    for answer in [&a, &b] {
        not_refused(answer);
    }
    let record = stored(&h, &chat).await;
    assert!(
        record.arena_games[..2].iter().all(|g| g.score.is_some()),
        "both results counted: {record:?}"
    );
    // Four players free, none against their last opponent: two new games, each player in
    // exactly one.
    assert_eq!(record.arena_games.len(), 4, "{:?}", record.arena_games);
    let mut seats: Vec<u16> = playing(&record)
        .iter()
        .flat_map(|g| [g.first, g.second])
        .collect();
    seats.sort_unstable();
    assert_eq!(seats, vec![0, 1, 2, 3]);
    assert_arena_invariants(&record, true);
    h.deliver().await;
    assert_eq!(
        of_kind(&h.delivered, MessageKind::GameStarted).len(),
        4,
        "two games, each player told once"
    );
}

#[tokio::test]
async fn an_arena_in_which_no_game_ended_in_time_names_no_winner() {
    let mut h = Harness::new(DealSource::Seeded(74)).await;
    let chat = group("club");
    let [ann, bob] = <[User; 2]>::try_from(players(&["ann", "bob"])).expect("two");
    not_refused(&h.say(&ann, &chat, "/tournament arena 1 xiangqi 1d").await);
    for player in [&ann, &bob] {
        not_refused(&h.say(player, &chat, "/tournament join").await);
    }
    not_refused(&h.say(&ann, &chat, "/tournament start").await);
    assert_eq!(
        playing(&stored(&h, &chat).await).len(),
        1,
        "the two are paired"
    );

    // The minute passes with their game still being played: nothing counted.
    h.advance(Duration::from_secs(61));
    h.tick().await;
    h.deliver().await;
    assert_eq!(stored(&h, &chat).await.state, TournamentState::Finished);
    let finals = notices_with(&h, &chat, "The tournament is over");
    assert_eq!(finals.len(), 1, "one final post");
    assert!(
        finals[0]
            .text
            .contains("No game ended in time: nobody won."),
        "{}",
        finals[0].text
    );
    assert!(
        !finals[0].text.contains("first place"),
        "{}",
        finals[0].text
    );
}
