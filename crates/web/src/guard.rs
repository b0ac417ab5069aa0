//! A gate in front of hyper on every connection: each request head is read
//! whole and checked before hyper sees a byte of it, so that what hyper
//! would refuse with an empty answer (a request line too long, bytes that
//! are not HTTP, too many headers) and what must not reach a handler (a
//! body the server does not take) is refused with a JSON answer instead.
//!
//! The server takes no request body: every endpoint is a `GET`. A head that
//! announces a body larger than [`MAX_BODY`], or one of unknown length
//! (chunked), is refused. A body within the bound is passed on untouched
//! (the router answers it, with 405 for a method no route takes).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The longest request head read: a request line and headers.
pub(crate) const MAX_HEAD: usize = 16 * 1024;
/// The most headers a request may have.
pub(crate) const MAX_HEADERS: usize = 64;
/// The largest request body passed on (no endpoint reads one).
pub(crate) const MAX_BODY: u64 = 16 * 1024;

/// Why a request head is refused: a status and what to say.
#[derive(Debug, Eq, PartialEq)]
pub(crate) struct Refusal {
    status: u16,
    reason: &'static str,
    message: String,
}

impl Refusal {
    fn new(status: u16, reason: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { status, reason, message: message.into() }
    }

    /// The whole answer, as bytes on the wire; the connection closes after.
    fn to_bytes(&self) -> Vec<u8> {
        let body = json!({ "error": self.message }).to_string();
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            self.status,
            self.reason,
            body.len()
        )
        .into_bytes()
    }
}

/// What one complete head says for the gate: how many body bytes follow,
/// or why it is refused.
fn check(head: &[u8]) -> Result<u64, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(Refusal::new(400, "Bad Request", "an incomplete request head")),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Refusal::new(
                431,
                "Request Header Fields Too Large",
                format!("more than {MAX_HEADERS} headers in one request"),
            ));
        }
        Err(error) => return Err(Refusal::new(400, "Bad Request", format!("not an HTTP/1 request ({error})"))),
    }
    let path = request.path.unwrap_or_default();
    if !path.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Refusal::new(
            400,
            "Bad Request",
            "the request target has bytes that are not printable ASCII: percent-encode them",
        ));
    }
    let mut length = None;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Refusal::new(413, "Payload Too Large", "request bodies are not taken (chunked or otherwise)"));
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            // Digits only: a sign or a space inside is how two readers of
            // one request come to disagree on where it ends.
            let digits = header.value.trim_ascii();
            let value = (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
                .then(|| std::str::from_utf8(digits).ok()?.parse::<u64>().ok())
                .flatten()
                .ok_or_else(|| Refusal::new(400, "Bad Request", "a content-length that is not a number"))?;
            if length.is_some_and(|earlier| earlier != value) {
                return Err(Refusal::new(400, "Bad Request", "two content-lengths that differ"));
            }
            length = Some(value);
        }
    }
    let length = length.unwrap_or(0);
    if length > MAX_BODY {
        return Err(Refusal::new(413, "Payload Too Large", format!("request body over {MAX_BODY} bytes")));
    }
    Ok(length)
}

/// Where the head at the start of `bytes` ends, just past its blank line:
/// lines may end in a bare LF, as HTTP/1.1 lets a server accept.
fn head_end(bytes: &[u8]) -> Option<usize> {
    let mut line_start = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        if byte == b'\n' {
            let line = &bytes[line_start..at];
            if line.is_empty() || line == b"\r" {
                return Some(at + 1);
            }
            line_start = at + 1;
        }
    }
    None
}

/// The refusal of an unfinished head that cannot become a request, if it
/// is one: its first line is already not a request line.
fn not_http(partial: &[u8]) -> Option<Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    match httparse::Request::new(&mut headers).parse(partial) {
        Err(httparse::Error::TooManyHeaders) | Ok(_) => None,
        Err(error) => Some(Refusal::new(400, "Bad Request", format!("not an HTTP/1 request ({error})"))),
    }
}

