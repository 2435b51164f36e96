//! The accept loop: hyper's HTTP/1 connections, each with a header read timeout (a client
//! that sends its headers slowly is cut), at most [`CONNECTIONS_PER_CLIENT`] open at once
//! from one address, on a runtime of two request threads and `--workers` blocking threads
//! (the bots' and the solver's; see `bots.rs`). `axum::serve` has neither limit, so the
//! loop is hyper's own, as axum's is.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

use super::{router, ServeOptions};

/// The connections one client address may hold open at once (a browser opens about six;
/// every local script shares 127.0.0.1, and the load test opens 100). One more is closed
/// at once.
pub const CONNECTIONS_PER_CLIENT: usize = 128;

/// How long a client may take to send a request's headers (then its connection is cut).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest read buffer of a connection (hyper's floor is 8 KiB; headers larger than
/// this are refused).
const READ_BUFFER: usize = 64 * 1024;

/// The open connections of each client address.
#[derive(Clone, Default)]
struct Clients(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One open connection, counted against its address until dropped.
struct Slot {
    clients: Clients,
    ip: IpAddr,
}

impl Clients {
    /// A slot for a connection from `ip`, or `None` when it holds its cap already.
    fn open(&self, ip: IpAddr) -> Option<Slot> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= CONNECTIONS_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(Slot {
            clients: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.clients.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Serves until Ctrl-C: prints the URL on `out` (and a warning on `err` when the address
/// is not loopback). Requests name only the built-in bots (and the models of
/// `opts.models`), within `opts.max_think`.
pub fn serve(
    opts: &ServeOptions,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    return_large_blocks();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Every blocking task is a worker's job (`bots.rs` takes a permit first): the
        // blocking threads never grow with the requests.
        .max_blocking_threads(opts.workers.max(1))
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(opts.host, opts.port)).await?;
        let addr = listener.local_addr()?;
        // The router checks that `Host` names the port it listens on.
        let app = router(&ServeOptions {
            port: addr.port(),
            ..opts.clone()
        })
        .map_err(std::io::Error::other)?;
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
        let clients = Clients::default();
        let stop = tokio::signal::ctrl_c();
        tokio::pin!(stop);
        loop {
            let (stream, peer) = tokio::select! {
                _ = &mut stop => break,
                accepted = listener.accept() => match accepted {
                    Ok(a) => a,
                    // Out of file descriptors and the like: wait, then go on.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let Some(slot) = clients.open(peer.ip()) else {
                drop(stream);
                continue;
            };
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(app.clone());
            tokio::spawn(async move {
                let _slot = slot;
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .max_buf_size(READ_BUFFER)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
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
