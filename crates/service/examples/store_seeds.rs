//! Writes the seeds of the `store_records` fuzz target (`fuzz/seeds/store_records`): the
//! records of a few games played through the service on a temporary sled store (a Xiangqi
//! game, a Jieqi game, a Banqi game, an open challenge and a deferred Discord reply), each in
//! the codec's stored bytes behind the byte that names its kind for the target, and an outbox
//! row with deferral columns.
//!
//! `cargo run -p jieqi-service --example store_seeds -- fuzz/seeds/store_records`

use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use jieqi_service::store::RequestKey;
use jieqi_service::store::codec::{Record, encode};
use jieqi_service::{
    ChatId, GameStore, IdempotencyKey, Input, Platform, Request, Service, ServiceConfig, SledStore,
    User, UserId,
};

/// The target's kind bytes (`fuzz/fuzz_targets/store_records.rs`).
const GAME: u8 = 0;
const CHALLENGE: u8 = 1;
const CHAT: u8 = 2;
const PLAYER: u8 = 3;
const ANSWER: u8 = 4;
const OUTBOX: u8 = 5;
const OUTBOX_ROW: u8 = 7;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds/store_records".to_owned()),
    );
    std::fs::create_dir_all(&out)?;
    let dir = tempfile::tempdir()?;
    let store: Arc<dyn GameStore> = Arc::new(SledStore::open(dir.path())?);
    let config = ServiceConfig {
        data_dir: dir.path().to_path_buf(),
        bot_username: Some("JieqiBot".to_owned()),
        board_width: 160,
        ..ServiceConfig::default()
    };
    let service = Service::open_with_store(store.clone(), config)?;
    let ann = User::new(UserId::new(Platform::Telegram, "1"), "@ann");
    let bob = User::new(UserId::new(Platform::Telegram, "2"), "@bob");
    let mut keys = 0u64;
    let mut said = |chat: &ChatId, who: &User, text: &str| {
        keys += 1;
        Request {
            key: IdempotencyKey(keys.to_string()),
            chat: chat.clone(),
            is_private_chat: false,
            is_admin: true,
            user: who.clone(),
            mentioned: if text.starts_with("/challenge @bob") {
                vec![bob.clone()]
            } else {
                Vec::new()
            },
            input: Input::Text(text.to_owned()),
            received_at: SystemTime::now(),
        }
    };
    let games: [(&str, &[&str]); 3] = [
        ("xiangqi", &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]),
        ("jieqi", &["h2e2", "h7e7", "b0c2", "b9c7", "e3e4"]),
        ("banqi", &["a1", "b2", "c3", "d4"]),
    ];
    for (n, (variant, moves)) in games.iter().enumerate() {
        let chat = ChatId::new(Platform::Telegram, format!("-10{n}"));
        let challenge = format!("/challenge @bob {variant} red");
        service.handle(said(&chat, &ann, &challenge)).await;
        service.handle(said(&chat, &bob, "/accept")).await;
        for (i, mv) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { &ann } else { &bob };
            service
                .handle(said(&chat, who, &format!("/move {mv}")))
                .await;
        }
    }
    let open = ChatId::new(Platform::Telegram, "-200");
    service
        .handle(said(&open, &ann, "/challenge jieqi black 1h tencent"))
        .await;
    service
        .handle(said(&open, &ann, "/settings language vi"))
        .await;
    // A Discord interaction deferred and not yet finished: its deferred reply.
    let channel = ChatId::new(Platform::Discord, "700001");
    let mut deferred_request = said(&channel, &ann, "/rules");
    deferred_request.key = IdempotencyKey("1330000000000000001".to_owned());
    let deferred = service
        .defer_reply(
            &deferred_request,
            format!("900001/{}", "t".repeat(180)),
            std::time::Duration::from_secs(20),
        )
        .await?;

    let mut written = 0;
    let mut write = |kind: u8, name: String, bytes: Vec<u8>| -> std::io::Result<()> {
        let mut seed = vec![kind];
        seed.extend(bytes);
        written += 1;
        std::fs::write(out.join(name), seed)
    };
    fn stored<T: Record>(record: &T) -> Vec<u8> {
        encode(record).expect("a record the store holds can be written")
    }
    for n in 0..3 {
        let chat = ChatId::new(Platform::Telegram, format!("-10{n}"));
        if let Some(record) = store.chat(&chat).await? {
            for id in record.games.iter().chain(&record.finished) {
                if let Some(game) = store.game(id).await? {
                    write(GAME, format!("game-{id}"), stored(&game))?;
                }
            }
            write(CHAT, format!("chat-{n}"), stored(&record))?;
        }
    }
    if let Some(record) = store.chat(&open).await? {
        for id in &record.challenges {
            if let Some(challenge) = store.challenge(id).await? {
                write(CHALLENGE, format!("challenge-{id}"), stored(&challenge))?;
            }
        }
        write(CHAT, "chat-open".to_owned(), stored(&record))?;
    }
    for user in [&ann, &bob] {
        if let Some(player) = store.player(&user.id).await? {
            write(PLAYER, format!("player-{}", user.id.id), stored(&player))?;
        }
    }
    for key in [1, 2, 3, 5] {
        let request = RequestKey::new(Platform::Telegram, &IdempotencyKey(key.to_string()));
        if let Some(answer) = store.answer(&request).await? {
            write(ANSWER, format!("answer-{key}"), stored(&answer))?;
        }
    }
    for pending in store.pending(6).await? {
        let id = pending.entry.id;
        if let Some(record) = store.outbox_record(id).await? {
            let bytes = stored(&record);
            write(OUTBOX, format!("outbox-{}", id.0), bytes.clone())?;
            let mut row = 3i32.to_le_bytes().to_vec();
            row.extend(1_700_000_030_000i64.to_le_bytes());
            row.extend(bytes);
            write(OUTBOX_ROW, format!("outbox-row-{}", id.0), row)?;
        }
    }
    if let Some(record) = store.outbox_record(deferred).await? {
        write(OUTBOX, "outbox-deferred-reply".to_owned(), stored(&record))?;
    }
    println!("{written} seeds in {}", out.display());
    Ok(())
}
