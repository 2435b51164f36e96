//! What the stepping threads know of the cores: how many this process may use (the
//! engine's [`yokai_septet::usable_cores`]: its CPU affinity and its cgroup's CPU quota),
//! whether the machine has more runnable threads than cores, and how long this thread was
//! kept off a core.
//!
//! Two counts, on purpose:
//! - **The process's cores** ([`usable_cores`]) bound how many stepping threads may poll
//!   at once and whether a pass is worth sharing at all. `/proc/stat` and `/proc/loadavg`
//!   see neither a `taskset` mask nor a container's CPU quota; the engine's reading sees
//!   both. Under a quota, a poller burns the quota every thread of the process shares, so
//!   with one core's worth no stepping thread polls, and a pass runs on the calling thread
//!   alone.
//! - **The machine's runnable threads against the machine's cores**
//!   ([`excess_runnable`]): `/proc/loadavg` counts the host's runnable threads, so it is
//!   compared with the host's cores, not the process's (other containers' threads run on
//!   other cores than ours, and are in the count). It answers whether the machine as a
//!   whole is short of cores; the process's own shortage under a quota shows as this
//!   thread's run delay ([`own_run_delay`]: a throttled thread stays queued, so the time
//!   its cgroup was throttled counts there too).

use std::sync::OnceLock;
use std::time::Duration;

#[cfg(test)]
use yokai_septet::usable_cores;

/// How many more threads are runnable on the machine than it has cores (this one
/// included): that many runnable threads wait for a core a poller may hold.
#[cfg(target_os = "linux")]
pub(super) fn excess_runnable() -> usize {
    static HOST_CPUS: OnceLock<usize> = OnceLock::new();
    let cpus = *HOST_CPUS
        .get_or_init(|| std::fs::read_to_string("/proc/stat").map_or(0, |s| host_cpus(&s)));
    read_small("/proc/loadavg").map_or(0, |text| excess(&text, cpus))
}

#[cfg(not(target_os = "linux"))]
pub(super) fn excess_runnable() -> usize {
    0
}

/// The machine's cores, from `/proc/stat`'s text (one `cpuN` line each).
fn host_cpus(stat: &str) -> usize {
    stat.lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count()
}

/// Runnable threads beyond `cpus`, from `/proc/loadavg`'s text ("0.20 0.18 0.12 3/80
/// 11206": the fourth field is runnable/all threads); 0 where it cannot be read.
fn excess(loadavg: &str, cpus: usize) -> usize {
    let running = loadavg
        .split_ascii_whitespace()
        .nth(3)
        .and_then(|f| f.split('/').next())
        .and_then(|r| r.parse::<usize>().ok());
    match running {
        Some(r) if cpus > 0 => r.saturating_sub(cpus),
        _ => 0,
    }
}

/// This thread's total time spent runnable but not running (the second field of
/// `/proc/thread-self/schedstat`), where the kernel keeps it.
#[cfg(target_os = "linux")]
pub(super) fn own_run_delay() -> Option<Duration> {
    let text = read_small("/proc/thread-self/schedstat")?;
    run_delay(&text)
}

#[cfg(not(target_os = "linux"))]
pub(super) fn own_run_delay() -> Option<Duration> {
    None
}

/// The run delay of a `schedstat` line ("run ns, wait ns, slices").
fn run_delay(schedstat: &str) -> Option<Duration> {
    let ns = schedstat
        .split_ascii_whitespace()
        .nth(1)?
        .parse::<u64>()
        .ok()?;
    Some(Duration::from_nanos(ns))
}

/// A small text file (a `/proc` line) read into a stack buffer.
#[cfg(target_os = "linux")]
fn read_small(path: &str) -> Option<String> {
    use std::io::Read;
    let mut buf = [0u8; 128];
    let mut f = std::fs::File::open(path).ok()?;
    let n = f.read(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_cores_are_its_affinity_and_quota_not_the_machine() {
        let cores = usable_cores();
        assert!(cores >= 1);
        #[cfg(target_os = "linux")]
        {
            // Never more than the machine has, nor than the affinity mask allows.
            let machine = std::fs::read_to_string("/proc/stat").map_or(0, |s| host_cpus(&s));
            assert!(machine == 0 || cores <= machine, "{cores} > {machine}");
            let allowed = std::fs::read_to_string("/proc/self/status")
                .ok()
                .and_then(|s| {
                    let line = s.lines().find(|l| l.starts_with("Cpus_allowed_list:"))?;
                    Some(cpu_list_len(line.split_once(':')?.1.trim()))
                });
            if let Some(allowed) = allowed {
                assert!(cores <= allowed, "{cores} cores, affinity allows {allowed}");
            }
        }
    }

    /// How many cores a list such as `0-3,8,10-11` names.
    fn cpu_list_len(list: &str) -> usize {
        list.split(',')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('-') {
                Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                None => 1,
            })
            .sum()
    }

    #[test]
    fn runnable_threads_beyond_the_machine_cores_are_excess() {
        let stat = "cpu  1 2 3\ncpu0 1 2 3\ncpu1 4 5 6\nintr 7\nctxt 8\n";
        assert_eq!(host_cpus(stat), 2);
        assert_eq!(excess("0.20 0.18 0.12 3/80 11206\n", 2), 1);
        assert_eq!(excess("0.20 0.18 0.12 2/80 11206\n", 2), 0);
        assert_eq!(excess("0.20 0.18 0.12 9/80 11206\n", 0), 0, "no core count");
        assert_eq!(excess("garbage", 2), 0);
    }

    #[test]
    fn the_run_delay_is_the_second_schedstat_field() {
        assert_eq!(
            run_delay("123456 7890 12\n"),
            Some(Duration::from_nanos(7890))
        );
        assert_eq!(run_delay("123456\n"), None);
        #[cfg(target_os = "linux")]
        assert!(own_run_delay().is_some(), "the kernel keeps schedstat");
    }
}
