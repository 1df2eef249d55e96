//! A deferred interaction is finished by any process, through the outbox. Two bot processes
//! share one PostgreSQL schema and one fake Discord: process A runs the game guild's shard
//! (so it receives the interactions), B another shard (it only delivers the outbox). A runs
//! on a runtime of its own; killing it shuts that runtime down, so every task of A (the
//! gateway, the service's handling, the delivery loop, its database connections) stops where
//! it is, with nothing finished gracefully.
//!
//! Needs `TEST_DATABASE_URL` (skipped without it, failing under `CI=true`).

use crate::harness;

use std::sync::Arc;
use std::time::{Duration, Instant};

use harness::*;
use jieqi_discord::ShardRange;
use jieqi_fake_discord::{CHANNEL, FakeDiscord, Recorded, Seen};
use jieqi_service::{
    ChatId, Destination, IdempotencyKey, Input, Language, MessageKind, Platform, Request, User,
    UserId,
};
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::{TestStore, test_store};
use serde_json::{Value, json};

/// How long a deferred interaction waits for its own process here (20 s by default).
const TAKE_OVER_AFTER: Duration = Duration::from_secs(3);

/// Process A's runtime: shut down (A killed) when the test says, or at the end.
struct Killable(Option<tokio::runtime::Runtime>);

