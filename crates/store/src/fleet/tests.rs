use jieqi_rules::Variant;
use jieqi_rules::game::{Preset, RULES_REVISION};

use super::*;
use crate::codec::decode;
use crate::codec::older::body;
use crate::ids::{ChatId, Platform, User, UserId};
use crate::message::{Button, DeferredReply};
use crate::message::{ButtonAction, Destination, Message, MessageKind};
use crate::records::{AnswerRecord, ChallengeRecord, GameRecord, ImageRecipe, OutboxRecord};
use crate::records::{BoardMoves, Ending, Seat, StoredReply};
use crate::{ColourChoice, Verdict, commitment};

fn room() -> ChatId {
    ChatId::new(Platform::Telegram, "-42")
}

fn game() -> GameRecord {
    let deal = String::new();
    let salt = "00ff".to_owned();
    GameRecord {
        id: "g7k2".parse().unwrap(),
        revision: 3,
        chat: room(),
        variant: Variant::Xiangqi,
        preset: Preset::Standard,
        first: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        second: User::new(UserId::new(Platform::Telegram, "2"), "bob"),
        commitment: commitment(&deal, &salt),
        deal,
        salt,
        moves: vec!["h2e2".to_owned(), "h9g7".to_owned()],
        ending: None,
        move_time: 60,
        deadline: Some(99),
        draw_offer: None,
        posts: Vec::new(),
        watchers: Vec::new(),
        started_at: 1,
        finished_at: None,
        engine: None,
        prompts: Default::default(),
        rules_revision: RULES_REVISION,
        secret_captures: false,
        verdict: None,
        clock: None,
    }
}

fn button(action: ButtonAction) -> Button {
    Button {
        label: "press".to_owned(),
        action,
        deep_link_accept: false,
    }
}

fn board() -> Message {
    let id: crate::ids::GameId = "g7k2".parse().unwrap();
    Message::text(Destination::Chat(room()), MessageKind::Board, "12. h2e2")
        .about(&id)
        .with_buttons(vec![
            button(ButtonAction::OfferDrawAt(id.clone(), 12)),
            button(ButtonAction::ResignAt(id.clone(), 12)),
            button(ButtonAction::PlayOnBoard(id.clone())),
            button(ButtonAction::Link("https://example.org/g7k2".to_owned())),
        ])
}

#[test]
fn a_fleet_of_this_release_gets_this_releases_bytes() {
    let record = game();
    assert_eq!(
        encode_for(&record, SCHEMA_VERSION).unwrap(),
        encode(&record).unwrap()
    );
}

#[test]
fn a_game_for_the_previous_release_lacks_its_last_three_fields_and_reads_back_the_same() {
    let mut record = game();
    record.ending = Some(Ending::Resigned(Seat::Second));
    record.verdict = Some(Verdict::from(jieqi_rules::Outcome::Win {
        winner: jieqi_rules::Side::Red,
        reason: jieqi_rules::WinReason::Resignation,
    }));
    let current = encode(&record).unwrap();
    let older = encode_for(&record, 4).unwrap();
    assert_eq!(older[0], 4);
    let tail = body(&(
        record.rules_revision,
        record.secret_captures,
        &record.verdict,
    ))
    .unwrap();
    // The last byte is `clock` (none), the three fields before it schema 5's.
    assert_eq!(current.last(), Some(&0));
    assert_eq!(&older[1..], &current[1..current.len() - 1 - tail.len()]);
    // Read back, the verdict is judged again (both have moved: Black's resignation is Red's
    // win) and the rules revision is this release's.
    assert_eq!(decode::<GameRecord>(&older).unwrap(), record);
}

#[test]
fn a_game_for_a_fleet_of_schema_six_lacks_only_its_clock_and_a_clock_waits() {
    let record = game();
    let current = encode(&record).unwrap();
    let older = encode_for(&record, 6).unwrap();
    assert_eq!(older[0], 6);
    assert_eq!(&older[1..], &current[1..current.len() - 1]);
    assert_eq!(decode::<GameRecord>(&older).unwrap(), record);
    let live = GameRecord {
        clock: Some(jieqi_clock::Clock::new("3+2".parse().unwrap())),
        ..record
    };
    for fleet in [4, 6] {
        assert!(matches!(
            encode_for(&live, fleet),
            Err(StoreError::NotYet { needs: 7, .. })
        ));
    }
    assert!(encode_for(&live, since::CLOCKS).is_ok());
}

