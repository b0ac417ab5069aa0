//! The server on a real socket: what reaches it below HTTP (bytes hyper
//! cannot read, slow and idle clients, too many connections) is answered
//! or closed, never held.

use std::time::Duration;

use solved_engine::TableStore;
use solved_web::{AppState, Limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server on a free port with `limits`; it stops when the test ends.
async fn server(limits: Limits) -> (std::net::SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(TableStore::new(dir.path()));
    tokio::spawn(solved_web::serve(listener, state, limits, std::future::pending()));
    (addr, dir)
}

/// Sends `request` and reads the answer until the server closes (or 5 s).
async fn exchange(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

fn json_error(answer: &str, status: &str) {
    assert!(answer.starts_with(&format!("HTTP/1.1 {status} ")), "{answer}");
    assert!(answer.to_ascii_lowercase().contains("content-type: application/json"), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"));
    assert!(json["error"].is_string(), "{answer}");
}

#[tokio::test]
async fn what_hyper_cannot_read_is_answered_as_json() {
    let (addr, _dir) = server(Limits::default()).await;
    json_error(&exchange(addr, b"GET /api/games\xff\xfe HTTP/1.1\r\nhost: x\r\n\r\n").await, "400");
    let long = format!("GET /api/games?{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(70_000));
    json_error(&exchange(addr, long.as_bytes()).await, "431");
    let many = format!("GET /api/games HTTP/1.1\r\n{}\r\n", "x-a: b\r\n".repeat(2000));
    json_error(&exchange(addr, many.as_bytes()).await, "431");
    let chunked = b"GET /api/games HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
    json_error(&exchange(addr, chunked).await, "413");
    // A good request on the same server is answered as ever.
    let answer = exchange(addr, b"GET /api/games HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
}

#[tokio::test]
async fn slow_and_idle_clients_are_let_go() {
    let limits = Limits { head_timeout: Duration::from_millis(300), ..Limits::default() };
    let (addr, _dir) = server(limits).await;
    // What the server says before it closes the connection; what is
    // checked is that it closes it. The bound only keeps a broken server
    // from holding the test for ever.
    let closed = |request: &'static [u8]| async move {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(request).await.unwrap();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut answer)).await;
        assert!(matches!(read, Ok(Ok(_))), "the server keeps the connection open");
        String::from_utf8_lossy(&answer).into_owned()
    };
    // Half a head, then nothing: closed, unanswered.
    let answer = closed(b"GET /api/games HTTP/1.1\r\nhost:").await;
    assert!(!answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A whole request, then the connection kept alive and idle: answered,
    // then closed.
    let answer = closed(b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
}

#[tokio::test]
async fn connections_past_the_limit_are_told_so() {
    let limits = Limits { connections: 2, ..Limits::default() };
    let (addr, _dir) = server(limits).await;
    let held = [TcpStream::connect(addr).await.unwrap(), TcpStream::connect(addr).await.unwrap()];
    tokio::time::sleep(Duration::from_millis(100)).await;
    json_error(&exchange(addr, b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n").await, "503");
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = exchange(addr, b"GET /api/games HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "room again once they close: {answer}");
}

#[tokio::test]
async fn a_client_that_closes_its_side_gets_every_answer() {
    let (addr, _dir) = server(Limits::default()).await;
    for count in [1, 100] {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let request = b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n".repeat(count);
        stream.write_all(&request).await.unwrap();
        stream.shutdown().await.unwrap();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer)).await;
        assert!(matches!(read, Ok(Ok(_))), "the answers end");
        let answers = String::from_utf8_lossy(&answer).matches("HTTP/1.1 200 ").count();
        assert_eq!(answers, count, "{count} requests sent before the client closed its side");
    }
}

#[tokio::test]
async fn odd_but_readable_heads_are_answered_and_the_rest_refused_as_json_at_once() {
    let limits = Limits { head_timeout: Duration::from_secs(60), ..Limits::default() };
    let (addr, _dir) = server(limits).await;
    // Lines that end in a bare LF: a request all the same.
    let answer = exchange(addr, b"GET /api/games HTTP/1.1\nhost: x\nconnection: close\n\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    // Not HTTP, with no blank line to end it: refused at once, not after
    // the minute the server would wait for the rest of a head.
    let began = std::time::Instant::now();
    json_error(&exchange(addr, b"hello there, server\r\n").await, "400");
    assert!(began.elapsed() < Duration::from_secs(30), "answered before the head timeout");
    for lengths in ["content-length: 2\r\ncontent-length: 3", "content-length: +2"] {
        let request = format!("GET /api/games HTTP/1.1\r\nhost: x\r\n{lengths}\r\n\r\nokk");
        json_error(&exchange(addr, request.as_bytes()).await, "400");
    }
}

#[tokio::test]
async fn one_address_may_hold_only_so_many_connections() {
    let limits = Limits { per_client: 2, ..Limits::default() };
    let (addr, _dir) = server(limits).await;
    let held = [TcpStream::connect(addr).await.unwrap(), TcpStream::connect(addr).await.unwrap()];
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = exchange(addr, b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n").await;
    json_error(&answer, "503");
    assert!(answer.contains("from your address"), "{answer}");
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = exchange(addr, b"GET /api/games HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "room again once they close: {answer}");
}
