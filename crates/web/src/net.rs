//! The connections. Every accepted socket gets a bounded kernel send buffer and a write
//! timeout, so a client that stops reading is dropped instead of holding its stream forever,
//! and each request learns the address it came from ([`Peer`]).
//!
//! A live stream is written here by hand rather than by hyper. A spectator keeps its
//! connection open for the whole game and only ever receives: hyper would hold its 8 KiB read
//! buffer and its 8 KiB write buffer for all that time, and frame every event as a chunk. So
//! a connection whose first segment is a whole `GET /g/<game>/live` request goes through the
//! same router, then its answer is written as it comes, each event in one write of the bytes
//! every spectator shares, and the connection closes when the stream ends (`Connection:
//! close`: the body runs to the end of the connection). It holds a few hundred bytes of state.
//! Everything else (pages, pictures, a stream asked on a kept-alive connection or in several
//! segments) is served by hyper.

use std::io::{self, Write as _};
use std::net::{IpAddr, SocketAddr};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderName, HeaderValue, Method, Request, Response, Version, header};
use futures_util::StreamExt;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_io_timeout::TimeoutStream;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

/// The longest request head a live stream is recognised in (longer ones go to hyper).
const STREAM_HEAD_LIMIT: usize = 4096;
/// The most header lines a live stream's request is read with (more go to hyper).
const STREAM_HEADERS: usize = 32;

/// How each connection is served.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sockets {
    /// A write that makes no progress for this long drops the connection (a live stream's:
    /// an event not written whole within it).
    pub write_timeout: Duration,
    /// The kernel's send buffer of each connection, in bytes: bounded, so a client that
    /// stops reading is noticed after that much, and ten thousand spectators cannot each
    /// grow one to megabytes.
    pub send_buffer: usize,
}

/// Serves `router` on `listener` until `stop`, then waits for the open connections to end
/// (streams end at `stop`; hyper finishes the requests it is answering).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    sockets: Sockets,
    stop: CancellationToken,
) -> io::Result<()> {
    let connections = TaskTracker::new();
    loop {
        let (tcp, peer) = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, mostly: wait for some to be given back.
                    tracing::warn!("the web page could not accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let _ = tcp.set_nodelay(true);
        let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(sockets.send_buffer);
        connections.spawn(connection(
            tcp,
            Peer(peer),
            router.clone(),
            sockets,
            stop.clone(),
        ));
    }
    drop(listener);
    connections.close();
    connections.wait().await;
    Ok(())
}

/// One connection: a live stream written by hand, or hyper for everything else.
async fn connection(
    tcp: TcpStream,
    peer: Peer,
    router: Router,
    sockets: Sockets,
    stop: CancellationToken,
) {
    let stream_request = tokio::select! {
        peeked = std::future::poll_fn(|cx| peek_stream_request(&tcp, cx)) => peeked,
        // A client that has sent nothing yet is let go.
        () = stop.cancelled() => return,
    };
    match stream_request {
        Ok(Some(mut asked)) => {
            asked.request.extensions_mut().insert(ConnectInfo(peer));
            // Boxed: asking the router takes a big future, done with once the answer starts;
            // the stream's task keeps only what writing it needs.
            if let Some((head, body)) = Box::pin(answer(&tcp, asked, router)).await {
                write_stream(tcp, head, body, sockets.write_timeout).await;
            }
        }
        // Boxed: hyper's connection state is far bigger than a stream's, and a spectator's
        // task should not carry its room.
        Ok(None) => Box::pin(serve_with_hyper(tcp, peer, router, sockets, stop)).await,
        Err(_) => {}
    }
}

async fn serve_with_hyper(
    tcp: TcpStream,
    peer: Peer,
    router: Router,
    sockets: Sockets,
    stop: CancellationToken,
) {
    let mut tcp = TimeoutStream::new(tcp);
    tcp.set_write_timeout(Some(sockets.write_timeout));
    let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        router.clone().oneshot(request)
    });
    let served = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(Box::pin(tcp)), service);
    let mut served = std::pin::pin!(served);
    tokio::select! {
        _ = served.as_mut() => return,
        () = stop.cancelled() => served.as_mut().graceful_shutdown(),
    }
    let _ = served.await;
}