#[test]
fn secret_captures_wait_for_the_fleet() {
    let mut record = game();
    record.secret_captures = true;
    assert!(matches!(
        encode_for(&record, 4),
        Err(StoreError::NotYet {
            needs: 5,
            fleet: 4,
            ..
        })
    ));
    assert!(encode_for(&record, since::SECRET_CAPTURES).is_ok());
}

#[test]
fn a_challenge_for_the_previous_release_lacks_secret_captures() {
    let record = ChallengeRecord {
        id: "c4f7k".parse().unwrap(),
        revision: 1,
        chat: room(),
        challenger: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        challenged: None,
        variant: Variant::Jieqi,
        preset: Preset::Standard,
        colour: ColourChoice::Random,
        move_time: 60,
        created_at: 1,
        expires_at: 50,
        post: None,
        text: "a challenge".to_owned(),
        secret_captures: false,
        control: None,
    };
    let older = encode_for(&record, 4).unwrap();
    assert_eq!(older.len(), encode(&record).unwrap().len() - 2);
    assert_eq!(decode::<ChallengeRecord>(&older).unwrap(), record);
    let secret = ChallengeRecord {
        secret_captures: true,
        ..record
    };
    assert!(matches!(
        encode_for(&secret, 4),
        Err(StoreError::NotYet { .. })
    ));
}

#[test]
fn a_board_for_the_previous_release_has_its_plain_buttons_and_names_no_moves() {
    let record = OutboxRecord {
        covers: Some(BoardMoves {
            moves: vec!["12. h2e2".to_owned()],
            language: crate::language::Language::En,
            rest: String::new(),
        }),
        ..OutboxRecord::new(board(), 7)
    };
    let read: OutboxRecord = decode(&encode_for(&record, 4).unwrap()).unwrap();
    assert_eq!(read.covers, None);
    let id: crate::ids::GameId = "g7k2".parse().unwrap();
    let actions: Vec<ButtonAction> = read.message.buttons.into_iter().map(|b| b.action).collect();
    assert_eq!(
        actions,
        [
            ButtonAction::OfferDraw(id.clone()),
            ButtonAction::Resign(id)
        ]
    );
    assert_eq!(read.message.text, record.message.text);
}

#[test]
fn what_the_previous_release_cannot_read_is_refused_naming_it() {
    let deferred = Message::text(
        Destination::DeferredReply(DeferredReply {
            chat: room(),
            request: crate::ids::IdempotencyKey("k".to_owned()),
            reply_token: "t".to_owned(),
        }),
        MessageKind::Refusal,
        "not through",
    );
    let stale = Message::text(
        Destination::StaleButtons(room()),
        MessageKind::Board,
        String::new(),
    );
    let buttons_only = Message::text(Destination::Chat(room()), MessageKind::Board, String::new())
        .replacing(Some(crate::message::OutboxId(3)));
    for (message, what) in [
        (deferred, "a deferred reply"),
        (stale, "a stale-button edit"),
        (buttons_only, "an edit of only the buttons"),
    ] {
        let refused = encode_for(&OutboxRecord::new(message.clone(), 1), 4).unwrap_err();
        assert!(refused.to_string().starts_with(what), "{refused}");
        assert!(refused.to_string().contains("version 4"), "{refused}");
        assert!(encode_for(&OutboxRecord::new(message, 1), SCHEMA_VERSION).is_ok());
    }
}

#[test]
fn a_stored_answer_for_the_previous_release_leaves_off_what_it_does_not_know() {
    let id: crate::ids::GameId = "g7k2".parse().unwrap();
    let review = Message::text(Destination::Chat(room()), MessageKind::Review, "a review")
        .with_buttons(vec![button(ButtonAction::Review(id.clone()))]);
    let record = AnswerRecord {
        at: 5,
        replies: vec![StoredReply {
            message: review,
            picture: Some(ImageRecipe::Pgn { game: id }),
        }],
    };
    let read: AnswerRecord = decode(&encode_for(&record, 4).unwrap()).unwrap();
    assert_eq!(read.replies[0].message.kind, MessageKind::Notice);
    assert!(read.replies[0].message.buttons.is_empty());
    assert_eq!(read.replies[0].picture, None);
    assert_eq!(read.replies[0].message.text, "a review");
}

