//! The accept loop: hyper's HTTP/1 connections, at most `max_connections` open at once
//! (by default what the process's file descriptors allow, up to [`MAX_CONNECTIONS`]); when
//! they are all open, the one that has waited longest for a whole request is closed for
//! the newcomer. A connection that sends no request for [`HEADER_TIMEOUT`] (an idle
//! keep-alive one, or one that sends its headers slowly) is cut. It runs on a runtime of
//! two request threads and `--workers` blocking threads (the bots' and the solver's; see
//! `bots.rs`). `axum::serve` has none of this, so the loop is hyper's own, as axum's is.
//!
//! There is no cap per client address: on loopback every local process is the same
//! address, so such a cap let any local program lock the person's page out by holding
//! idle connections (issue 64).
//!
//! Which connection the cap closes: one that is not answering a request. A request is
//! answered once all of it has arrived, headers and body; until then its connection is
//! still waiting for it, exactly as an idle one is, and the one that has waited longest
//! (since it opened, or since its last answer) goes first. A person's page sends each
//! request whole at once, so its connections are either answering (never closed) or the
//! youngest waiting; another program that holds connections with a request's headers,
//! or its body, trickling in holds only the oldest waiting ones (issue 72: a body that
//! had begun used to count as answered, so such connections were spared and the
//! person's were closed instead).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::Notify;

use super::render::RENDER_THREADS;
use super::{AppState, ServeOptions};

/// The most connections open at once, whatever the file descriptors allow (each holds
/// its buffers, some kilobytes).
pub const MAX_CONNECTIONS: usize = 4096;

/// The file descriptors kept back from connections: the listener, the runtime's, the
/// standard streams, and the connections being closed.
const FDS_KEPT: usize = 64;

/// How long a connection may go without sending a whole request's headers: an idle
/// keep-alive connection (hyper's timer starts as it waits for the next request) or one
/// that sends its headers slowly is then cut. A browser opens a new one when it needs it.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// The largest read buffer of a connection (hyper's floor is 8 KiB; headers larger than
/// this are refused).
const READ_BUFFER: usize = 64 * 1024;

/// The default cap on open connections: the process's file descriptors (its soft
/// `RLIMIT_NOFILE`) less the few kept back (`FDS_KEPT`), at most [`MAX_CONNECTIONS`], at
/// least 16.
pub fn default_max_connections() -> usize {
    fd_limit()
        .map_or(MAX_CONNECTIONS, |n| n.saturating_sub(FDS_KEPT))
        .clamp(16, MAX_CONNECTIONS)
}

/// The soft limit on this process's file descriptors, where the system says it.
#[allow(unsafe_code)]
fn fd_limit() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes the limit into `lim`, a valid `rlimit`.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0;
        if ok && lim.rlim_cur != libc::RLIM_INFINITY {
            return usize::try_from(lim.rlim_cur).ok();
        }
    }
    None
}

/// One open connection, as the accept loop sees it.
struct Conn {
    /// Its requests being answered now: arrived whole, their answers not yet given.
    in_flight: AtomicUsize,
    /// Since when it has waited for a whole request: when it opened, or when its last
    /// answer was given (milliseconds since the loop started).
    last: AtomicU64,
    /// Told when the loop closes it for a newcomer.
    close: Notify,
}

/// The open connections, and which to close when there are too many.
struct Connections {
    cap: usize,
    start: Instant,
    open: Mutex<(u64, HashMap<u64, Arc<Conn>>)>,
}

/// A connection's place in [`Connections`], given up when its task ends.
struct Slot {
    table: Arc<Connections>,
    id: u64,
    conn: Arc<Conn>,
}

