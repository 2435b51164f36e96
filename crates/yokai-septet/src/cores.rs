//! The cores this process may use, the one reading every layer sizes its threads by (the
//! bots' decision threads, the arenas' and the web table's workers, the vector env's pool).
//!
//! A container's CPU quota (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` /
//! `cpu.cfs_period_us`) or a `taskset` mask leaves the process fewer cores than the
//! machine has; `std::thread::available_parallelism` reads both on Linux (the affinity
//! mask, then each cgroup quota up the hierarchy, rounded down, at least 1), so it is the
//! one source.

use std::sync::OnceLock;

/// The cores this process may use: its affinity mask and its cgroup CPU quota, as
/// `std::thread::available_parallelism` reads them (at least 1). Read once per process, so
/// that every layer sizes its threads by the same count: a quota changed later is not seen.
pub fn usable_cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