impl Killable {
    /// Every task of the process stops at its next step; nothing runs to its end.
    fn kill(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Killable {
    fn drop(&mut self) {
        self.kill();
    }
}

struct TwoProcesses {
    fake: FakeDiscord,
    // Dropped last: its schema is removed once both processes are gone.
    _pg: TestStore,
    a: Process,
    a_runtime: Killable,
    b: Process,
}

fn shards(range: &str) -> impl FnOnce(&mut jieqi_discord::DiscordConfig) + use<> {
    let range = ShardRange::parse(range, 2).expect("a shard range");
    move |config| {
        config.shards = Some(range);
        config.take_over_after = TAKE_OVER_AFTER;
    }
}

async fn two_processes() -> Option<TwoProcesses> {
    let pg = test_store().await?;
    let fake = FakeDiscord::start().await;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime for process A");
    let (url, schema, fake_url) = (
        pg.url().to_owned(),
        pg.schema().to_owned(),
        fake.http_url.clone(),
    );
    // Everything of A is made on its runtime, its database connections included.
    let a = runtime
        .spawn(async move {
            let store = PgStore::connect_in_schema(&url, &schema)
                .await
                .expect("process A's store");
            start_process(&fake_url, Arc::new(store), shards("0")).await
        })
        .await
        .expect("process A starts");
    let b = start_process(&fake.http_url, Arc::new(pg.another().await), shards("1")).await;
    fake.wait_for_shards(2).await;
    fake.wait_for("A to register the commands", |log| {
        log.iter().any(|r| r.method == "PUT" && r.status == 200)
    })
    .await;
    Some(TwoProcesses {
        fake,
        _pg: pg,
        a,
        a_runtime: Killable(Some(runtime)),
        b,
    })
}

fn token_of(interaction: &Value) -> String {
    interaction["token"].as_str().expect("a token").to_owned()
}

fn id_of(interaction: &Value) -> String {
    interaction["id"].as_str().expect("an id").to_owned()
}

/// The interaction was deferred ("thinking…", privately).
fn deferred(log: &[Recorded], token: &str) -> bool {
    log.iter().any(|r| {
        r.path.contains(token)
            && r.path.ends_with("/callback")
            && r.status < 300
            && r.json["type"] == json!(5)
            && r.json["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
    })
}

/// The placeholder written or removed: each successful edit or removal of `@original`.
fn resolutions(log: &[Recorded], token: &str) -> Vec<Recorded> {
    log.iter()
        .filter(|r| {
            r.path.contains(token)
                && r.path.ends_with("/messages/@original")
                && r.method != "GET"
                && r.status < 300
        })
        .cloned()
        .collect()
}

impl TwoProcesses {
    /// Waits until the outbox holds the deferral of interaction `id` (A recorded it).
    async fn deferral_recorded(&self, id: &str) {
        for _ in 0..200 {
            let pending = self
                .b
                .service
                .pending_for(Platform::Discord, 50)
                .await
                .expect("the outbox");
            if pending.iter().any(|entry| {
                matches!(&entry.message.to, Destination::DeferredReply(reply) if reply.request.0 == id)
            }) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the deferral of {id} was never recorded");
    }

    /// Waits until the outbox is empty.
    async fn outbox_drained(&self) {
        for _ in 0..400 {
            let pending = self
                .b
                .service
                .pending_for(Platform::Discord, 1)
                .await
                .expect("the outbox");
            if pending.is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the outbox did not drain");
    }
}

/// A is killed after its request was committed and the interaction deferred, before it
/// answered: B resolves the placeholder and posts the answer to the channel, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_after_deferring_leaves_the_answer_to_another() {
    let Some(mut two) = two_processes().await else {
        return;
    };
    let rules = two.fake.command(CAROL, "rules", json!([]), json!({}));
    let (token, id) = (token_of(&rules), id_of(&rules));
    two.a.store.hang_after_answers();
    two.fake.dispatch(&rules);
    // A's commit went through (and A never heard back); the answer was slow, so A deferred.
    assert_eq!(
        two.a.store.hung_after_answer().await,
        format!("discord:{id}")
    );
    two.fake
        .wait_for("A's deferral", |log| deferred(log, &token))
        .await;
    two.deferral_recorded(&id).await;
    let killed = Instant::now();
    two.a_runtime.kill();
    let log = two.fake.log();
    assert!(resolutions(&log, &token).is_empty(), "A answered first");
    assert!(channel_posts(&log).is_empty(), "A posted first");

    let log = two
        .fake
        .wait_for("B to finish the interaction", |log| {
            !resolutions(log, &token).is_empty() && !channel_posts(log).is_empty()
        })
        .await;
    let resolved = resolutions(&log, &token);
    assert_eq!(resolved.len(), 1, "{resolved:?}");
    assert_eq!(resolved[0].method, "DELETE", "the placeholder is removed");
    println!(
        "B resolved the placeholder {:.1} s after A was killed (A's wait: {:.0} s)",
        resolved[0].at.duration_since(killed).as_secs_f64(),
        TAKE_OVER_AFTER.as_secs_f64()
    );
    // The answer (the rules, public) reaches the channel, after the placeholder is gone.
    let posts = channel_posts(&log);
    assert_eq!(posts.len(), 1, "{posts:?}");
    let post = posts[0];
    assert_eq!(post.seen, Seen::Channel(CHANNEL));
    assert!(post.at >= resolved[0].at);
    assert!(is_png(&post.files.first().expect("the rules' picture").2));
    assert_eq!(post.json["nonce"], json!(format!("{id}:p0")));

    // Exactly once: nothing more comes, from B or anyone.
    two.outbox_drained().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let log = two.fake.log();
    assert_eq!(resolutions(&log, &token).len(), 1);
    assert_eq!(two.fake.created_in(CHANNEL).len(), 1);
    let answered = log
        .iter()
        .filter(|r| r.path.contains(&token) && r.path.ends_with("/callback") && r.status < 300)
        .count();
    assert_eq!(answered, 1, "one first answer, the deferral");
    let TwoProcesses { b, .. } = two;
    b.stop().await;
}

/// A is killed while its request still waits for the store: nothing was committed, and B
/// tells the requester, in their language, that it did not go through; from then on the
/// request can never go through (its key holds that answer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_never_went_through_is_told_so_by_another_process() {
    let Some(mut two) = two_processes().await else {
        return;
    };
    two.a.store.hold(Duration::from_secs(3600));
    let mut rules = two.fake.command(CAROL, "rules", json!([]), json!({}));
    rules["locale"] = json!("vi");
    let (token, id) = (token_of(&rules), id_of(&rules));
    two.fake.dispatch(&rules);
    two.fake
        .wait_for("A's deferral", |log| deferred(log, &token))
        .await;
    two.deferral_recorded(&id).await;
    two.a_runtime.kill();

    let log = two
        .fake
        .wait_for("B to resolve the placeholder", |log| {
            !resolutions(log, &token).is_empty()
        })
        .await;
    let resolved = resolutions(&log, &token);
    assert_eq!(resolved.len(), 1, "{resolved:?}");
    let note = two
        .b
        .service
        .translations()
        .text(Language::Vi, "error-not-through", &[]);
    assert_eq!(resolved[0].method, "PATCH");
    assert_eq!(resolved[0].seen, Seen::Ephemeral(CAROL.id));
    assert_eq!(resolved[0].json["content"], json!(note));
    two.outbox_drained().await;
    assert!(channel_posts(&two.fake.log()).is_empty(), "no rules posted");

    // The same request again (as A's late commit would be): it is answered as it was.
    let again = Request {
        key: IdempotencyKey(id),
        chat: ChatId::new(Platform::Discord, CHANNEL.to_string()),
        is_private_chat: false,
        is_admin: false,
        user: User::new(
            UserId::new(Platform::Discord, CAROL.id.to_string()),
            "carol",
        ),
        mentioned: Vec::new(),
        input: Input::Text("/rules".to_owned()),
        received_at: std::time::SystemTime::now(),
    };
    let answer = two.b.service.handle(again).await;
    assert_eq!(answer.replies.len(), 1, "{answer:?}");
    assert_eq!(answer.replies[0].kind, MessageKind::Refusal);
    assert_eq!(answer.replies[0].text, note);
    let TwoProcesses { b, .. } = two;
    b.stop().await;
}

/// Both processes alive: the one that deferred says its answer is ready, and of the two
/// delivery loops exactly one finishes the interaction, long before the other could take
/// it over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_process_finishes_its_deferral_once_with_another_running() {
    let Some(two) = two_processes().await else {
        return;
    };
    two.a.store.hold(Duration::from_millis(2500));
    let rules = two.fake.command(CAROL, "rules", json!([]), json!({}));
    let token = token_of(&rules);
    two.fake.dispatch(&rules);
    let log = two
        .fake
        .wait_for("the rules in the channel", |log| {
            !resolutions(log, &token).is_empty() && !channel_posts(log).is_empty()
        })
        .await;
    assert!(deferred(&log, &token));
    two.outbox_drained().await;
    // Past the other process's chance to take it over: still one answer.
    tokio::time::sleep(TAKE_OVER_AFTER + Duration::from_secs(1)).await;
    let log = two.fake.log();
    assert_eq!(resolutions(&log, &token).len(), 1);
    assert_eq!(channel_posts(&log).len(), 1);
    let TwoProcesses {
        a, b, a_runtime, ..
    } = two;
    b.stop().await;
    drop(a);
    drop(a_runtime);
}

/// How it broke: A deferred the interaction while the store was still recording the
/// deferral, and was killed right after Discord showed "thinking…": nothing in the outbox
/// named the placeholder, and it stayed until Discord gave up (15 minutes). Now the deferral
/// is recorded before Discord is asked to show it, so the next process finishes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_right_after_deferring_leaves_no_placeholder_behind() {
    let Some(mut two) = two_processes().await else {
        return;
    };
    // The request waits for the store (so it is deferred), and recording the deferral takes
    // longer than Discord takes to show the placeholder.
    two.a.store.hold(Duration::from_secs(3600));
    two.a.store.hold_deferrals(Duration::from_millis(150));
    let rules = two.fake.command(CAROL, "rules", json!([]), json!({}));
    let token = token_of(&rules);
    two.fake.dispatch(&rules);
    two.fake
        .wait_for("A's deferral", |log| deferred(log, &token))
        .await;
    // Killed the moment the placeholder shows.
    two.a_runtime.kill();
    let killed = Instant::now();
    let log = two
        .fake
        .wait_for("the next process to resolve the placeholder", |log| {
            !resolutions(log, &token).is_empty()
        })
        .await;
    let resolved = resolutions(&log, &token);
    assert_eq!(resolved.len(), 1, "{resolved:?}");
    assert_eq!(resolved[0].seen, Seen::Ephemeral(CAROL.id));
    println!(
        "the placeholder was resolved {:.1} s after A was killed",
        resolved[0].at.duration_since(killed).as_secs_f64()
    );
    assert!(
        resolved[0].at.duration_since(killed) < TAKE_OVER_AFTER + Duration::from_secs(10),
        "well within the interaction token's 15 minutes"
    );
    two.outbox_drained().await;
    let TwoProcesses { b, .. } = two;
    b.stop().await;
}
