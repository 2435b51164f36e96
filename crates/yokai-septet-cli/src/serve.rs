//! `yokai-septet serve`: the flags of the local web app ([`yokai_septet_web`]) and their checks.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::Failure;
use yokai_septet_web::ServeError;

#[derive(Args)]
pub(super) struct ServeArgs {
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The address to listen on. Anything but loopback exposes the games to the network
    /// (there is no login), and a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// The most games the server holds at once.
    #[arg(long, default_value_t = yokai_septet_web::MAX_GAMES)]
    max_games: usize,
    /// The longest a bot decision, a hint or a review may run, in milliseconds: a bot
    /// name whose budget is over it (or over the count derived from it) is refused.
    #[arg(long, default_value_t = yokai_septet_web::MAX_THINK_MS)]
    max_think_ms: u64,
    /// Bot moves, hints and reviews running at once, at most (default: the cores this
    /// process may use); a few more wait, and beyond them the answer is 503.
    #[arg(long)]
    workers: Option<usize>,
    /// A game untouched this many minutes is dropped.
    #[arg(long, default_value_t = yokai_septet_web::IDLE_MINUTES)]
    idle_minutes: u64,
    /// A folder of trained models: each .safetensors file directly inside it (checked
    /// once, at start) becomes the bot nn:NAME, NAME its file name without .safetensors.
    /// Requests name no other file.
    #[arg(long, value_name = "DIR")]
    models: Option<PathBuf>,
    /// Connections open at once, at most, from every client together (default: what the
    /// process's file descriptors allow, up to 4096). When all are open, the one idle
    /// longest is closed for the newcomer.
    #[arg(long)]
    max_connections: Option<usize>,
}

/// Runs the server. It takes no bot registry: it runs the built-in bots only, so the
/// console script's `module:function` policies are never imported from a request.
pub(super) fn serve_cmd(
    a: ServeArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    if a.max_games == 0 {
        return Err(Failure::usage("--max-games must be at least 1"));
    }
    if a.max_think_ms == 0 || a.idle_minutes == 0 || a.workers == Some(0) {
        return Err(Failure::usage(
            "--max-think-ms, --workers and --idle-minutes must be at least 1",
        ));
    }
    let max_connections = a
        .max_connections
        .unwrap_or_else(yokai_septet_web::default_max_connections);
    if !(16..=yokai_septet_web::MAX_CONNECTIONS).contains(&max_connections) {
        return Err(Failure::usage(format!(
            "--max-connections must be between 16 and {}",
            yokai_septet_web::MAX_CONNECTIONS
        )));
    }
    let workers = a.workers.unwrap_or_else(yokai_septet::usable_cores);
    let opts = yokai_septet_web::ServeOptions {
        host: a.host,
        port: a.port,
        max_games: a.max_games,
        max_think: Duration::from_millis(a.max_think_ms),
        workers,
        queue: 2 * workers,
        idle: Duration::from_secs(60 * a.idle_minutes),
        models: a.models,
        max_connections,
    };
    yokai_septet_web::serve(&opts, out, err).map_err(|e| match e {
        // A bad --models folder is a usage error, found before the server listens.
        ServeError::Models(why) => Failure::usage(why),
        ServeError::Io(e) => Failure::runtime(format!("serve on {}:{}: {e}", a.host, a.port)),
    })
}
