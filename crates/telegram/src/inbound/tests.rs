use super::*;
use serde_json::{Value, json};

const NOW: u64 = 1_700_000_100;

fn me() -> Me {
    serde_json::from_value(json!({
        "id": 999, "is_bot": true, "first_name": "Jieqi", "username": "JieqiBot",
        "can_join_groups": true, "can_read_all_group_messages": false,
        "supports_inline_queries": false, "has_main_web_app": false
    }))
    .unwrap()
}

fn user(id: i64, first: &str, username: Option<&str>) -> Value {
    let mut u = json!({"id": id, "is_bot": false, "first_name": first, "language_code": "vi"});
    if let Some(name) = username {
        u["username"] = json!(name);
    }
    u
}

fn group() -> Value {
    json!({"id": -100_555, "type": "supergroup", "title": "Xiangqi club", "is_forum": true})
}

fn message(update_id: u32, text: &str, extra: Value) -> Update {
    let mut message = json!({
        "message_id": 10, "date": 1_700_000_000, "chat": group(),
        "from": user(1, "Ann", Some("ann")), "text": text
    });
    if let (Some(m), Some(e)) = (message.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            m.insert(k.clone(), v.clone());
        }
    }
    update(json!({"update_id": update_id, "message": message}))
}

/// Through text, as teloxide reads updates off the wire (its `Update` does not deserialize
/// from a `serde_json::Value`).
fn update(value: Value) -> Update {
    serde_json::from_str(&value.to_string()).unwrap()
}

fn read(update: &Update, people: &People) -> Reading {
    read_update(update, &me(), people, UNIX_EPOCH + Duration::from_secs(NOW))
}

fn request(reading: Reading) -> Inbound {
    match reading {
        Reading::Request(inbound) => *inbound,
        other => panic!("expected a request, got {other:?}"),
    }
}

#[test]
fn a_command_becomes_a_request_keyed_by_the_update_id() {
    let inbound = request(read(
        &message(42, "/move h2e2", json!({})),
        &People::default(),
    ));
    let r = &inbound.request;
    assert_eq!(r.key, IdempotencyKey("42".to_owned()));
    assert_eq!(r.chat.to_string(), "telegram:-100555");
    assert!(!r.is_private_chat);
    assert_eq!(r.user.name, "@ann");
    assert_eq!(r.user.id.to_string(), "telegram:1");
    assert_eq!(r.user.language.as_deref(), Some("vi"));
    assert_eq!(r.input, Input::Text("/move h2e2".to_owned()));
    assert_eq!(
        r.received_at,
        UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    );
    assert!(matches!(
        inbound.origin,
        Origin::Command {
            message: MessageId(10),
            ..
        }
    ));
}

#[test]
fn commands_for_this_bot_lose_the_suffix_and_others_pass_by() {
    assert_eq!(
        command_for_us("/move@JieqiBot h2e2", Some("JieqiBot")).as_deref(),
        Some("/move h2e2")
    );
    assert_eq!(
        command_for_us("/board@jieqibot", Some("JieqiBot")).as_deref(),
        Some("/board")
    );
    assert_eq!(
        command_for_us("/move@OtherBot h2e2", Some("JieqiBot")),
        None
    );
    assert_eq!(command_for_us("good move!", Some("JieqiBot")), None);
    assert_eq!(command_for_us("/@JieqiBot", Some("JieqiBot")), None);
    assert!(matches!(
        read(
            &message(1, "/move@OtherBot h2e2", json!({})),
            &People::default()
        ),
        Reading::Ignore
    ));
    assert!(matches!(
        read(&message(1, "nice one", json!({})), &People::default()),
        Reading::Ignore
    ));
}

#[test]
fn challenge_as_a_reply_names_the_author_of_the_replied_message() {
    let reply = json!({"reply_to_message": {
        "message_id": 7, "date": 1_699_999_000, "chat": group(),
        "from": user(2, "Bob", None), "text": "anyone for a game?"
    }});
    let inbound = request(read(
        &message(5, "/challenge jieqi", reply),
        &People::default(),
    ));
    assert_eq!(inbound.request.mentioned.len(), 1);
    assert_eq!(inbound.request.mentioned[0].name, "Bob");
    assert_eq!(inbound.request.mentioned[0].id.to_string(), "telegram:2");
}

