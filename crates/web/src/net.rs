//! The listening socket: every connection gets a write timeout, so a client that stops
//! reading (its socket buffer full) is dropped instead of holding its stream forever, and
//! each request learns the address it came from.

use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::IncomingStream;
use tokio::net::{TcpListener, TcpStream};
use tokio_io_timeout::TimeoutStream;

/// A TCP listener whose connections fail a write that makes no progress for `write_timeout`.
#[derive(Debug)]
pub struct WebListener {
    tcp: TcpListener,
    write_timeout: Duration,
    send_buffer: usize,
}

impl WebListener {
    /// Wraps a bound listener. Each connection's kernel send buffer is `send_buffer` bytes:
    /// bounded, so a client that stops reading is noticed after that much, and ten thousand
    /// spectators cannot each grow one to megabytes.
    pub fn new(tcp: TcpListener, write_timeout: Duration, send_buffer: usize) -> WebListener {
        WebListener {
            tcp,
            write_timeout,
            send_buffer,
        }
    }
}

impl axum::serve::Listener for WebListener {
    type Io = Pin<Box<TimeoutStream<TcpStream>>>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            match self.tcp.accept().await {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(self.send_buffer);
                    let mut stream = TimeoutStream::new(stream);
                    stream.set_write_timeout(Some(self.write_timeout));
                    return (Box::pin(stream), peer);
                }
                Err(e) => {
                    // Out of file descriptors, mostly: wait for some to be given back.
                    tracing::warn!("the web page could not accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

/// The address a request came from, as the socket says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub SocketAddr);

impl Connected<IncomingStream<'_, WebListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, WebListener>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

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
