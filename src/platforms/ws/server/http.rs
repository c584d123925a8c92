//! Plain HTTP on the match server's port, for spectators: a connection
//! whose request is not a WebSocket upgrade is answered here, one request
//! per connection, read-only (GET and HEAD; anything else is 405).
//!
//! | path | answer |
//! |---|---|
//! | `/` | the page listing the games in progress and the last finished ones |
//! | `/game/ID` | the live page of one game (the replay page's drawing code) |
//! | `/api/games` | the list as JSON |
//! | `/api/game/ID?have=K` | the positions of game ID from the K-th on; waits up to [`LONG_POLL`] for a new one |
//!
//! The pages load nothing from the network: their scripts and styles are
//! inline, and their Content-Security-Policy lets them talk only to this
//! server.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::spectate::Poll;
use super::{shutdown_signal, Shared};

/// Largest request head read (bigger ones are answered 431).
pub(crate) const MAX_HEAD: usize = 8192;
/// How long a poll for a new position waits before answering "nothing new".
pub(crate) const LONG_POLL: Duration = Duration::from_secs(15);

/// What the first bytes of a connection are.
#[derive(Debug, PartialEq)]
pub(crate) enum Sniffed {
    /// A WebSocket upgrade, or not HTTP at all: the WebSocket handshake
    /// decides (nothing was read from the stream).
    WebSocket,
    /// A plain HTTP request whose head is the first `len` bytes.
    Http { request: Request, len: usize },
    /// A head over [`MAX_HEAD`] bytes.
    TooBig,
    /// Closed before a whole head arrived.
    Closed,
    /// No whole head within the time allowed.
    TimedOut,
}

/// A plain HTTP request line.
#[derive(Debug, PartialEq)]
pub(crate) struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
}

/// Looks at what the client sent, without reading it, until its request
/// head is whole (or `limit` passes).
pub(crate) async fn sniff(stream: &TcpStream, limit: Duration) -> Sniffed {
    let mut buf = vec![0u8; MAX_HEAD];
    let until = tokio::time::Instant::now() + limit;
    loop {
        let n = match tokio::time::timeout_at(until, stream.peek(&mut buf)).await {
            Ok(Ok(n)) => n,
            Ok(Err(_)) => return Sniffed::Closed,
            Err(_) => return Sniffed::TimedOut,
        };
        if n == 0 {
            return Sniffed::Closed;
        }
        match classify(&buf[..n]) {
            Some(s) => return s,
            None if n == MAX_HEAD => return Sniffed::TooBig,
            // More of the head is on its way: peek again shortly (a peek
            // is ready at once while unread bytes wait).
            None => {
                if tokio::time::Instant::now() >= until {
                    return Sniffed::TimedOut;
                }
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    }
}

/// Decides from the bytes so far; `None`: the head is not whole yet.
pub(crate) fn classify(bytes: &[u8]) -> Option<Sniffed> {
    // Not an HTTP request line: let the WebSocket handshake refuse it.
    let method_len = bytes.iter().position(|&b| b == b' ').unwrap_or(bytes.len());
    if !bytes[..method_len].iter().all(u8::is_ascii_uppercase) || method_len > 10 {
        return Some(Sniffed::WebSocket);
    }
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = String::from_utf8_lossy(&bytes[..end]);
    let mut lines = head.split("\r\n");
    let first = lines.next().unwrap_or_default();
    let upgrade = lines.any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("upgrade") && v.trim().eq_ignore_ascii_case("websocket")
        })
    });
    if upgrade {
        return Some(Sniffed::WebSocket);
    }
    let mut parts = first.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    Some(Sniffed::Http {
        request: Request {
            method,
            path: path.to_string(),
            query: query.to_string(),
        },
        len: end,
    })
}

struct Response {
    status: &'static str,
    content_type: &'static str,
    body: String,
}

impl Response {
    fn new(status: &'static str, content_type: &'static str, body: String) -> Self {
        Response {
            status,
            content_type,
            body,
        }
    }
    fn text(status: &'static str, body: &str) -> Self {
        Response::new(status, "text/plain; charset=utf-8", format!("{body}\n"))
    }
    fn html(body: String) -> Self {
        Response::new("200 OK", "text/html; charset=utf-8", body)
    }
    fn json(body: String) -> Self {
        Response::new("200 OK", "application/json", body)
    }
}

