//! The fake's WebSocket gateway: HELLO, IDENTIFY → READY, heartbeats → acks, and the
//! INTERACTION_CREATE dispatches tests send.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{APP, GUILD, HEARTBEAT_MS, Inner, bot_json, lock};

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
                        fake.identifies.fetch_add(1, Ordering::SeqCst);
                        *lock(&fake.gateway) = Some(tx.clone());
                        let s = fake.seq.fetch_add(1, Ordering::SeqCst);
                        let ready = json!({"op": 0, "s": s, "t": "READY", "d": {
                            "v": 10, "user": bot_json(),
                            "guilds": [{"id": GUILD.to_string(), "unavailable": true}],
                            "session_id": "fake-session",
                            "resume_gateway_url": fake.ws_url,
                            "shard": [0, 1],
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
}