#[test]
fn a_topic_message_answers_in_its_topic_and_the_topic_root_is_no_reply() {
    let topic = json!({
        "message_thread_id": 3, "is_topic_message": true,
        "reply_to_message": {
            "message_id": 3, "date": 1_699_999_000, "chat": group(),
            "from": user(2, "Bob", None),
            "forum_topic_created": {"name": "Games", "icon_color": 7_322_096}
        }
    });
    let inbound = request(read(&message(6, "/challenge", topic), &People::default()));
    assert_eq!(inbound.request.chat.to_string(), "telegram:-100555/3");
    assert!(inbound.request.mentioned.is_empty());
}

/// From a `telegram_update` fuzz finding (its check was too strict, not the code): the bot's
/// name in the arguments is the user's text and stays; only the head's addressee goes.
#[test]
fn the_bots_name_in_the_arguments_stays_and_only_the_heads_addressee_goes() {
    assert_eq!(
        command_for_us("/challenge @@JieqiBot i red 1h", Some("JieqiBot")).as_deref(),
        Some("/challenge @@JieqiBot i red 1h")
    );
    assert_eq!(
        command_for_us("/challenge@JieqiBot @bob", Some("JieqiBot")).as_deref(),
        Some("/challenge @bob")
    );
    assert_eq!(
        command_for_us("/challenge@OtherBot @bob", Some("JieqiBot")),
        None
    );
}

/// Found by the `telegram_update` fuzz target: a mention entity past the end of the text.
#[test]
fn a_mention_entity_past_the_text_is_ignored_not_panicked_on() {
    let people = People::default();
    let inbound = request(read(
        &message(
            2,
            "/challenge @bob xiangqi red 1h",
            json!({"entities": [
                {"type": "bot_command", "offset": 0, "length": 10},
                {"type": "mention", "offset": 62, "length": 4}
            ]}),
        ),
        &people,
    ));
    assert!(inbound.request.mentioned.is_empty());
    assert_eq!(
        inbound.request.input,
        Input::Text("/challenge @bob xiangqi red 1h".to_owned())
    );
}

/// Found by the `telegram_update` fuzz target: a picked person's span over the command's head
/// cut the command (`/challenge Bob Smith` became ` e Bob Smith`). Such a span is not a
/// mention of an argument: the line stays whole and nobody is taken as mentioned.
#[test]
fn a_picked_persons_span_over_the_command_leaves_the_command_whole() {
    let people = People::default();
    let inbound = request(read(
        &message(
            1,
            "/challenge Bob Smith jieqi",
            json!({"entities": [
                {"type": "bot_command", "offset": 0, "length": 10},
                {"type": "text_mention", "offset": 0, "length": 9,
                 "user": user(2, "Bob", None)}
            ]}),
        ),
        &people,
    ));
    assert_eq!(
        inbound.request.input,
        Input::Text("/challenge Bob Smith jieqi".to_owned())
    );
    assert!(inbound.request.mentioned.is_empty());
}

#[test]
fn a_known_username_and_a_picked_person_are_resolved() {
    let people = People::default();
    // Bob wrote before, so his @username is known.
    request(read(
        &update(json!({"update_id": 1, "message": {
            "message_id": 1, "date": 1_700_000_000, "chat": group(),
            "from": user(2, "Bob", Some("bob")), "text": "/games"
        }})),
        &people,
    ));
    let inbound = request(read(
        &message(
            2,
            "/challenge @bob red",
            json!({"entities": [{"type": "mention", "offset": 11, "length": 4}]}),
        ),
        &people,
    ));
    assert_eq!(inbound.request.mentioned[0].name, "@bob");
    assert!(inbound.request.mentioned[0].answers_to("@bob"));
    // Carol has no username: the client inserts her name as a text mention.
    let inbound = request(read(
        &message(
            3,
            "/challenge Carol Li black",
            json!({"entities": [{"type": "text_mention", "offset": 11, "length": 8, "user": user(3, "Carol", None)}]}),
        ),
        &people,
    ));
    assert_eq!(
        inbound.request.input,
        Input::Text("/challenge   black".to_owned())
    );
    assert_eq!(inbound.request.mentioned[0].id.to_string(), "telegram:3");
}

#[test]
fn a_button_press_carries_its_action_and_the_chat_of_its_message() {
    let update = update(json!({"update_id": 9, "callback_query": {
        "id": "cbq1", "from": user(2, "Bob", None), "chat_instance": "ci", "data": "res_g7k2",
        "message": {"message_id": 50, "date": 1_700_000_000, "chat": group(),
                    "from": {"id": 999, "is_bot": true, "first_name": "Jieqi", "username": "JieqiBot"},
                    "caption": "Game g7k2"}
    }}));
    let inbound = request(read(&update, &People::default()));
    assert_eq!(
        inbound.request.input,
        Input::Button(ButtonAction::Resign("g7k2".parse().unwrap()))
    );
    assert_eq!(inbound.request.chat.to_string(), "telegram:-100555");
    assert_eq!(
        inbound.request.received_at,
        UNIX_EPOCH + Duration::from_secs(NOW)
    );
    assert!(matches!(inbound.origin, Origin::Button { .. }));
}

