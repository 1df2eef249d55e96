//! The fake's WebSocket gateway: HELLO, IDENTIFY (with its shard) → READY, heartbeats →
//! acks, and the INTERACTION_CREATE dispatches tests send, each to its shard's connection.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{APP, GUILD, HEARTBEAT_MS, Inner, Session, bot_json, lock};

pub(super) async fn upgrade(State(fake): State<Arc<Inner>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| session(socket, fake))
}

async fn send(socket: &mut WebSocket, payload: Value) -> bool {
    socket
        .send(WsMessage::Text(payload.to_string().into()))
        .await
        .is_ok()
}

/// One gateway session: HELLO, then IDENTIFY → READY, heartbeats → acks, and dispatches.
async fn session(mut socket: WebSocket, fake: Arc<Inner>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let mut my_shard = None;
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": null, "t": null});
    if !send(&mut socket, hello).await {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(WsMessage::Text(text))) => text.to_string(),
                    Some(Ok(WsMessage::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else { continue };
                match payload["op"].as_u64() {
                    Some(2) => {
                        assert_eq!(payload["d"]["intents"], json!(0), "the bot asks for no intents");
                        // Without `shard`, Discord treats the connection as shard 0 of 1.
                        let shard = payload["d"]["shard"].as_array().and_then(|s| {
                            Some([s.first()?.as_u64()?, s.get(1)?.as_u64()?])
                        }).unwrap_or([0, 1]);
                        assert!(shard[0] < shard[1], "a shard id within the count: {shard:?}");
                        lock(&fake.identified).push(shard);
                        lock(&fake.sessions).insert(shard[0], Session { shard_count: shard[1], dispatches: tx.clone() });
                        my_shard = Some(shard[0]);
                        fake.touched();
                        let s = fake.seq.fetch_add(1, Ordering::SeqCst);
                        let guilds: Vec<Value> = [GUILD].iter().filter(|g| (**g >> 22) % shard[1] == shard[0])
                            .map(|g| json!({"id": g.to_string(), "unavailable": true})).collect();
                        let ready = json!({"op": 0, "s": s, "t": "READY", "d": {
                            "v": 10, "user": bot_json(),
                            "guilds": guilds,
                            "session_id": format!("fake-session-{}", shard[0]),
                            "resume_gateway_url": fake.ws_url,
                            "shard": shard,
                            "application": {"id": APP.to_string(), "flags": 0}
                        }});
                        if !send(&mut socket, ready).await { break }
                    }
                    Some(1) => {
                        fake.heartbeats.fetch_add(1, Ordering::SeqCst);
                        if !send(&mut socket, json!({"op": 11, "d": null, "s": null, "t": null})).await { break }
                    }
                    _ => {}
                }
            }
            Some(interaction) = rx.recv() => {
                let s = fake.seq.fetch_add(1, Ordering::SeqCst);
                let dispatch = json!({"op": 0, "s": s, "t": "INTERACTION_CREATE", "d": interaction});
                if !send(&mut socket, dispatch).await { break }
            }
        }
    }
    if let Some(shard) = my_shard {
        let mut sessions = lock(&fake.sessions);
        if sessions
            .get(&shard)
            .is_some_and(|s| s.dispatches.same_channel(&tx))
        {
            sessions.remove(&shard);
        }
    }
}
