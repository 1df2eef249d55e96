//! The delivery loop: retries with backoff, keeps order within a chat, remembers platform references for
//! edits, and turns an undeliverable private message into a notice in the game's chat.

use super::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use common::*;
use jieqi_service::store::Lane;
use jieqi_service::{
    Answer, ChatId, DealSource, Destination, Input, Language, MessageKind, OutboxEntry, Platform,
    RetryPolicy, SendError, Sender, User, UserId, run_delivery_with,
};
use tokio_util::sync::CancellationToken;

#[derive(Default)]
struct FakeTelegram {
    sent: Mutex<Vec<OutboxEntry>>,
    failures_left: Mutex<u32>,
    closed_dms: Vec<UserId>,
}

#[async_trait]
impl Sender for FakeTelegram {
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        if let Destination::Private(user) = &entry.message.to
            && self.closed_dms.contains(user)
        {
            return Err(SendError::Undeliverable(
                "403: bot can't initiate conversation".into(),
            ));
        }
        {
            let mut left = self.failures_left.lock().unwrap();
            if *left > 0 {
                *left -= 1;
                return Err(SendError::Retry {
                    after: Some(Duration::from_millis(2)),
                    reason: "429 Too Many Requests".into(),
                });
            }
        }
        let mut sent = self.sent.lock().unwrap();
        sent.push(entry.clone());
        Ok(Some(format!("tg{}", entry.id.0)))
    }
}

async fn drained(h: &Harness) {
    for _ in 0..500 {
        if h.service.pending(10).await.unwrap().is_empty() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the outbox was not drained");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undeliverable_dms_are_reported_in_the_chat_without_their_content() {
    let mut h = Harness::new(DealSource::Seeded(9)).await;
    // The 429s defer the lane on the service's clock: let it run.
    h.run_in_real_time();
    let (alice, dora) = (user("alice"), user("dora"));
    let chat = group("-500");
    let sender = Arc::new(FakeTelegram {
        closed_dms: vec![dora.id.clone()],
        failures_left: Mutex::new(3),
        ..FakeTelegram::default()
    });
    let shutdown = CancellationToken::new();
    let policy = RetryPolicy {
        min_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(5),
        retries: 1,
        round_pause: Duration::from_millis(5),
    };
    let task = tokio::spawn(run_delivery_with(
        h.service.clone(),
        sender.clone(),
        Platform::Telegram,
        shutdown.clone(),
        policy,
    ));

    h.say_mentioning(&alice, &chat, "/challenge @dora jieqi", vec![dora.clone()])
        .await;
    drained(&h).await;
    h.say(&dora, &chat, "/accept").await;
    drained(&h).await;
    shutdown.cancel();
    task.await.unwrap();

    let sent = sender.sent.lock().unwrap().clone();
    // Order kept despite the rate limits; the edit knows the platform's id of the post.
    assert_eq!(sent[0].message.kind, MessageKind::Challenge);
    let edit = sent
        .iter()
        .find(|e| e.message.kind == MessageKind::Challenge && e.message.replaces.is_some())
        .expect("the challenge edited");
    assert_eq!(edit.message.replaces, Some(sent[0].id));
    assert_eq!(
        edit.replaces_ref.as_deref(),
        Some(format!("tg{}", sent[0].id.0).as_str())
    );
    // Order is kept within each lane (a chat's messages about one game, its other messages,
    // each person's DMs), not across them.
    for lane in sent.iter().map(|e| Lane::of_message(&e.message)) {
        let ids: Vec<_> = sent
            .iter()
            .filter(|e| Lane::of_message(&e.message) == lane)
            .map(|e| e.id)
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "order within {lane:?}");
    }
    assert!(
        sent.iter()
            .any(|e| e.message.to == Destination::Private(alice.id.clone()))
    );
    assert!(
        !sent
            .iter()
            .any(|e| e.message.to == Destination::Private(dora.id.clone()))
    );
    let notice = sent
        .iter()
        .find(|e| e.message.kind == MessageKind::Notice)
        .expect("a notice about dora");
    assert_eq!(notice.message.to, Destination::Chat(chat.clone()));
    assert_eq!(notice.message.mentions, vec![dora.id.clone()]);
    assert!(
        notice
            .message
            .text
            .contains("could not send dora a private message"),
        "{}",
        notice.message.text
    );
    assert!(
        notice.message.text.contains("@jieqi_bot"),
        "{}",
        notice.message.text
    );
    assert!(
        !notice.message.text.contains("has started"),
        "never the content"
    );
    let metrics = h.service.metrics();
    assert_eq!(metrics.undeliverable, 1);
    assert!(metrics.delivery_failures >= 1);
}