#[test]
fn no_fleet_older_than_the_previous_release_is_written_for() {
    assert!(encode_for(&game(), OLDEST_WRITABLE - 1).is_err());
}

#[test]
fn a_time_out_drawn_against_a_side_that_cannot_mate_waits_for_the_fleet() {
    let mut record = game();
    record.ending = Some(Ending::TimedOut(Seat::First));
    record.verdict = Some(Verdict::from(jieqi_rules::Outcome::Draw(
        jieqi_rules::DrawReason::TimeoutWithoutMatingMaterial,
    )));
    for fleet in [4, 6, 7] {
        assert!(matches!(
            encode_for(&record, fleet),
            Err(StoreError::NotYet { needs: 8, .. })
        ));
    }
    let bytes = encode_for(&record, since::SPEED_RATINGS).unwrap();
    assert_eq!(decode::<GameRecord>(&bytes).unwrap(), record);
}

#[test]
fn a_result_for_a_fleet_before_schema_8_leaves_off_its_rematch_button() {
    let id: crate::ids::GameId = "g7k2".parse().unwrap();
    let result =
        Message::text(Destination::Chat(room()), MessageKind::Result, "1-0").with_buttons(vec![
            button(ButtonAction::Review(id.clone())),
            button(ButtonAction::Rematch(id.clone())),
        ]);
    let record = OutboxRecord::new(result, 1);
    for fleet in [4, 6, 7] {
        let read: OutboxRecord = decode(&encode_for(&record, fleet).unwrap()).unwrap();
        assert!(
            read.message
                .buttons
                .iter()
                .all(|b| !matches!(b.action, ButtonAction::Rematch(_))),
            "fleet {fleet}"
        );
    }
    let read: OutboxRecord = decode(&encode_for(&record, SCHEMA_VERSION).unwrap()).unwrap();
    assert_eq!(read.message.buttons.len(), 2);
}

#[test]
fn a_chat_for_a_fleet_before_schema_9_lacks_its_tournament_settings_and_reads_back_the_same() {
    use crate::records::ChatRecord;
    use crate::settings::ChatSettings;
    let mut chat = ChatRecord::new(
        room(),
        ChatSettings::for_language(crate::language::Language::Vi),
    );
    chat.revision = 4;
    chat.finished = vec!["g7k2".parse().unwrap()];
    for fleet in OLDEST_WRITABLE..since::CHAT_TOURNAMENT_SETTINGS {
        let bytes = encode_for(&chat, fleet).unwrap();
        // Two bytes shorter: the settings' creators (admins) and zone (UTC) left off.
        assert_eq!(
            bytes.len() + 2,
            encode(&chat).unwrap().len(),
            "fleet {fleet}"
        );
        assert_eq!(decode::<ChatRecord>(&bytes).unwrap(), chat, "fleet {fleet}");
    }
}

#[test]
fn a_chat_whose_settings_say_more_than_admins_and_utc_waits_for_the_fleet() {
    use crate::records::ChatRecord;
    use crate::settings::{ChatSettings, TournamentCreators};
    let mut everyone = ChatSettings::for_language(crate::language::Language::En);
    everyone.tournaments = TournamentCreators::Everyone;
    let mut zoned = ChatSettings::for_language(crate::language::Language::Zh);
    zoned.zone = "UTC+8".parse().unwrap();
    for settings in [everyone, zoned] {
        let chat = ChatRecord::new(room(), settings);
        assert!(matches!(
            encode_for(&chat, since::CHAT_TOURNAMENT_SETTINGS - 1),
            Err(crate::StoreError::NotYet { .. })
        ));
        let bytes = encode_for(&chat, since::CHAT_TOURNAMENT_SETTINGS).unwrap();
        assert_eq!(decode::<ChatRecord>(&bytes).unwrap(), chat);
    }
}