/// The connection's first segment, if it is a whole request for a live stream: the length
/// of its head (still in the socket) and the request. `Ok(None)` for anything else.
fn peek_stream_request(
    tcp: &TcpStream,
    cx: &mut Context<'_>,
) -> Poll<io::Result<Option<Box<StreamRequest>>>> {
    // On the stack for this call only: not part of the connection's state.
    let mut buffer = [0u8; STREAM_HEAD_LIMIT];
    let mut peeked = ReadBuf::new(&mut buffer);
    match tcp.poll_peek(cx, &mut peeked) {
        // Boxed: the connection's state should not keep room for a request once answered.
        Poll::Ready(Ok(_)) => Poll::Ready(Ok(stream_request(peeked.filled()).map(Box::new))),
        Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        Poll::Pending => Poll::Pending,
    }
}

/// Takes a request head of `len` bytes, peeked already, out of the socket.
fn take_head(tcp: &TcpStream, len: usize) -> bool {
    let mut buffer = [0u8; STREAM_HEAD_LIMIT];
    matches!(tcp.try_read(&mut buffer[..len]), Ok(n) if n == len)
}

/// A request for a live stream, its head still in the socket.
struct StreamRequest {
    /// The length of its head.
    head_len: usize,
    request: Request<Body>,
}

/// `bytes` as a whole `GET /g/<game>/live` request head.
fn stream_request(bytes: &[u8]) -> Option<StreamRequest> {
    let mut headers = [httparse::EMPTY_HEADER; STREAM_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let httparse::Status::Complete(head_len) = parsed.parse(bytes).ok()? else {
        return None;
    };
    let target = parsed.path?;
    let path = target.split('?').next().unwrap_or_default();
    let game = path.strip_prefix("/g/")?.strip_suffix("/live")?;
    if parsed.method != Some("GET") || game.is_empty() || game.contains('/') {
        return None;
    }
    let mut request = Request::builder()
        .method(Method::GET)
        .uri(target)
        .version(match parsed.version? {
            0 => Version::HTTP_10,
            _ => Version::HTTP_11,
        })
        .body(Body::empty())
        .ok()?;
    for line in parsed.headers.iter() {
        let name = HeaderName::from_bytes(line.name.as_bytes()).ok()?;
        let value = HeaderValue::from_bytes(line.value).ok()?;
        request.headers_mut().append(name, value);
    }
    Some(StreamRequest { head_len, request })
}

/// The answer to a live stream's request: its head and its body.
async fn answer(
    tcp: &TcpStream,
    asked: Box<StreamRequest>,
    router: Router,
) -> Option<(axum::body::Bytes, Body)> {
    // The head was read already (peeked); take it out of the socket.
    if !take_head(tcp, asked.head_len) {
        return None;
    }
    let Ok(response) = router.oneshot(asked.request).await;
    Some(response_head(response))
}

/// Writes a live stream's answer: its `head`, then each piece of `body` as it comes, until
/// the body ends, the client goes away, or a write makes no progress for `write_timeout`.
async fn write_stream(
    mut tcp: TcpStream,
    head: axum::body::Bytes,
    body: Body,
    write_timeout: Duration,
) {
    let mut body = body.into_data_stream();
    let mut next = Some(head);
    // What the client sends after its request (nothing, normally) is read and dropped; a read
    // of nothing is the client closing.
    let mut sink = [0u8; 64];
    loop {
        if let Some(bytes) = next.take() {
            match tokio::time::timeout(write_timeout, tcp.write_all(&bytes)).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => return,
            }
        }
        tokio::select! {
            biased;
            // Polled rather than awaited as `readable()`: no waiter to queue on each event.
            readable = std::future::poll_fn(|cx| tcp.poll_read_ready(cx)) => {
                if readable.is_err() {
                    return;
                }
                match tcp.try_read(&mut sink) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(_) => return,
                }
            }
            piece = body.next() => match piece {
                Some(Ok(bytes)) => next = Some(bytes),
                Some(Err(_)) | None => return,
            },
        }
    }
}

