//! A whole Jieqi game through `handle`: deal commitment, private reveals, draw offers,
//! resignation and the proof; and the hidden-information promise checked by playing the same
//! public history with two deals.

use super::common;

use common::*;
use jieqi_service::fairness::commitment;
use jieqi_service::{ButtonAction, DealSource, Destination, Message, MessageKind, OutboxEntry};

/// Red's covered piece on h2 is really a chariot, Black's on h9 really a cannon.
const DEAL: &str = "rheaaecrhcpppppPPPPPCRCHEAAEHR";
/// The same public history: Black's h9 and a9 pieces (never revealed) swapped.
const OTHER_DEAL: &str = "cheaaerrhcpppppPPPPPCRCHEAAEHR";

/// Plays the opening both tests share; returns every message delivered.
async fn opening(h: &mut Harness) -> Vec<OutboxEntry> {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    h.start_game(&alice, &bob, &chat, "jieqi red").await;
    // The covered "cannon" on h2 jumps the covered piece on h7 and takes the one on h9.
    for (who, text) in [
        (&alice, "/move h2h9"),
        (&bob, "/move i9h9"),
        (&alice, "/move C8.5"),
        (&bob, "/move b9c7"),
    ] {
        let answer = h.say(who, &chat, text).await;
        assert!(answer.replies.is_empty(), "{text}: {answer:#?}");
    }
    h.deliver().await;
    h.delivered.clone()
}

fn public(entries: &[OutboxEntry]) -> Vec<&Message> {
    entries
        .iter()
        .map(|e| &e.message)
        .filter(|m| matches!(m.to, Destination::Chat(_)))
        .collect()
}

fn hex64(text: &str) -> Option<&str> {
    text.split(|c: char| !c.is_ascii_hexdigit())
        .find(|w| w.len() == 64)
}

