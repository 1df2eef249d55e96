//! The routes as a client sees them: pages, state, live streams that resume, and bad input
//! answered with a status and a sentence, never a store error or a hang.

use std::time::Duration;

use jieqi_rules::Variant;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::harness::{Sse, Table, deal, random_moves};

const WAIT: Duration = Duration::from_secs(5);

async fn get(url: &str) -> reqwest::Response {
    reqwest::get(url).await.expect("an answer")
}

#[tokio::test]
async fn an_unknown_or_malformed_game_id_is_a_404_that_says_so() {
    let table = Table::new(vec![], ["alice", "bob"], |_| {}).await;
    for (path, says) in [
        ("/g/zzzz", "There is no game zzzz"),
        ("/g/zzzz/state", "There is no game zzzz"),
        ("/g/zzzz/live", "There is no game zzzz"),
        ("/g/zzzz/board/0.png", "There is no game zzzz"),
        ("/g/%3Cscript%3E", "is not a game id"),
        ("/g/..%2F..%2Fetc", "is not a game id"),
        (
            "/g/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "is not a game id",
        ),
        ("/nothing/here", "There is nothing here"),
    ] {
        let response = get(&table.url(path)).await;
        assert_eq!(response.status(), 404, "{path}");
        let csp = response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(csp.contains("default-src 'none'"), "{path}: {csp}");
        let body = response.text().await.expect("a body");
        assert!(body.contains(says), "{path}: {body}");
        assert!(
            !body.contains("<script>"),
            "{path}: no markup from the path: {body}"
        );
    }
}