/// The status line and headers of `response`, for a body that runs to the end of the
/// connection (or has the length it says), and its body.
fn response_head(response: Response<Body>) -> (axum::body::Bytes, Body) {
    let (parts, body) = response.into_parts();
    let mut head = Vec::with_capacity(512);
    let status = parts.status;
    let _ = write!(
        head,
        "HTTP/1.1 {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    );
    if !parts.headers.contains_key(header::DATE) {
        // As hyper does: an origin server with a clock dates its answers (RFC 9110).
        let now = httpdate::fmt_http_date(std::time::SystemTime::now());
        let _ = write!(head, "date: {now}\r\n");
    }
    for (name, value) in &parts.headers {
        if name == header::CONNECTION || name == header::TRANSFER_ENCODING {
            continue;
        }
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    if !parts.headers.contains_key(header::CONTENT_LENGTH)
        && let Some(length) = axum::body::HttpBody::size_hint(&body).exact()
    {
        let _ = write!(head, "content-length: {length}\r\n");
    }
    head.extend_from_slice(b"connection: close\r\n\r\n");
    (head.into(), body)
}

/// The address a request came from, as the socket says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub SocketAddr);

impl Peer {
    /// The client's address: the socket's, or behind a proxy on a loopback or private
    /// address, the last hop the proxy added to `X-Forwarded-For` (the one it saw itself;
    /// earlier entries are whatever the client claimed).
    pub fn client(&self, forwarded_for: Option<&str>) -> IpAddr {
        let peer = self.0.ip();
        let behind_proxy = match peer {
            IpAddr::V4(v4) => v4.is_loopback() || v4.is_private(),
            IpAddr::V6(v6) => v6.is_loopback() || v6.is_unique_local(),
        };
        if behind_proxy
            && let Some(last) = forwarded_for.and_then(|list| list.rsplit(',').next())
            && let Ok(client) = last.trim().parse::<IpAddr>()
        {
            return client;
        }
        peer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_live_stream_request_is_answered_here_with_its_headers() {
        let head = "GET /g/ab12/live?lang=zh HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 7\r\n\r\n";
        let asked = stream_request(format!("{head}more").as_bytes()).expect("a stream");
        assert_eq!(asked.head_len, head.len());
        assert_eq!(asked.request.uri(), "/g/ab12/live?lang=zh");
        assert_eq!(asked.request.version(), Version::HTTP_11);
        assert_eq!(asked.request.headers()["last-event-id"], "7");
    }

    #[test]
    fn anything_but_a_whole_live_stream_request_goes_to_hyper() {
        for head in [
            "GET /g/ab12 HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /g/ab12/state HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /g/ab12/board/live HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /g//live HTTP/1.1\r\nHost: x\r\n\r\n",
            "HEAD /g/ab12/live HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /g/ab12/live HTTP/1.1\r\nHost: x\r\n\r\n",
            // Not all there yet.
            "GET /g/ab12/live HTTP/1.1\r\nHost: x\r\n",
            "GET /g/ab12/li",
            "",
            "not http at all\r\n\r\n",
        ] {
            assert!(stream_request(head.as_bytes()).is_none(), "{head:?}");
        }
    }

    #[test]
    fn a_response_head_ends_the_body_with_the_connection_or_says_its_length() {
        let stream = Response::new(Body::from_stream(futures_util::stream::empty::<
            Result<axum::body::Bytes, std::convert::Infallible>,
        >()));
        let (head, _) = response_head(stream);
        let head = String::from_utf8_lossy(&head).into_owned();
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert!(head.ends_with("connection: close\r\n\r\n"), "{head}");
        assert!(!head.contains("content-length"), "{head}");
        assert!(head.contains("\r\ndate: "), "{head}");
        let refused = Response::builder()
            .status(429)
            .header(header::RETRY_AFTER, "30")
            .body(Body::from("Too many"))
            .expect("a response");
        let (head, _) = response_head(refused);
        let head = String::from_utf8_lossy(&head).into_owned();
        assert!(
            head.starts_with("HTTP/1.1 429 Too Many Requests\r\n"),
            "{head}"
        );
        assert!(
            head.contains("retry-after: 30\r\ncontent-length: 8\r\n"),
            "{head}"
        );
    }

    #[test]
    fn a_proxy_on_a_private_address_names_the_client_in_its_last_hop() {
        let proxy = Peer("10.0.0.2:4000".parse().expect("address"));
        assert_eq!(
            proxy.client(Some("6.6.6.6, 203.0.113.9")),
            "203.0.113.9".parse::<IpAddr>().expect("address")
        );
        assert_eq!(proxy.client(Some("not an address")), proxy.0.ip());
        assert_eq!(proxy.client(None), proxy.0.ip());
    }

    #[test]
    fn a_public_peer_cannot_claim_another_address() {
        let client = Peer("198.51.100.7:4000".parse().expect("address"));
        assert_eq!(client.client(Some("203.0.113.9")), client.0.ip());
    }
}