impl Connections {
    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A place for a new connection: when all `cap` are taken, the one that has waited
    /// longest for a whole request (none being answered: idle, or its request's headers
    /// or body still arriving) is told to close and gives its place up; when every one is
    /// answering a request, `None` (the newcomer is closed).
    fn open(self: &Arc<Self>) -> Option<Slot> {
        let mut guard = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (next, open) = &mut *guard;
        if open.len() >= self.cap {
            let (&victim, _) = open
                .iter()
                .filter(|(_, c)| c.in_flight.load(Ordering::Acquire) == 0)
                .min_by_key(|(_, c)| c.last.load(Ordering::Acquire))?;
            if let Some(c) = open.remove(&victim) {
                c.close.notify_one();
            }
        }
        let conn = Arc::new(Conn {
            in_flight: AtomicUsize::new(0),
            last: AtomicU64::new(self.now()),
            close: Notify::new(),
        });
        *next += 1;
        open.insert(*next, conn.clone());
        Some(Slot {
            table: self.clone(),
            id: *next,
            conn,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut guard = self.table.open.lock().unwrap_or_else(|e| e.into_inner());
        guard.1.remove(&self.id);
    }
}

/// A request on a connection, from its headers to its answer. Until its body has all
/// arrived the connection still waits for a request (it may be closed for a newcomer, as
/// an idle one may); from then until its answer is given it is answering (spared).
struct Busy {
    conn: Arc<Conn>,
    table: Arc<Connections>,
    /// Whether the whole request has arrived (and `conn.in_flight` counts it).
    answering: AtomicBool,
}

impl Busy {
    fn start(slot: &Slot) -> Arc<Busy> {
        Arc::new(Busy {
            conn: slot.conn.clone(),
            table: slot.table.clone(),
            answering: AtomicBool::new(false),
        })
    }

    /// The request has all arrived: it is being answered.
    fn arrived(&self) {
        if !self.answering.swap(true, Ordering::AcqRel) {
            self.conn.in_flight.fetch_add(1, Ordering::AcqRel);
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.conn.last.store(self.table.now(), Ordering::Release);
        if self.answering.load(Ordering::Acquire) {
            self.conn.in_flight.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// A request's body as hyper reads it, which tells its [`Busy`] when the last of it has
/// arrived.
struct Watched {
    body: Incoming,
    busy: Arc<Busy>,
}

impl Watched {
    fn new(body: Incoming, busy: Arc<Busy>) -> Watched {
        if body.is_end_stream() {
            busy.arrived();
        }
        Watched { body, busy }
    }
}

impl Body for Watched {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) || self.body.is_end_stream() {
            self.busy.arrived();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Why [`serve`] stopped without serving, or stopped early.
#[derive(Debug)]
pub enum ServeError {
    /// A model of `--models` cannot be used (the message says which and why): found
    /// before the server listens.
    Models(String),
    /// Listening, answering or printing failed.
    Io(std::io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Models(why) => f.write_str(why),
            ServeError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Models(_) => None,
            ServeError::Io(e) => Some(e),
        }
    }
}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> ServeError {
        ServeError::Io(e)
    }
}

/// Serves until Ctrl-C: prints the URL on `out` (and a warning on `err` when the address
/// is not loopback). Requests name only the built-in bots (and the models of
/// `opts.models`, each read once, before the server listens), within `opts.max_think`.
pub fn serve(
    opts: &ServeOptions,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> Result<(), ServeError> {
    let state = AppState::new(opts).map_err(ServeError::Models)?;
    return_large_blocks();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Every blocking task is a worker's job or a render (`bots.rs` and `render.rs`
        // take a permit first): the blocking threads never grow with the requests.
        .max_blocking_threads(opts.workers.max(1) + RENDER_THREADS)
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(opts.host, opts.port)).await?;
        let addr = listener.local_addr()?;
        // The router checks that `Host` names the port it listens on.
        let app = AppState::router(state, addr.port());
        if !opts.host.is_loopback() {
            writeln!(
                err,
                "warning: listening on {}, not loopback only: anyone who can reach this \
                 address can play and end games on this server (there is no login)",
                opts.host
            )?;
        }
        let shown = if opts.host.is_unspecified() || opts.host.is_loopback() {
            format!("127.0.0.1:{}", addr.port())
        } else {
            addr.to_string()
        };
        writeln!(
            out,
            "Yokai Septet: http://{shown}/  (Ctrl-C stops the server)"
        )?;
        out.flush()?;
        let table = Arc::new(Connections {
            cap: opts.max_connections.max(1),
            start: Instant::now(),
            open: Mutex::new((0, HashMap::new())),
        });
        let stop = tokio::signal::ctrl_c();
        tokio::pin!(stop);
        loop {
            let stream = tokio::select! {
                _ = &mut stop => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    // Out of file descriptors and the like: wait, then go on.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let Some(slot) = table.open() else {
                drop(stream);
                continue;
            };
            let _ = stream.set_nodelay(true);
            let app = TowerToHyperService::new(app.clone());
            tokio::spawn(async move {
                let slot = Arc::new(slot);
                let counted = slot.clone();
                let app = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                    let busy = Busy::start(&counted);
                    let answer = app.call(req.map(|body| Watched::new(body, busy.clone())));
                    async move {
                        let answer = answer.await;
                        drop(busy);
                        answer
                    }
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .max_buf_size(READ_BUFFER)
                    .serve_connection(TokioIo::new(stream), app);
                // Closed for a newcomer: dropped (it has no request being answered).
                tokio::select! {
                    _ = conn => {}
                    _ = slot.conn.close.notified() => {}
                }
            });
        }
        Ok::<(), std::io::Error>(())
    })?;
    // A decision still running ends within --max-think-ms; the process does not wait.
    runtime.shutdown_timeout(Duration::from_millis(200));
    writeln!(out, "Server stopped.")?;
    Ok(())
}

/// Makes every allocation of 1 MiB or more its own mapping, returned to the system when
/// freed. A search bot's tables (a solver's are megabytes) live for one decision; glibc's
/// default raises this threshold to the size of the blocks freed, after which such tables
/// come from each thread's heap and stay in the server's RSS.
#[allow(unsafe_code)]
fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets an allocator parameter; called before any thread of the
    // server starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
