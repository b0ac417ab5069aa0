//! The accept loop: HTTP/1 connections with the limits a server reachable
//! by others needs.
//!
//! `axum::serve` gives no access to hyper's connection settings, so this
//! loop sets them itself ([`Limits`]): a connection that does not send a
//! whole request head in time (a slow client, or an idle keep-alive one) is
//! closed; only so many are open at once, and from one address, the next
//! one being told so; a client that closes its side still gets its
//! answers; and
//! every connection goes through the [`Guard`], which answers what hyper
//! would refuse without a body.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use crate::guard::{Guard, MAX_HEADERS};

/// What connections may take.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// How long a client has to send a whole request head, counted from
    /// when the server is ready for it: a slow client, or an idle
    /// keep-alive connection, is closed after that.
    pub head_timeout: Duration,
    /// The most connections open at once; file handles are finite.
    pub connections: usize,
    /// The most of them from one address, so that one client reconnecting
    /// as fast as it can does not keep the others out.
    pub per_client: usize,
}

impl Default for Limits {
    /// Ten seconds for a request head, 1,024 connections, 64 from one
    /// address.
    fn default() -> Limits {
        Limits { head_timeout: Duration::from_secs(10), connections: 1024, per_client: 64 }
    }
}

/// How long the requests in flight get to finish once the server stops.
const DRAIN: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `stop` completes, then lets the
/// requests in flight finish (for a while).
///
/// # Errors
///
/// If the listener fails for good.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.connections));
    let clients = Arc::new(Mutex::new(HashMap::new()));
    let (closing, closed) = watch::channel(false);
    let mut stop = pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file handles, say: wait a little for some to close.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tracing::warn!(%peer, "refused: {} connections are open", limits.connections);
            tokio::spawn(refuse(stream, "the server has too many connections open; try again shortly"));
            continue;
        };
        let Some(client) = Client::arrive(&clients, peer.ip(), limits.per_client) else {
            tracing::warn!(%peer, "refused: {} connections are open from its address", limits.per_client);
            tokio::spawn(refuse(stream, "too many connections are open from your address; try again shortly"));
            continue;
        };
        let (app, mut closed) = (app.clone(), closed.clone());
        tokio::spawn(async move {
            let service =
                TowerToHyperService::new(app.map_request(|request: Request<Incoming>| request.map(Body::new)));
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                // A client may send its request and close its side: it
                // still gets its answers.
                .half_close(true)
                .header_read_timeout(limits.head_timeout)
                .max_headers(MAX_HEADERS)
                .serve_connection(TokioIo::new(Guard::new(stream)), service);
            let mut connection = pin!(connection);
            loop {
                tokio::select! {
                    result = connection.as_mut() => {
                        if let Err(error) = result {
                            tracing::debug!(%peer, %error, "connection ended");
                        }
                        break;
                    }
                    _ = closed.changed() => connection.as_mut().graceful_shutdown(),
                }
            }
            drop((permit, client));
        });
    }
    let _ = closing.send(true);
    // Every permit back means every connection is done.
    let _ = tokio::time::timeout(DRAIN, permits.acquire_many(limits.connections as u32)).await;
    Ok(())
}

/// The connections open from each address.
type Clients = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// One connection counted against its address while it is open.
struct Client {
    clients: Clients,
    address: IpAddr,
}

impl Client {
    /// Counts a connection from `address`, unless `most` are open from it.
    fn arrive(clients: &Clients, address: IpAddr, most: usize) -> Option<Client> {
        let mut open = clients.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(address).or_default();
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(Client { clients: clients.clone(), address })
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let mut open = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// Tells a client the server has no room for it, and closes: after reading
/// what it sent (for a second at most), so that the close is not a reset
/// that could lose the answer.
async fn refuse(mut stream: TcpStream, message: &str) {
    let body = serde_json::json!({ "error": message }).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let mut sent = [0u8; 4096];
        // The request head, if it comes at once.
        let _ = tokio::time::timeout(Duration::from_millis(100), stream.read(&mut sent)).await;
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        while stream.read(&mut sent).await? > 0 {}
        io::Result::Ok(())
    })
    .await;
}
