//! The binary on a real terminal: stdin, stdout and stderr are one pseudo-terminal, as when
//! a person types the README's main command. (The console script gets the same treatment,
//! subcommand by subcommand, in tests/python/test_cli_terminal.py.) A hang fails the test
//! at its deadline instead of stalling the suite.
#![cfg(unix)]

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs the binary on a fresh pseudo-terminal; returns (exit code, everything it showed).
fn on_terminal(args: &[&str], deadline: Duration) -> (i32, String) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two new descriptors into the two ints; null name/termios/size
    // pointers are allowed.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty failed");
    // SAFETY: both descriptors were just opened and are owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut child = Command::new(env!("CARGO_BIN_EXE_yokai-septet"))
        .args(args)
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut screen = Vec::new();
        let mut master = File::from(master);
        let mut buf = [0u8; 1 << 16];
        // Reading ends with EIO once the child (the terminal's last other user) has exited.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            screen.extend_from_slice(&buf[..n]);
        }
        tx.send(screen).ok();
    });
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        if start.elapsed() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!(
                "`yokai-septet {}` hung on a terminal for {deadline:?}",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let screen = rx.recv_timeout(Duration::from_secs(10)).unwrap_or_default();
    (code, String::from_utf8_lossy(&screen).into_owned())
}

/// Runs `command` (words between single spaces, as typed) on a fresh pseudo-terminal,
/// expects it to exit with 0 and returns everything it showed.
fn finishes_on_terminal(command: &str, deadline: Duration) -> String {
    let args: Vec<&str> = command.split(' ').collect();
    let (code, screen) = on_terminal(&args, deadline);
    assert_eq!(code, 0, "`yokai-septet {command}` failed: {screen}");
    screen
}

/// Fails, with the whole screen in the message, unless the screen shows every one of
/// `shown` and none of `absent`.
fn assert_screen(screen: &str, shown: &[&str], absent: &[&str]) {
    for text in shown {
        assert!(
            screen.contains(text),
            "{text:?} is not on the screen: {screen}"
        );
    }
    for text in absent {
        assert!(
            !screen.contains(text),
            "{text:?} is on the screen: {screen}"
        );
    }
}

#[test]
fn the_main_command_shows_its_progress_bar_and_finishes_on_a_terminal() {
    let screen = finishes_on_terminal(
        "arena --variant 4p --bots heuristic,random --games 4000 --threads 0",
        Duration::from_secs(120),
    );
    assert_screen(
        &screen,
        &[
            // The progress bar and the summary.
            "/4000 games",
            "games/s",
            // Before the games: what will be played, and a calibration: each bot's time
            // per decision (in a unit that keeps its digits) and a game's length.
            "arena 4p: 4000 games of heuristic vs random on ",
            " (per decision heuristic ",
            // One estimate, on the bar (revised there in place).
            ", about ",
            " in all]",
        ],
        &[
            // The calibration keeps its digits.
            "0.00 ms",
            // The estimate is never a second one on a line of its own.
            "roughly",
            "judging by the first",
        ],
    );
}

/// `ladder` on a terminal: its plan, the estimate, a bar for the whole ladder and one for
/// the pairing in progress, then the table.
#[test]
fn the_ladder_shows_its_plan_and_a_bar_per_pairing_on_a_terminal() {
    let screen = finishes_on_terminal(
        "ladder --bots random,heuristic,pimc:4 --games 30 --max-rounds 3",
        Duration::from_secs(180),
    );
    assert_screen(
        &screen,
        &[
            "ladder 4p: 3 pairings × 30 games = 90 games on ",
            // The overall bar, with the estimate on it.
            "/90 games",
            " in all]",
            "pimc:4 ",
            // The bar of the pairing in progress.
            "random vs heuristic",
            "pairing 3/3 done: heuristic vs pimc:4",
            "| rank | bot | Elo |",
        ],
        // Pairings go at different speeds: no estimate from the first games.
        &["judging by the first"],
    );
}

#[test]
fn replay_bench_and_rules_finish_on_a_terminal() {
    let screen = finishes_on_terminal("bench --seconds 0.02", Duration::from_secs(60));
    assert_screen(&screen, &["decisions/s"], &[]);
    let screen = finishes_on_terminal("rules", Duration::from_secs(30));
    // Set for the terminal: a coloured heading, no Markdown marks.
    assert_screen(
        &screen,
        &["\x1b[1;36mR6. Winning a trick"],
        &["## R6", "|---"],
    );
    let (code, screen) = on_terminal(&["replay", "no-such-file.json"], Duration::from_secs(30));
    assert_eq!(code, 2, "{screen}");
    assert_screen(&screen, &["cannot read"], &[]);
}

/// `analyze` on a terminal: a bar with an ETA over the plays, cleared before the report.
#[test]
fn analyze_shows_its_progress_on_a_terminal() {
    let rec = format!(
        "{}/../yokai-septet/tests/golden/4p_seed1.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, screen) = on_terminal(
        &["analyze", &rec, "--budget", "300000"],
        Duration::from_secs(300),
    );
    assert_eq!(code, 0, "{screen}");
    // The progress bar, then the report.
    assert_screen(&screen, &[" plays [", "analyze ", "Per seat"], &[]);
}
