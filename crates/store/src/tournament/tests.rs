use super::*;

fn bytes_of(record: &TournamentRecord) -> Vec<u8> {
    postcard::to_extend(record, vec![TOURNAMENT_SCHEMA]).expect("encoded")
}

#[test]
fn a_tournament_reads_back_as_written() {
    let record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    let bytes = encode_tournament(&record).expect("encoded");
    assert_eq!(bytes[0], TOURNAMENT_SCHEMA);
    assert_eq!(decode_tournament(&bytes), Ok(record));
}

#[test]
fn the_announcements_post_reads_back() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.announcement = Some(OutboxId(77));
    let bytes = encode_tournament(&record).expect("encoded");
    assert_eq!(decode_tournament(&bytes), Ok(record));
}

#[test]
fn a_game_its_two_players_read_differently_is_refused() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    // cy says she moved first too.
    record.players[2].entries[0] = StoredEntry::Game {
        opponent: 0,
        first: true,
        score: None,
    };
    let refused = decode_tournament(&bytes_of(&record));
    assert!(
        matches!(&refused, Err(StoreError::Corrupt(why)) if why.contains("differently")),
        "{refused:?}"
    );
    assert!(encode_tournament(&record).is_err(), "not written either");
}

#[test]
fn an_opponent_outside_the_event_is_refused() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.players[0].entries[0] = StoredEntry::Game {
        opponent: 9,
        first: true,
        score: None,
    };
    assert!(matches!(
        decode_tournament(&bytes_of(&record)),
        Err(StoreError::Corrupt(_))
    ));
}

#[test]
fn more_rounds_than_planned_or_entries_than_rounds_are_refused() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.round = 4;
    assert!(decode_tournament(&bytes_of(&record)).is_err(), "4 of 3");
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.players[1]
        .entries
        .push(StoredEntry::Bye(StoredBye::Zero));
    assert!(decode_tournament(&bytes_of(&record)).is_err(), "2 entries");
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.state = TournamentState::Open;
    assert!(
        decode_tournament(&bytes_of(&record)).is_err(),
        "paired, open"
    );
}

#[test]
fn a_game_that_is_not_its_rounds_pairing_is_refused() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.games[1].first = 1;
    record.games[1].second = 3;
    assert!(decode_tournament(&bytes_of(&record)).is_err());
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.games[0].round = 2;
    assert!(decode_tournament(&bytes_of(&record)).is_err());
}

#[test]
fn a_player_entered_twice_or_a_bad_control_is_refused() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.players[3].user.id = record.players[0].user.id.clone();
    assert!(decode_tournament(&bytes_of(&record)).is_err());
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.control = Some("soon".to_owned());
    assert!(decode_tournament(&bytes_of(&record)).is_err());
}

#[test]
fn a_newer_version_is_refused_as_too_new_and_garbage_as_corrupt() {
    let record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    let mut bytes = encode_tournament(&record).expect("encoded");
    bytes[0] = TOURNAMENT_SCHEMA + 1;
    assert!(matches!(
        decode_tournament(&bytes),
        Err(StoreError::TooNew { .. })
    ));
    assert!(matches!(
        decode_tournament(&[TOURNAMENT_SCHEMA, 0xff, 0xff]),
        Err(StoreError::Corrupt(_))
    ));
    assert!(matches!(
        decode_tournament(&[]),
        Err(StoreError::Corrupt(_))
    ));
}

#[test]
fn a_round_robin_plans_a_round_per_opponent_and_cycle() {
    assert_eq!(TournamentFormat::RoundRobin { cycles: 1 }.rounds(6), 5);
    assert_eq!(TournamentFormat::RoundRobin { cycles: 1 }.rounds(5), 5);
    assert_eq!(TournamentFormat::RoundRobin { cycles: 2 }.rounds(4), 6);
    assert_eq!(TournamentFormat::Swiss { rounds: 7 }.rounds(40), 7);
}