/// Answers the request that [`sniff`] found, then closes the connection.
pub(crate) async fn answer(shared: &Shared, mut stream: TcpStream, request: Request, len: usize) {
    // Take the head off the stream (a GET has no body to read).
    let mut head = vec![0u8; len];
    if stream.read_exact(&mut head).await.is_err() {
        return;
    }
    let head_only = request.method == "HEAD";
    let response = route(shared, &request).await;
    let csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'";
    let mut out = format!(
        "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: {csp}\r\n{}Connection: close\r\n\r\n",
        response.status,
        response.content_type,
        response.body.len(),
        if response.status.starts_with("405") {
            "Allow: GET, HEAD\r\n"
        } else {
            ""
        },
    )
    .into_bytes();
    if !head_only {
        out.extend_from_slice(response.body.as_bytes());
    }
    let write = async {
        stream.write_all(&out).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), write).await;
}

async fn route(shared: &Shared, r: &Request) -> Response {
    if r.method != "GET" && r.method != "HEAD" {
        return Response::text(
            "405 Method Not Allowed",
            "spectators may only look: GET and HEAD",
        );
    }
    let limit_ms = shared.config.clock.time_per_move_ms;
    match r.path.as_str() {
        "/" | "/index.html" => Response::html(crate::report::live::list_page()),
        "/api/games" => Response::json(shared.spectators.list()),
        p => {
            if let Some(id) = p.strip_prefix("/game/") {
                return match shared.spectators.kind_of(id) {
                    Some(kind) => {
                        Response::html(crate::report::live::game_page(id, kind, limit_ms))
                    }
                    None => Response::text("404 Not Found", "no such game (it may be too old)"),
                };
            }
            if let Some(id) = p.strip_prefix("/api/game/") {
                let have = query_usize(&r.query, "have").unwrap_or(0);
                return match poll(shared, id, have).await {
                    Poll::Answer(body) => Response::json(body),
                    Poll::Unknown => Response::text("404 Not Found", "no such game"),
                };
            }
            Response::text("404 Not Found", "not found")
        }
    }
}

fn query_usize(query: &str, key: &str) -> Option<usize> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.parse().ok())
}

/// Game `id` from position `have` on: at once if there is something new
/// (or the game is over or unknown), else when there is, within
/// [`LONG_POLL`] or the server's shutdown.
async fn poll(shared: &Shared, id: &str, have: usize) -> Poll {
    let mut changed = shared.spectators.subscribe();
    let mut shutdown = shared.shutdown.clone();
    let until = tokio::time::Instant::now() + LONG_POLL;
    loop {
        match shared.spectators.progress(id) {
            Some((states, over)) if states <= have && !over => {}
            _ => return shared.spectators.poll(id, have),
        }
        tokio::select! {
            r = changed.changed() => if r.is_err() { break },
            _ = tokio::time::sleep_until(until) => break,
            _ = shutdown_signal(&mut shutdown) => break,
        }
    }
    shared.spectators.poll(id, have)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(bytes: &[u8]) -> Option<Sniffed> {
        classify(bytes)
    }

    #[test]
    fn plain_requests_are_told_from_upgrades() {
        let get = b"GET /api/game/x-1?have=3 HTTP/1.1\r\nHost: a\r\n\r\n";
        assert_eq!(
            http(get),
            Some(Sniffed::Http {
                request: Request {
                    method: "GET".into(),
                    path: "/api/game/x-1".into(),
                    query: "have=3".into()
                },
                len: get.len()
            })
        );
        let ws = b"GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: WebSocket\r\n\r\n";
        assert_eq!(http(ws), Some(Sniffed::WebSocket));
        // Not whole yet.
        assert_eq!(http(b"GET / HTTP/1.1\r\nHost: a\r\n"), None);
        // Not HTTP: the WebSocket handshake refuses it as before.
        assert_eq!(http(b"\x16\x03\x01hello"), Some(Sniffed::WebSocket));
        assert_eq!(http(b"hello world\r\n\r\n"), Some(Sniffed::WebSocket));
        assert_eq!(query_usize("a=1&have=12", "have"), Some(12));
        assert_eq!(query_usize("have=x", "have"), None);
    }
}
