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
    let mut length = 0u64;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Refusal::new(413, "Payload Too Large", "request bodies are not taken (chunked or otherwise)"));
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            let value = std::str::from_utf8(header.value).ok().and_then(|v| v.trim().parse::<u64>().ok());
            length = value.ok_or_else(|| Refusal::new(400, "Bad Request", "a content-length that is not a number"))?;
        }
    }
    if length > MAX_BODY {
        return Err(Refusal::new(413, "Payload Too Large", format!("request body over {MAX_BODY} bytes")));
    }
    Ok(length)
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
                    let Some(end) = unchecked.windows(4).position(|w| w == b"\r\n\r\n") else {
                        if unchecked.len() - start > MAX_HEAD {
                            return Some(Refusal::new(
                                431,
                                "Request Header Fields Too Large",
                                format!("a request head over {MAX_HEAD} bytes"),
                            ));
                        }
                        return None;
                    };
                    if end + 4 - start > MAX_HEAD {
                        return Some(Refusal::new(
                            431,
                            "Request Header Fields Too Large",
                            format!("a request head over {MAX_HEAD} bytes"),
                        ));
                    }
                    match check(&unchecked[start..end + 4]) {
                        Ok(body) => {
                            self.passable += end + 4;
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
    async fn a_refused_head_after_a_good_one_passes_the_first_only() {
        let sent = b"GET /a HTTP/1.1\r\n\r\nGET /\x01 HTTP/1.1\r\n\r\n";
        let (passed, answer) = through(sent).await;
        assert_eq!(passed, b"GET /a HTTP/1.1\r\n\r\n");
        assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
    }
}