#[tokio::test]
async fn messages_that_keep_failing_are_dropped_after_enough_rounds() {
    let h = Harness::new(DealSource::Seeded(10)).await;
    let mut h = h;
    h.say(&user("carol"), &group("-501"), "/challenge").await;
    let entry = h.service.pending(10).await.unwrap().remove(0);
    let mut dropped = false;
    for round in 1..=20 {
        dropped = h
            .service
            .delivery_failed(entry.id, std::time::Duration::ZERO)
            .await
            .unwrap();
        if dropped {
            assert!(round >= 10, "dropped after {round} rounds");
            break;
        }
        assert_eq!(h.service.pending(10).await.unwrap()[0].attempts, round);
    }
    assert!(dropped);
    assert!(h.service.pending(10).await.unwrap().is_empty());
}

/// A platform with deferred answers: records each one finished, with its answer.
#[derive(Default)]
struct FakeDiscord {
    finished: Mutex<Vec<(OutboxEntry, Answer)>>,
}

#[async_trait]
impl Sender for FakeDiscord {
    async fn send(&self, _entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        Ok(None)
    }

    async fn finish(
        &self,
        entry: &OutboxEntry,
        answer: &Answer,
    ) -> Result<Option<String>, SendError> {
        self.finished
            .lock()
            .unwrap()
            .push((entry.clone(), answer.clone()));
        Ok(None)
    }
}

impl FakeDiscord {
    async fn finished_count(&self, count: usize) -> Vec<(OutboxEntry, Answer)> {
        for _ in 0..1000 {
            let finished = self.finished.lock().unwrap().clone();
            if finished.len() >= count {
                return finished;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("{count} deferred replies were not finished");
    }
}

/// A deferred reply waits for its request's own process (here an hour) until that says the
/// answer is ready, and is then finished with the stored answer, once. One whose request
/// never went through is finished with the note that says so, and that note becomes the
/// request's answer: the request cannot go through any more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_reply_is_finished_once_with_its_requests_answer_or_says_it_did_not_go_through()
{
    let mut h = Harness::new(DealSource::Seeded(9)).await;
    let carol = User::new(UserId::new(Platform::Discord, "3"), "carol");
    let channel = ChatId::new(Platform::Discord, "700");
    let rules = h.request(&carol, &channel, Input::Text("/rules".into()), Vec::new());
    let lost = h.request(&carol, &channel, Input::Text("/rules".into()), Vec::new());
    let waiting = h
        .service
        .defer_reply(&rules, "1/token-1".into(), Duration::from_secs(3600))
        .await
        .unwrap();
    let never = h
        .service
        .defer_reply(&lost, "1/token-2".into(), Duration::ZERO)
        .await
        .unwrap();
    let sender = Arc::new(FakeDiscord::default());
    let shutdown = CancellationToken::new();
    let task = tokio::spawn(run_delivery_with(
        h.service.clone(),
        sender.clone(),
        Platform::Discord,
        shutdown.clone(),
        RetryPolicy::default(),
    ));

    let finished = sender.finished_count(1).await;
    let note = h
        .service
        .translations()
        .text(Language::En, "error-not-through", &[]);
    let (entry, answer) = &finished[0];
    assert_eq!(entry.id, never);
    assert_eq!(answer.replies.len(), 1);
    assert_eq!(answer.replies[0].text, note);
    assert_eq!(answer.replies[0].kind, MessageKind::Refusal);
    assert_eq!(
        answer.replies[0].to,
        Destination::ReplyToRequester { ephemeral: true }
    );
    let late = h.service.handle(lost).await;
    assert_eq!(late.replies.len(), 1);
    assert_eq!(
        late.replies[0].text, note,
        "the request never goes through now"
    );

    // The other one waits for its process.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(sender.finished.lock().unwrap().len(), 1);
    let answer = h.service.handle(rules).await;
    h.service.deferred_reply_ready(waiting).await.unwrap();
    let finished = sender.finished_count(2).await;
    let (entry, delivered) = &finished[1];
    assert_eq!(entry.id, waiting);
    assert_eq!(delivered.replies.len(), answer.replies.len());
    assert_eq!(delivered.replies[0].text, answer.replies[0].text);
    assert_eq!(
        delivered.replies[0].image, answer.replies[0].image,
        "the picture drawn again from its recipe"
    );
    assert!(delivered.replies[0].image.is_some());
    // Told again once it is done: nothing happens.
    h.service.deferred_reply_ready(waiting).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(sender.finished.lock().unwrap().len(), 2);
    assert!(h.service.pending(10).await.unwrap().is_empty());
    shutdown.cancel();
    task.await.unwrap();
}