/// Where the gate is in the stream of requests.
enum State {
    /// Gathering a head; `pending` holds what has come of it so far.
    Head,
    /// Passing on a checked head and this many bytes of its body.
    Passing { body: u64 },
    /// A head was refused: hyper gets what came before it, then the end of
    /// the stream; the refusal is written when hyper closes the connection,
    /// after its last answer, so that the two never mix.
    Refused { answer: Vec<u8>, written: usize },
}

/// A connection's stream, gated (see the module docs).
pub(crate) struct Guard<S> {
    inner: S,
    state: State,
    /// Bytes read from the client and not yet handed to hyper.
    pending: Vec<u8>,
    /// How much of `pending` is a checked head (or body) hyper may have.
    passable: usize,
}

impl<S> Guard<S> {
    pub(crate) fn new(inner: S) -> Guard<S> {
        Guard { inner, state: State::Head, pending: Vec::new(), passable: 0 }
    }

    fn refuse(&mut self, refusal: Refusal) {
        tracing::debug!(status = refusal.status, message = %refusal.message, "request refused at the door");
        self.pending.truncate(self.passable);
        self.state = State::Refused { answer: refusal.to_bytes(), written: 0 };
    }

    /// Moves through whatever `pending` holds: heads checked, bodies
    /// counted. Returns a refusal if a head is refused.
    fn advance(&mut self) -> Option<Refusal> {
        loop {
            match self.state {
                State::Head => {
                    let unchecked = &self.pending[self.passable..];
                    // Blank lines between requests are allowed.
                    let start = unchecked.iter().position(|&b| b != b'\r' && b != b'\n').unwrap_or(unchecked.len());
                    let Some(end) = head_end(&unchecked[start..]).map(|end| start + end) else {
                        if unchecked.len() - start > MAX_HEAD {
                            return Some(Refusal::new(
                                431,
                                "Request Header Fields Too Large",
                                format!("a request head over {MAX_HEAD} bytes"),
                            ));
                        }
                        // What is not HTTP is refused as soon as it shows,
                        // not after the wait for a head that never ends.
                        return not_http(&unchecked[start..]);
                    };
                    if end - start > MAX_HEAD {
                        return Some(Refusal::new(
                            431,
                            "Request Header Fields Too Large",
                            format!("a request head over {MAX_HEAD} bytes"),
                        ));
                    }
                    match check(&unchecked[start..end]) {
                        Ok(body) => {
                            self.passable += end;
                            self.state = State::Passing { body };
                        }
                        Err(refusal) => return Some(refusal),
                    }
                }
                State::Passing { body } => {
                    let left = (self.pending.len() - self.passable) as u64;
                    let taken = left.min(body);
                    self.passable += taken as usize;
                    if taken < body {
                        self.state = State::Passing { body: body - taken };
                        return None;
                    }
                    self.state = State::Head;
                    if self.passable == self.pending.len() {
                        return None;
                    }
                }
                State::Refused { .. } => return None,
            }
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for Guard<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.passable > 0 {
                let n = this.passable.min(out.remaining());
                out.put_slice(&this.pending[..n]);
                this.pending.drain(..n);
                this.passable -= n;
                return Poll::Ready(Ok(()));
            }
            if let State::Refused { .. } = this.state {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 4096];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // The client closed: hyper sees the end of what it sent.
                return Poll::Ready(Ok(()));
            }
            this.pending.extend_from_slice(read.filled());
            if let Some(refusal) = this.advance() {
                this.refuse(refusal);
            }
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Guard<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bytes: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, bytes)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let State::Refused { answer, written } = &mut this.state {
            while *written < answer.len() {
                *written += ready!(Pin::new(&mut this.inner).poll_write(cx, &answer[*written..]))?;
            }
            ready!(Pin::new(&mut this.inner).poll_flush(cx))?;
        }
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// What hyper would read through the gate from `sent`, and what the
    /// client would get back from the gate itself.
    async fn through(sent: &[u8]) -> (Vec<u8>, String) {
        let (client, server) = tokio::io::duplex(1 << 20);
        let (mut client_read, mut client_write) = tokio::io::split(client);
        client_write.write_all(sent).await.unwrap();
        client_write.shutdown().await.unwrap();
        let mut passed = Vec::new();
        let mut guard = Guard::new(server);
        guard.read_to_end(&mut passed).await.unwrap();
        // As hyper does once the stream has ended and its answers are out.
        guard.shutdown().await.unwrap();
        let mut answer = Vec::new();
        client_read.read_to_end(&mut answer).await.unwrap();
        (passed, String::from_utf8(answer).unwrap())
    }