#[test]
fn a_button_that_is_not_ours_is_answered_not_handled() {
    let update = update(json!({"update_id": 9, "callback_query": {
        "id": "cbq2", "from": user(2, "Bob", None), "chat_instance": "ci", "data": "vote_42",
        "message": {"message_id": 50, "date": 1_700_000_000, "chat": group(), "text": "poll"}
    }}));
    match read(&update, &People::default()) {
        Reading::ForeignButton { query, language } => {
            assert_eq!(query.0, "cbq2");
            assert_eq!(
                language,
                Some(Language::Vi),
                "the presser's client language"
            );
        }
        other => panic!("expected a foreign button, got {other:?}"),
    }
}

#[test]
fn messages_from_bots_are_ignored() {
    let update = update(json!({"update_id": 4, "message": {
        "message_id": 1, "date": 1_700_000_000, "chat": group(),
        "from": {"id": 77, "is_bot": true, "first_name": "Other"}, "text": "/challenge"
    }}));
    assert!(matches!(read(&update, &People::default()), Reading::Ignore));
}

#[test]
fn an_edited_command_is_read_as_a_new_request_with_its_own_key() {
    let edited = update(json!({"update_id": 43, "edited_message": {
        "message_id": 10, "date": 1_700_000_000, "edit_date": 1_700_000_050, "chat": group(),
        "from": user(1, "Ann", Some("ann")), "text": "/move h2e2"
    }}));
    let inbound = request(read(&edited, &People::default()));
    assert_eq!(inbound.request.key, IdempotencyKey("43".to_owned()));
    assert_eq!(inbound.request.input, Input::Text("/move h2e2".to_owned()));
    assert_eq!(
        inbound.request.received_at,
        UNIX_EPOCH + Duration::from_secs(1_700_000_050),
        "it counts from the edit"
    );
    assert!(matches!(
        inbound.origin,
        Origin::Command {
            message: MessageId(10),
            ..
        }
    ));
    let chat_edit = update(json!({"update_id": 44, "edited_message": {
        "message_id": 11, "date": 1_700_000_000, "edit_date": 1_700_000_050, "chat": group(),
        "from": user(1, "Ann", Some("ann")), "text": "typo fixed"
    }}));
    assert!(matches!(
        read(&chat_edit, &People::default()),
        Reading::Ignore
    ));
}

#[test]
fn an_update_read_from_its_json_is_the_request_the_adapter_makes() {
    let json = json!({"update_id": 7, "message": {
        "message_id": 10, "date": 1_700_000_000, "chat": group(),
        "from": user(1, "Ann", Some("ann")), "text": "/move@JieqiBot h2e2"
    }});
    let now = UNIX_EPOCH + Duration::from_secs(NOW);
    let request = request_from_update_json(json.to_string().as_bytes(), "JieqiBot", now)
        .expect("an update")
        .expect("a request");
    assert_eq!(request.key.0, "7");
    assert_eq!(request.input, Input::Text("/move h2e2".into()));
    let other_bot = json.to_string().replace("JieqiBot", "OtherBot");
    let ignored = request_from_update_json(other_bot.as_bytes(), "JieqiBot", now);
    assert!(ignored.expect("an update").is_none());
    assert!(request_from_update_json(b"{\"update_id\": ", "JieqiBot", now).is_err());
}

/// The fuzz target's seeds are updates as Telegram sends them: each reads, none is refused by
/// serde, and the commands among them become requests.
#[test]
fn the_fuzz_seeds_are_updates_telegram_would_send() {
    let seeds = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/telegram_update"
    );
    let now = UNIX_EPOCH + Duration::from_secs(NOW);
    let mut requests = 0;
    for entry in std::fs::read_dir(seeds).expect("the seeds folder") {
        let path = entry.expect("a seed").path();
        let json = std::fs::read(&path).expect("a seed file");
        match request_from_update_json(&json, "JieqiBot", now) {
            Ok(request) => requests += usize::from(request.is_some()),
            Err(error) => panic!("{}: {error}", path.display()),
        }
    }
    assert!(requests >= 7, "{requests} seeds became requests");
}