#[tokio::test]
async fn a_board_past_the_game_or_of_an_odd_size_is_refused_with_the_reason() {
    let mut table = Table::new(vec![deal(Variant::Jieqi, 1)], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    let ok = get(&table.url(&format!("/g/{game}/board/0.png?w=960"))).await;
    assert_eq!(ok.status(), 200);
    assert_eq!(ok.headers()["content-type"], "image/png");
    assert!(
        ok.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    let png = ok.bytes().await.expect("a picture");
    assert_eq!(&png[1..4], b"PNG");
    for (path, status, says) in [
        ("/board/1.png", 404, "There is no game"),
        ("/board/99999.png", 404, "There is no game"),
        ("/board/0.png?w=100000", 400, "pixels wide"),
        ("/board/0.png?w=-1", 400, "pixels wide"),
        ("/board/0.png?o=green", 400, "red or black"),
        ("/board/0.png?s=emoji", 400, "characters or symbols"),
        ("/board/0.png?end=1", 404, "There is no game"),
        ("/board/0.png?end=yes", 400, "end=1"),
        ("/board/x.png", 400, "is not a board"),
        ("/board/0.gif", 400, "is not a board"),
        ("/board/99999999999999999999.png", 400, "is not a board"),
    ] {
        let response = get(&table.url(&format!("/g/{game}{path}"))).await;
        assert_eq!(response.status(), status, "{path}");
        let body = response.text().await.expect("a body");
        assert!(body.contains(says), "{path}: {body}");
    }
}

#[tokio::test]
async fn a_resigned_games_last_position_keeps_its_picture_and_the_end_gets_its_own() {
    let mut table = Table::new(vec![deal(Variant::Jieqi, 9)], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    table.play(0, "h2e2").await;
    table.play(1, "h9g7").await;
    let during = get(&table.url(&format!("/g/{game}/board/2.png")))
        .await
        .bytes()
        .await
        .unwrap();
    table.say(1, "/resign").await;
    table.say(1, "/resign").await;
    let after = get(&table.url(&format!("/g/{game}/board/2.png")))
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(during, after, "a picture once served never changes");
    let end = get(&table.url(&format!("/g/{game}/board/2.png?end=1"))).await;
    assert_eq!(end.status(), 200);
    assert_ne!(
        end.bytes().await.unwrap(),
        during,
        "the end turns the covered pieces up"
    );
    let state = get(&table.url(&format!("/g/{game}")))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        state.contains(&format!(
            "/g/{game}/board/2.png?w=720&amp;o=red&amp;s=characters&amp;end=1"
        )),
        "{state}"
    );
}

#[tokio::test]
async fn the_page_embeds_the_state_and_links_only_its_own_files() {
    let mut table = Table::new(vec![deal(Variant::Jieqi, 2)], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    table.play(0, "h2e2").await;
    let response = get(&table.url(&format!("/g/{game}"))).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-cache");
    let page = response.text().await.expect("a page");
    let state = get(&table.url(&format!("/g/{game}/state?lang=en"))).await;
    let state = state.text().await.expect("the state");
    assert!(page.contains(&state), "the page carries the same state");
    let parsed: serde_json::Value = serde_json::from_str(&state).expect("JSON");
    assert_eq!(parsed["moves"].as_array().expect("moves").len(), 1);
    assert!(
        page.contains(&format!("{}/g/{game}/board/1.png?w=720", table.base)),
        "og:image"
    );
    for src in page
        .split("src=\"")
        .skip(1)
        .chain(page.split("href=\"").skip(1))
    {
        let link = src.split('"').next().unwrap_or_default();
        assert!(link.starts_with('/'), "only our own files: {link}");
        let asset = get(&table.url(link)).await;
        assert_eq!(asset.status(), 200, "{link}");
        assert!(
            asset.headers()["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
    }
}

#[tokio::test]
async fn the_page_speaks_the_language_asked_for_then_the_browsers() {
    let mut table = Table::new(vec![deal(Variant::Jieqi, 3)], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    let client = reqwest::Client::new();
    let zh = client
        .get(table.url(&format!("/g/{game}")))
        .header("accept-language", "fr-FR, zh-CN;q=0.8, en;q=0.5")
        .send()
        .await
        .expect("a page")
        .text()
        .await
        .expect("text");
    assert!(zh.contains("lang=\"zh\"") && zh.contains("着法"), "{zh}");
    let vi = get(&table.url(&format!("/g/{game}?lang=vi")))
        .await
        .text()
        .await
        .expect("text");
    assert!(
        vi.contains("lang=\"vi\"") && vi.contains("Các nước đi"),
        "{vi}"
    );
    let chat = get(&table.url(&format!("/g/{game}")))
        .await
        .text()
        .await
        .expect("text");
    assert!(chat.contains("lang=\"en\""), "the chat's language: {chat}");
}

#[tokio::test]
async fn a_stream_sends_each_move_and_resumes_after_the_last_event_it_sent() {
    let deal = deal(Variant::Jieqi, 4);
    let moves = random_moves(Variant::Jieqi, &deal, 4, 8);
    let mut table = Table::new(vec![deal], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    let live = table.url(&format!("/g/{game}/live?lang=en"));
    let mut stream = Sse::of(Sse::open(&live, None).await);
    let first = stream.next(WAIT).await.expect("the current page first");
    assert_eq!(first.event.as_deref(), Some("page"));
    let mut last_id = first.id.clone().expect("an id");
    for (ply, text) in moves.iter().enumerate().take(4) {
        table.play(ply, text).await;
        let event = stream.next(WAIT).await.expect("each move arrives");
        let page: serde_json::Value = serde_json::from_str(&event.data).expect("JSON");
        assert_eq!(page["moves"].as_array().expect("moves").len(), ply + 1);
        let id = event.id.expect("an id");
        assert!(id.parse::<u64>().unwrap() > last_id.parse::<u64>().unwrap());
        last_id = id;
    }
    drop(stream);
    // Missed while away: a reconnection with the last id gets the newest page only.
    for (ply, text) in moves.iter().enumerate().skip(4).take(2) {
        table.play(ply, text).await;
    }
    let mut resumed = Sse::of(Sse::open(&live, Some(&last_id)).await);
    let event = resumed.next(WAIT).await.expect("what was missed");
    let page: serde_json::Value = serde_json::from_str(&event.data).expect("JSON");
    assert_eq!(page["moves"].as_array().expect("moves").len(), 6);
    // Nothing is sent twice: with the newest id, nothing until the next move.
    let newest = event.id.expect("an id");
    let mut caught_up = Sse::of(Sse::open(&live, Some(&newest)).await);
    assert_eq!(caught_up.next(Duration::from_millis(700)).await, None);
    table.play(6, &moves[6]).await;
    let next = caught_up.next(WAIT).await.expect("the next move");
    let page: serde_json::Value = serde_json::from_str(&next.data).expect("JSON");
    assert_eq!(page["moves"].as_array().expect("moves").len(), 7);
}

#[tokio::test]
async fn a_hostile_last_event_id_gets_the_whole_page_and_no_error() {
    let mut table = Table::new(vec![deal(Variant::Jieqi, 5)], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    let live = table.url(&format!("/g/{game}/live"));
    let huge = "9".repeat(8_000);
    for id in [
        "18446744073709551615",
        "99999999999999999999999",
        "-1",
        "abc",
        "1e9",
        huge.as_str(),
    ] {
        let response = Sse::open(&live, Some(id)).await;
        assert_eq!(response.status(), 200, "{}", &id[..id.len().min(30)]);
        let mut stream = Sse::of(response);
        let event = stream.next(WAIT).await.expect("the page");
        assert_eq!(event.event.as_deref(), Some("page"));
    }
}

#[tokio::test]
async fn too_many_streams_from_one_address_are_refused_with_429() {
    let mut table = Table::new(vec![deal(Variant::Jieqi, 6)], ["alice", "bob"], |c| {
        c.streams_per_address = 3
    })
    .await;
    let game = table.start("jieqi").await;
    let live = table.url(&format!("/g/{game}/live"));
    let mut open = Vec::new();
    for _ in 0..3 {
        let mut stream = Sse::of(Sse::open(&live, None).await);
        stream.next(WAIT).await.expect("admitted");
        open.push(stream);
    }
    let refused = Sse::open(&live, None).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Too many live pages")
    );
    // A page (not a stream) is still served, and a closed stream frees its place.
    assert_eq!(get(&table.url(&format!("/g/{game}"))).await.status(), 200);
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(Sse::open(&live, None).await.status(), 200);
}

#[tokio::test]
async fn a_client_that_never_reads_is_dropped_and_slows_nobody() {
    let deal = deal(Variant::Jieqi, 8);
    let moves = random_moves(Variant::Jieqi, &deal, 8, 120);
    let mut table = Table::new(
        vec![deal],
        ["a".repeat(60).as_str(), "b".repeat(60).as_str()],
        |c| {
            c.write_timeout = Duration::from_secs(1);
        },
    )
    .await;
    let game = table.start("jieqi").await;
    // A client with a tiny receive window that sends its request and never reads again.
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(2048).expect("a small window");
    let mut stuck = socket.connect(table.addr).await.expect("connected");
    stuck
        .write_all(format!("GET /g/{game}/live HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .expect("sent");
    let mut reader = Sse::of(Sse::open(&table.url(&format!("/g/{game}/live")), None).await);
    reader.next(WAIT).await.expect("the first page");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(table.web.open_streams(), 2);
    let mut dropped_after = None;
    for (ply, text) in moves.iter().enumerate() {
        table.play(ply, text).await;
        let event = reader
            .next(WAIT)
            .await
            .expect("the reading client gets every move in time");
        let page: serde_json::Value = serde_json::from_str(&event.data).expect("JSON");
        assert_eq!(page["moves"].as_array().expect("moves").len(), ply + 1);
        if dropped_after.is_none() && table.web.open_streams() == 1 {
            dropped_after = Some(ply + 1);
        }
    }
    for _ in 0..40 {
        if table.web.open_streams() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        table.web.open_streams(),
        1,
        "the client that never read was dropped"
    );
    // Its connection was closed by the server: reading now ends (after what was buffered).
    let mut sink = vec![0u8; 1 << 20];
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match stuck.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the server closed the stuck connection");
    println!("a client that never read was dropped after {dropped_after:?} moves");
}

/// Reads `tcp` into `seen` until `done` says it has what it waits for.
async fn read_until(
    tcp: &mut tokio::net::TcpStream,
    seen: &mut String,
    done: impl Fn(&str) -> bool,
) -> bool {
    let mut buffer = vec![0u8; 16 << 10];
    tokio::time::timeout(WAIT, async {
        while !done(seen) {
            match tcp.read(&mut buffer).await {
                Ok(0) | Err(_) => return false,
                Ok(n) => seen.push_str(&String::from_utf8_lossy(&buffer[..n])),
            }
        }
        true
    })
    .await
    .unwrap_or(false)
}

#[tokio::test]
async fn a_stream_asked_on_a_kept_alive_connection_or_in_pieces_streams_too() {
    let deal = deal(Variant::Jieqi, 9);
    let moves = random_moves(Variant::Jieqi, &deal, 9, 2);
    let mut table = Table::new(vec![deal], ["alice", "bob"], |_| {}).await;
    let game = table.start("jieqi").await;
    // After a request for the state on the same connection (served by hyper, kept alive).
    let mut kept = tokio::net::TcpStream::connect(table.addr)
        .await
        .expect("connected");
    let ask = |path: &str| format!("GET /g/{game}/{path} HTTP/1.1\r\nHost: x\r\n\r\n");
    kept.write_all(ask("state").as_bytes()).await.expect("sent");
    let mut seen = String::new();
    assert!(read_until(&mut kept, &mut seen, |s| s.contains("\"moves\"")).await);
    kept.write_all(ask("live").as_bytes()).await.expect("sent");
    let mut kept_seen = String::new();
    assert!(read_until(&mut kept, &mut kept_seen, |s| s.contains("event: page")).await);
    // A request that arrives in two pieces.
    let mut pieces = tokio::net::TcpStream::connect(table.addr)
        .await
        .expect("connected");
    let whole = ask("live");
    let (first, rest) = whole.split_at(10);
    pieces.write_all(first.as_bytes()).await.expect("sent");
    tokio::time::sleep(Duration::from_millis(100)).await;
    pieces.write_all(rest.as_bytes()).await.expect("sent");
    let mut pieces_seen = String::new();
    assert!(read_until(&mut pieces, &mut pieces_seen, |s| s.contains("event: page")).await);
    // And one written by hand, alongside: each of the three gets the move.
    let mut whole_at_once = tokio::net::TcpStream::connect(table.addr)
        .await
        .expect("connected");
    whole_at_once
        .write_all(whole.as_bytes())
        .await
        .expect("sent");
    let mut at_once_seen = String::new();
    assert!(
        read_until(&mut whole_at_once, &mut at_once_seen, |s| s
            .contains("event: page"))
        .await
    );
    // The first two went to hyper, the third was written by hand.
    for seen in [&kept_seen, &pieces_seen] {
        assert!(seen.contains("transfer-encoding: chunked\r\n"), "{seen}");
    }
    assert!(
        at_once_seen.contains("connection: close\r\n"),
        "{at_once_seen}"
    );
    assert_eq!(table.web.open_streams(), 3);
    let metrics = table.service.metrics_registry().encode();
    assert!(metrics.contains("jieqi_web_streams 3"), "{metrics}");
    table.play(0, &moves[0]).await;
    for (tcp, seen) in [
        (&mut kept, &mut kept_seen),
        (&mut pieces, &mut pieces_seen),
        (&mut whole_at_once, &mut at_once_seen),
    ] {
        assert!(
            read_until(tcp, seen, |s| s.matches("event: page").count() == 2).await,
            "the move arrives: {seen}"
        );
    }
}