    #[tokio::test]
    async fn good_requests_pass_untouched_and_in_order() {
        let two = b"GET /api/games HTTP/1.1\r\nhost: x\r\n\r\n\r\nGET / HTTP/1.1\r\ncontent-length: 3\r\n\r\nabcGET /x HTTP/1.1\r\n\r\n";
        let (passed, answer) = through(two).await;
        assert_eq!(passed, two);
        assert_eq!(answer, "");
    }

    #[tokio::test]
    async fn bad_heads_get_a_json_answer_and_nothing_passes() {
        let long_line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(70_000));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "x-a: b\r\n".repeat(2000));
        let cases: [(Vec<u8>, &str); 5] = [
            (long_line.into_bytes(), "431"),
            (b"GET /\xff\xfe HTTP/1.1\r\n\r\n".to_vec(), "400"),
            (many.into_bytes(), "431"),
            (b"GET / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".to_vec(), "413"),
            (b"GET / HTTP/1.1\r\ncontent-length: 99999\r\n\r\n".to_vec(), "413"),
        ];
        for (sent, status) in cases {
            let (passed, answer) = through(&sent).await;
            assert!(passed.is_empty(), "nothing reaches hyper");
            assert!(answer.starts_with(&format!("HTTP/1.1 {status} ")), "{answer}");
            let body = answer.split("\r\n\r\n").nth(1).unwrap();
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(json["error"].is_string(), "{body}");
        }
    }

    #[tokio::test]
    async fn lines_ending_in_a_bare_lf_make_a_request() {
        let sent = b"GET /api/games HTTP/1.1\nhost: x\n\n";
        let (passed, answer) = through(sent).await;
        assert_eq!(passed, sent);
        assert_eq!(answer, "");
    }

    #[tokio::test]
    async fn what_is_not_http_is_refused_before_its_head_ends() {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (mut client_read, mut client_write) = tokio::io::split(client);
        // No blank line, and the client keeps the connection open.
        client_write.write_all(b"hello there, server\r\n").await.unwrap();
        let mut guard = Guard::new(server);
        let mut passed = Vec::new();
        guard.read_to_end(&mut passed).await.unwrap();
        guard.shutdown().await.unwrap();
        let mut answer = vec![0; 12];
        client_read.read_exact(&mut answer).await.unwrap();
        assert_eq!(answer, b"HTTP/1.1 400");
        assert!(passed.is_empty());
    }

    #[tokio::test]
    async fn lengths_that_readers_could_take_differently_are_refused() {
        for head in [
            "GET / HTTP/1.1\r\ncontent-length: +5\r\n\r\nhello",
            "GET / HTTP/1.1\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello!",
            "GET / HTTP/1.1\r\ncontent-length: 0x5\r\n\r\nhello",
        ] {
            let (passed, answer) = through(head.as_bytes()).await;
            assert!(passed.is_empty(), "{head:?}");
            assert!(answer.starts_with("HTTP/1.1 400 ") && answer.contains(r#"{"error":"#), "{answer}");
        }
        let same = b"GET / HTTP/1.1\r\ncontent-length: 2\r\ncontent-length: 2\r\n\r\nok";
        assert_eq!(through(same).await.0, same);
    }

    #[tokio::test]
    async fn a_refused_head_after_a_good_one_passes_the_first_only() {
        let sent = b"GET /a HTTP/1.1\r\n\r\nGET /\x01 HTTP/1.1\r\n\r\n";
        let (passed, answer) = through(sent).await;
        assert_eq!(passed, b"GET /a HTTP/1.1\r\n\r\n");
        assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
    }
}