#[tokio::test]
async fn jieqi_game_with_a_private_reveal_a_draw_offer_and_a_resignation() {
    let mut h = Harness::new(DealSource::Scripted {
        seed: 7,
        deals: vec![DEAL.to_owned()],
    })
    .await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-100");
    let all = opening(&mut h).await;

    // The first board carries the commitment; both players were told reveals come by DM.
    let boards: Vec<&Message> = of_kind(&all, MessageKind::Board);
    let first = boards[0];
    let committed = hex64(&first.text)
        .expect("commitment on the first board")
        .to_owned();
    for player in [&alice, &bob] {
        let dms = private_to(&all, player);
        assert_eq!(dms[0].kind, MessageKind::GameStarted);
        assert!(dms[0].text.contains("privately"), "{}", dms[0].text);
    }

    // Alice alone learns what she captured, with her private picture.
    let reveals = of_kind(&all, MessageKind::Reveal);
    assert_eq!(reveals.len(), 1);
    assert_eq!(reveals[0].to, Destination::Private(alice.id.clone()));
    assert!(
        reveals[0].text.contains("was a Black cannon"),
        "{}",
        reveals[0].text
    );
    assert!(reveals[0].image.is_some());
    assert_eq!(private_to(&all, &bob).len(), 1, "bob only got the start DM");
    // The public board after that move shows the reveal of the mover, never the capture.
    let after_capture = boards
        .iter()
        .find(|m| m.text.contains("1. ") && m.replaces.is_none())
        .expect("board after move 1");
    assert!(
        after_capture.text.contains("h2h9r"),
        "{}",
        after_capture.text
    );
    for message in public(&all) {
        assert!(
            !message.text.to_lowercase().contains("cannon"),
            "{}",
            message.text
        );
    }

    // Spectators get refused; the player may peek privately.
    let answer = h.say(&carol, &chat, "/move a6a5").await;
    assert!(refusal(&answer).contains("not a player"));
    let answer = h.say(&alice, &chat, "/peek").await;
    assert_eq!(answer.replies[0].kind, MessageKind::Notice);
    let out = h.deliver().await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].message.to, Destination::Private(alice.id.clone()));
    assert_eq!(out[0].message.kind, MessageKind::Peek);

    // A draw offer, declined by a move.
    let answer = h.say(&alice, &chat, "/draw").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    let offer = &out[0].message;
    assert_eq!(offer.kind, MessageKind::DrawOffer);
    assert_eq!(offer.mentions, vec![bob.id.clone()]);
    assert_eq!(offer.buttons.len(), 1);
    let answer = h.say(&alice, &chat, "/draw").await;
    assert!(refusal(&answer).contains("already offered"));
    let answer = h.say(&alice, &chat, "/move a3a4").await;
    assert!(answer.replies.is_empty());
    h.deliver().await;
    let answer = h.say(&bob, &chat, "/move a6a5").await;
    assert!(answer.replies.is_empty());
    let out = h.deliver().await;
    let lapsed = of_kind(&out, MessageKind::DrawOffer);
    assert_eq!(lapsed.len(), 1);
    assert!(lapsed[0].buttons.is_empty() && lapsed[0].replaces.is_some());
    assert!(
        lapsed[0].text.contains("declined by a move"),
        "{}",
        lapsed[0].text
    );

    // Bob resigns with the button on the board, and confirms with the button it answers.
    let game = first.game.clone().unwrap();
    let answer = h
        .press(&bob, &chat, ButtonAction::Resign(game.clone()))
        .await;
    assert_eq!(answer.replies.len(), 1, "{answer:#?}");
    assert_eq!(
        answer.replies[0].buttons[0].action,
        ButtonAction::ResignConfirm(game.clone())
    );
    let answer = h
        .press(&bob, &chat, ButtonAction::ResignConfirm(game))
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result)[0];
    assert!(
        result
            .text
            .contains("alice (Red) wins: the opponent resigned"),
        "{}",
        result.text
    );
    assert!(result.text.contains(DEAL), "{}", result.text);
    let salt = result
        .text
        .split("salt ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_hexdigit()).next())
        .expect("salt in the result");
    assert_eq!(commitment(DEAL, salt), committed);
    assert!(result.text.contains(&committed));
    let record = of_kind(&out, MessageKind::History)[0];
    assert!(
        record.text.contains("1. h2h9r i9h9r 2. b2e2c b9c7"),
        "{}",
        record.text
    );
    // The last board lost its buttons.
    let stripped = of_kind(&out, MessageKind::Board);
    assert_eq!(stripped.len(), 1);
    assert!(stripped[0].buttons.is_empty() && stripped[0].replaces.is_some());

    // /history of the finished game: full record, deal, a GIF and the PGN.
    let answer = h.say(&carol, &chat, "/history").await;
    assert_eq!(answer.replies.len(), 3, "{answer:#?}");
    let pgn = answer.replies[2].image.as_ref().expect("pgn");
    assert!(pgn.file_name.ends_with(".pgn"), "{}", pgn.file_name);
    assert!(
        String::from_utf8_lossy(&pgn.bytes).contains(&format!("[Deal \"{DEAL}\"]")),
        "the PGN carries the deal"
    );
    assert!(answer.replies[0].text.contains(DEAL));
    let gif = answer.replies[1].image.as_ref().expect("gif");
    assert!(gif.bytes.starts_with(b"GIF8"), "a GIF");
    assert!(
        jieqi_service::i18n::missing_keys().is_empty(),
        "{:?}",
        jieqi_service::i18n::missing_keys()
    );
}

#[tokio::test]
async fn two_deals_with_the_same_public_history_give_identical_public_messages() {
    let mut one = Harness::new(DealSource::Scripted {
        seed: 7,
        deals: vec![DEAL.to_owned()],
    })
    .await;
    let mut two = Harness::new(DealSource::Scripted {
        seed: 7,
        deals: vec![OTHER_DEAL.to_owned()],
    })
    .await;
    let a = opening(&mut one).await;
    let b = opening(&mut two).await;
    let (a, b) = (public(&a), public(&b));
    assert_eq!(a.len(), b.len());
    let mut compared_images = 0;
    for (x, y) in a.iter().zip(&b) {
        let normalize = |m: &Message| match hex64(&m.text) {
            Some(hex) => m.text.replace(hex, "<commitment>"),
            None => m.text.clone(),
        };
        assert_eq!(normalize(x), normalize(y));
        assert_eq!(
            x.image, y.image,
            "public pictures must not depend on the deal"
        );
        assert_eq!(
            (&x.buttons, &x.mentions, x.kind),
            (&y.buttons, &y.mentions, y.kind)
        );
        compared_images += usize::from(x.image.is_some());
    }
    assert!(compared_images >= 5);
    // The private reveal does differ: it is what Alice alone may know.
    let reveal = |h: &Harness| of_kind(&h.delivered, MessageKind::Reveal)[0].text.clone();
    assert_ne!(reveal(&one), reveal(&two));
}