#[test]
fn versions_1_to_3_read_with_what_they_lacked_empty() {
    let record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    let mut bytes = encode_tournament(&record).expect("encoded");
    // Version 4 ends with the announcement (`None`), version 3 with the arena's two fields
    // (an empty list and `None`), version 2 with the start time and the byes asked (`None`
    // and an empty list): a zero byte each.
    assert_eq!(bytes[bytes.len() - 5..], [0, 0, 0, 0, 0]);
    bytes.truncate(bytes.len() - 1);
    bytes[0] = 3;
    assert_eq!(decode_tournament(&bytes), Ok(record.clone()));
    bytes.truncate(bytes.len() - 2);
    bytes[0] = 2;
    assert_eq!(decode_tournament(&bytes), Ok(record.clone()));
    bytes.truncate(bytes.len() - 2);
    bytes[0] = 1;
    assert_eq!(decode_tournament(&bytes), Ok(record));
}

#[test]
fn an_arena_reads_back_and_is_due_at_its_end_while_it_runs() {
    let record = arena_example("t4f7k2", 3, ["g7k2", "h3m4"]);
    let bytes = encode_tournament(&record).expect("encoded");
    assert_eq!(decode_tournament(&bytes), Ok(record.clone()));
    assert_eq!(record.due_at(), Some(1_600));
    assert!(record.plays(&"h3m4".parse().unwrap()));
    let mut over = record.clone();
    over.state = TournamentState::Finished;
    assert_eq!(over.due_at(), None);
}

#[test]
fn an_arena_no_pairing_could_reach_is_refused() {
    let refused = |change: &dyn Fn(&mut TournamentRecord), what: &str| {
        let mut record = arena_example("t4f7k2", 3, ["g7k2", "h3m4"]);
        change(&mut record);
        let read = decode_tournament(&bytes_of(&record));
        assert!(
            matches!(read, Err(StoreError::Corrupt(_))),
            "{what}: {read:?}"
        );
        assert!(
            encode_tournament(&record).is_err(),
            "{what}: not written either"
        );
    };
    refused(
        &|r| r.format = TournamentFormat::Arena { minutes: 0 },
        "no minutes",
    );
    refused(
        &|r| r.format = TournamentFormat::Arena { minutes: 1441 },
        "over a day",
    );
    refused(
        &|r| {
            // cy paired again while her game with ann is played.
            let mut again = r.arena_games[1].clone();
            again.second = 1;
            again.game = "k9k9".parse().unwrap();
            r.arena_games.push(again);
        },
        "two games at once",
    );
    refused(
        &|r| r.arena_games[0].second = 0,
        "a player against themself",
    );
    refused(&|r| r.arena_games[0].second = 7, "someone outside it");
    refused(&|r| r.arena_games[1].paired_at = 900, "paired out of order");
    refused(
        &|r| r.arena_games[1].paired_at = 1_700,
        "paired after the end",
    );
    refused(&|r| r.ends_at = None, "running without an end");
    refused(&|r| r.round = 1, "a round in an arena");
    refused(
        &|r| {
            r.format = TournamentFormat::Swiss { rounds: 3 };
        },
        "arena games in a Swiss",
    );
}

#[test]
fn an_open_tournament_is_due_at_its_start_time_and_a_started_one_never() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.starts_at = Some(1_000);
    assert_eq!(record.due_at(), None, "running");
    let mut open = record.clone();
    open.state = TournamentState::Open;
    open.round = 0;
    open.games.clear();
    for player in &mut open.players {
        player.entries.clear();
    }
    assert_eq!(open.due_at(), Some(1_000));
    assert_eq!(
        decode_tournament(&encode_tournament(&open).unwrap()),
        Ok(open)
    );
}

#[test]
fn a_bye_asked_by_someone_outside_the_event_is_refused() {
    let mut record = example("t4f7k2", 3, ["g7k2", "h3m4"]);
    record.byes_asked = vec![4];
    assert!(decode_tournament(&bytes_of(&record)).is_err());
    record.byes_asked = vec![3];
    assert!(decode_tournament(&bytes_of(&record)).is_ok());
}
