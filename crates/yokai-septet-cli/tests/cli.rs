//! End-to-end tests of the `yokai-septet` command-line tool: `play` driven by scripted
//! input, `replay` of saved and tampered records, `bench`, and the binary itself.

use std::cell::RefCell;
use std::io::{BufReader, Cursor, Read, Write};
use std::process::{Command, Stdio};
use std::rc::Rc;

use yokai_septet::{GameConfig, Match, State, Variant};
use yokai_septet_bots::BotRegistry;
use yokai_septet_cli::play::{play, PlayEnd, PlayOptions};
use yokai_septet_cli::{run_with, Style};
use yokai_septet_picture::replay_html;

/// Runs the tool in-process; returns (exit code, stdout, stderr).
fn cli(args: &[&str], input: &str) -> (i32, String, String) {
    let mut argv = vec!["yokai-septet"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run_with(
        argv,
        &BotRegistry::new(),
        &mut Cursor::new(input.to_string()),
        &mut out,
        &mut err,
        Style::PLAIN,
    );
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("yokai-cli-{}-{name}", std::process::id()))
}

/// Always typing `1` (the first card the player may choose) plays whole games.
#[test]
fn a_whole_game_by_always_typing_1() {
    for (variant, rounds) in [("4p", "0"), ("3p", "0"), ("seal-short", "2"), ("seal", "1")] {
        let path = tmp(&format!("{variant}.json"));
        let input = "1\n".repeat(5000);
        let (code, out, err) = cli(
            &[
                "play",
                "--variant",
                variant,
                "--seed",
                "3",
                "--max-rounds",
                rounds,
                "--save",
                path.to_str().unwrap(),
            ],
            &input,
        );
        assert_eq!(code, 0, "{variant}: {err}");
        assert!(
            out.contains("Game over") || out.contains("round cap"),
            "{variant}: {out}"
        );
        assert!(out.contains("Round 0 over"), "{out}");
        assert!(out.contains("Why: "), "{out}");
        assert!(!out.contains("\x1b["), "plain output has no colours");
        let m = Match::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(m.state().is_over());
        // Every line fits an 80-column terminal.
        for line in out.lines() {
            assert!(line.chars().count() <= 80, "{variant}: too wide: {line}");
        }
        std::fs::remove_file(path).ok();
    }
}

/// A shared buffer: the game writes the transcript into it, the scripted player reads it.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A player that reads the transcript and types card codes: the first card shown with a
/// number; once, in play, first a card shown without one (an illegal card).
struct CodeTyper {
    transcript: Shared,
    tried_illegal: bool,
    lines: usize,
}

impl Read for CodeTyper {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.lines += 1;
        if self.lines > 5000 {
            return Ok(0);
        }
        let text = String::from_utf8(self.transcript.0.borrow().clone()).unwrap();
        let at = text
            .rfind("Your hand")
            .expect("a hand is shown before each prompt");
        let hand: Vec<&str> = text[at..]
            .lines()
            .skip(1)
            .take_while(|l| !l.ends_with("> "))
            .collect();
        let (mut numbered, mut unnumbered) = (Vec::new(), Vec::new());
        for line in hand {
            for cell in line.as_bytes().chunks(7) {
                let cell = std::str::from_utf8(cell).unwrap();
                if cell.len() < 4 {
                    continue;
                }
                let (num, code) = (cell[..3].trim(), cell[3..].trim());
                if code.is_empty() {
                    continue;
                }
                if num.is_empty() {
                    unnumbered.push(code)
                } else {
                    numbered.push(code)
                }
            }
        }
        let playing = text.trim_end().ends_with("Play>");
        let code = match unnumbered.first() {
            Some(c) if playing && !self.tried_illegal => {
                self.tried_illegal = true;
                c.to_string()
            }
            _ => numbered.first().expect("some card is playable").to_string(),
        };
        let line = format!("{}\n", code.to_lowercase());
        buf[..line.len()].copy_from_slice(line.as_bytes());
        Ok(line.len())
    }
}

#[test]
fn a_whole_game_by_typing_codes_with_an_illegal_card_rejected() {
    for variant in [Variant::FourPlayer, Variant::ThreePlayer] {
        let out = Shared::default();
        let mut input = BufReader::new(CodeTyper {
            transcript: out.clone(),
            tried_illegal: false,
            lines: 0,
        });
        let mut opts = PlayOptions::new(variant, 11);
        opts.seat = Some(1);
        opts.bots = Some(vec!["random".into()]);
        let end = play(&opts, &BotRegistry::new(), &mut input, &mut out.clone())
            .unwrap_or_else(|f| panic!("{}", f.message));
        let text = String::from_utf8(out.0.borrow().clone()).unwrap();
        assert_eq!(end, PlayEnd::GameOver, "{text}");
        assert!(input.get_ref().tried_illegal);
        assert!(text.contains("You cannot play"), "{text}");
        assert!(text.contains("you must follow"), "{text}");
    }
}

#[test]
fn wrong_input_gets_a_message_and_a_new_prompt() {
    let (code, out, _) = cli(
        &["play", "--seed", "0"],
        "xx\n99\n0\nS13 WA F7 E2\n?\n\n1\n1\nq\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("'xx' is not a card code"), "{out}");
    assert!(out.contains("There is no card number 99"), "{out}");
    assert!(out.contains("There is no card number 0"), "{out}");
    assert!(out.contains("left to pass; you named 4"), "{out}");
    assert!(out.contains("Type a card code"), "help: {out}");
    // 9 lines typed, every one answered by a prompt, plus the prompt after the 2 picks.
    assert!(out.matches("Pass> ").count() >= 8, "{out}");
    assert!(out.contains("You already chose") || out.contains("You left the game"));
    let (_, out, _) = cli(&["play", "--seed", "0"], "1\n1\n");
    assert!(out.contains("(picked: "), "{out}");
    // The same card twice in one line: nothing was chosen before, so it must not say so.
    let (_, out, _) = cli(&["play", "--seed", "0"], "1 1\nq\n");
    assert!(out.contains("twice"), "{out}");
    assert!(!out.contains("You already chose"), "{out}");
    assert!(!out.contains("(picked: "), "nothing was picked: {out}");
    // A card chosen at an earlier prompt is named as chosen.
    let (_, out, _) = cli(&["play", "--seed", "0"], "1\n1 1\nq\n");
    let first = out.split("You will pass ").nth(1).unwrap()[..3]
        .trim()
        .to_string();
    let first = first.trim_end_matches(' ');
    let (_, out2, _) = cli(&["play", "--seed", "0"], &format!("1\n{first}\nq\n"));
    assert!(
        out2.contains(&format!("You already chose {first} to pass.")),
        "{first}: {out2}"
    );
    // Counts are plural only when they are not 1.
    let (_, out, _) = cli(&["play", "--seed", "0"], "1\n1\n1 2\nq\n");
    assert!(out.contains("You have 1 card left to pass"), "{out}");
}

/// `hint BOT` asks the named bot (the guided search, say); an unknown name is refused
/// with the registry's error and the game goes on.
#[test]
fn hint_asks_the_bot_it_is_given() {
    let (code, out, _) = cli(
        &["play", "--seed", "3"],
        "1\n1\n1\nhint ismcts-nn:50\nhint ismcts-nn:50\nhint nosuch\nhint heuristic\nq\n",
    );
    assert_eq!(code, 0);
    let hints: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Hint (ismcts-nn:50, 50 searches): play "))
        .collect();
    assert_eq!(hints.len(), 2, "{out}");
    assert_eq!(hints[0], hints[1]);
    assert!(out.contains("No hint: unknown bot 'nosuch'"), "{out}");
    // A bot that does not search gives its card only.
    assert!(out.contains("Hint (heuristic): play "), "{out}");
}

#[test]
fn hint_shows_the_strongest_bots_card_and_its_evaluation() {
    let (code, out, _) = cli(
        &["play", "--seed", "3"],
        "hint\n1\n1\n1\nhint\nhint\n?\nq\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("Hint: pass "), "{out}");
    let at = out.find("Hint (ismcts, 5000 searches): play ").expect(&out);
    let line = out[at..].lines().next().unwrap();
    // The hinted card is one the player may play: the hand marks those with a number.
    let card = line
        .rsplit("play ")
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let hand_at = out[..at].rfind("Your hand").unwrap();
    let shown: Vec<&str> = out[hand_at..at]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("Play>"))
        .flat_map(str::split_whitespace)
        .collect();
    let numbered: Vec<&str> = shown
        .windows(2)
        .filter(|w| w[0].chars().all(|c| c.is_ascii_digit()))
        .map(|w| w[1])
        .collect();
    assert!(
        numbered.contains(&card),
        "{card} is not playable ({numbered:?}):\n{}",
        &out[hand_at..]
    );
    // The page's scale (round points, the value times the target), in its words.
    assert!(
        out.contains(
            "  value in round points: our score - theirs, +0.7 round won, +/-7 game won/lost"
        ),
        "{out}"
    );
    // The same position gets the same hint.
    let hints: Vec<&str> = out.lines().filter(|l| l.starts_with("Hint (")).collect();
    assert_eq!(hints.len(), 2);
    assert_eq!(hints[0], hints[1]);
    assert!(out.contains("`hint`"), "help lists hint: {out}");
    for l in out.lines().filter(|l| {
        l.starts_with("Hint") || l.starts_with("  next best") || l.starts_with("  value")
    }) {
        assert!(l.chars().count() <= 80, "too wide: {l}");
    }
}

#[test]
fn closed_input_exits_cleanly_and_saves() {
    let path = tmp("closed.json");
    let (code, out, err) = cli(
        &["play", "--variant", "3p", "--save", path.to_str().unwrap()],
        "1\n2\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "Input closed: leaving the game. It is saved in {}",
            path.display()
        )),
        "{out}"
    );
    let m = Match::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(!m.state().is_over());
    assert_eq!(
        m.record().rounds[0].passes[0].len(),
        2,
        "the two picks are recorded"
    );
    std::fs::remove_file(path).ok();
    // Quitting saves too.
    let path = tmp("quit.json");
    let (code, out, _) = cli(&["play", "--save", path.to_str().unwrap()], "quit\n");
    assert_eq!(code, 0);
    assert!(out.contains("You left the game."));
    assert!(Match::from_json(&std::fs::read_to_string(&path).unwrap()).is_ok());
    std::fs::remove_file(path).ok();
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        vec!["play", "--seat", "4"],
        vec!["play", "--variant", "5p"],
        vec!["play", "--bots", "random,heuristic"],
        vec!["play", "--bots", "alpha"],
        vec!["play", "--scoring", "hard"],
        vec!["bench", "--seconds", "0"],
        vec!["replay", "/nonexistent/record.json"],
        // Found before the server listens (on port 8000 here).
        vec!["serve", "--models", "/nonexistent/models"],
    ] {
        let (code, _, err) = cli(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
    let (code, out, _) = cli(&["--help"], "");
    assert_eq!(code, 0);
    for cmd in ["play", "replay", "bench", "arena", "ladder"] {
        assert!(out.contains(cmd), "{out}");
    }
}

/// Before the first trick the human sees only its own hand and what it received.
#[test]
fn play_shows_only_what_the_seat_may_know() {
    let (_, out, _) = cli(&["play", "--seed", "5"], "1\n1\n1\nq\n");
    let before_play = &out[..out.find("Cards exchanged").unwrap()];
    let s = State::new(GameConfig::new(Variant::FourPlayer, 5));
    for seat in 1..4 {
        for c in s.hand(seat) {
            let code = c.to_string();
            let shown = before_play
                .split(|ch: char| !ch.is_alphanumeric())
                .any(|w| w == code);
            assert!(
                !shown,
                "seat {seat}'s {code} is shown to seat 0:\n{before_play}"
            );
        }
    }
}

#[test]
fn replay_prints_a_saved_record_and_rejects_a_tampered_one() {
    let path = tmp("replay.json");
    let input = "1\n".repeat(2000);
    let (code, _, _) = cli(
        &["play", "--seed", "2", "--save", path.to_str().unwrap()],
        &input,
    );
    assert_eq!(code, 0);
    let p = path.to_str().unwrap();
    let (code, out, err) = cli(&["replay", p], "");
    assert_eq!(code, 0, "{err}");
    for needle in [
        "Round 0 · trump",
        "leads",
        "trick  1:",
        "→ seat",
        "Round over:",
        "points",
        "Game over:",
    ] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
    // Rounds are counted from 0, as `Game.round` and the record's `rounds` list count them.
    let (code, one, _) = cli(&["replay", p, "--round", "0"], "");
    assert_eq!(code, 0);
    assert!(one.contains("Round 0") && !one.contains("Round 1"), "{one}");
    let (code, _, err) = cli(&["replay", p, "--round", "99"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("counted from 0"), "{err}");

    let mut rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let w = rec["rounds"][0]["tricks"][0]["winner"].as_u64().unwrap();
    rec["rounds"][0]["tricks"][0]["winner"] = ((w + 1) % 4).into();
    std::fs::write(&path, rec.to_string()).unwrap();
    let (code, out, err) = cli(&["replay", p], "");
    assert_eq!(code, 2);
    assert!(
        out.is_empty(),
        "nothing is printed from a bad record: {out}"
    );
    assert!(err.contains("rounds[0].tricks[0].winner"), "{err}");
    std::fs::write(&path, "{not json").unwrap();
    let (code, _, err) = cli(&["replay", p], "");
    assert_eq!(code, 2);
    assert!(err.contains("not valid JSON"), "{err}");
    std::fs::remove_file(path).ok();
}

#[test]
fn bench_runs_quickly_with_a_tiny_budget() {
    let (code, out, err) = cli(&["bench", "--seconds", "0.01"], "");
    assert_eq!(code, 0, "{err}");
    for v in Variant::ALL {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{}:", v.name())))
            .unwrap();
        assert!(line.contains("decisions/s wall"), "{line}");
        assert!(line.contains("decisions/s CPU"), "{line}");
    }
    let (code, out, _) = cli(&["bench", "--seconds", "0.01", "--variant", "3p"], "");
    assert_eq!(code, 0);
    assert_eq!(out.lines().filter(|l| l.contains("decisions/s")).count(), 1);
}

/// The real binary: scripted stdin (not a terminal) means no colours; input closing mid-game
/// is a clean exit.
#[test]
fn the_binary_plays_with_piped_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yokai-septet"))
        .args(["play", "--variant", "3p", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1\n1\n1\n1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Input closed"), "{text}");
    assert!(!text.contains("\x1b["), "{text}");
}

#[test]
fn ladder_writes_a_markdown_elo_table() {
    let args = [
        "ladder",
        "--variant",
        "3p",
        "--bots",
        "random,heuristic",
        "--games",
        "6",
        "--max-rounds",
        "2",
        "--scoring",
        "basic",
    ];
    let (code, out, err) = cli(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("| rank | bot | Elo | 95% interval | time/decision |"),
        "{out}"
    );
    assert!(out.contains("`random` vs `heuristic`"), "{out}");
    // Piped, no progress reaches stdout or stderr: the table alone is the output.
    assert!(
        !err.contains("pairing") && !err.contains("games ["),
        "{err}"
    );
    assert!(out.starts_with("### 3p"), "{out}");
    // --out appends to a file.
    let path = tmp("ladder.md");
    std::fs::write(&path, "# Ladder\n").unwrap();
    let mut with_out = args.to_vec();
    with_out.extend(["--out", path.to_str().unwrap()]);
    let (code, out, _) = cli(&with_out, "");
    assert_eq!(code, 0);
    assert!(out.contains("appended"), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("# Ladder\n") && text.contains("### 3p"),
        "{text}"
    );
    std::fs::remove_file(path).ok();
    let (code, _, err) = cli(&["ladder", "--bots", "random,alpha", "--games", "2"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown bot 'alpha'"), "{err}");
}

/// `ladder --plot` draws the Elo table it printed: one bar per bot, best first, at the
/// table's Elo (PNG, in builds with pixels, is tested through the console script).
#[test]
fn ladder_plot_draws_the_printed_ratings() {
    let path = tmp("ladder.svg");
    let args = [
        "ladder",
        "--variant",
        "4p",
        "--bots",
        "random,heuristic",
        "--games",
        "8",
        "--max-rounds",
        "3",
        "--plot",
        path.to_str().unwrap(),
    ];
    let (code, out, err) = cli(&args, "");
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rows: Vec<(String, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("ladder-row"))
        .map(|n| {
            (
                n.attribute("data-bot").unwrap().to_string(),
                n.attribute("data-elo").unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 2, "{svg}");
    assert_eq!(rows[0].0, "heuristic", "best first: {rows:?}");
    for (bot, elo) in &rows {
        let elo: f64 = elo.parse().unwrap();
        assert!(
            out.contains(&format!("| `{bot}` | {elo:+.0} |")),
            "{bot} {elo}: {out}"
        );
    }
    std::fs::remove_file(&path).ok();
    if !cfg!(feature = "raster") {
        let png = tmp("ladder.png");
        let mut with_png = args.to_vec();
        let last = with_png.len() - 1;
        with_png[last] = png.to_str().unwrap();
        let (code, out, err) = cli(&with_png, "");
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("name a .svg file"), "{err}");
        assert!(out.is_empty(), "refused before any game: {out}");
    }
}

/// Everything `ladder` can refuse is refused before the first game: unwritable output
/// paths, picture formats, bot names anywhere in the list. Such a ladder of `pimc-dd`
/// bots would take minutes; refused, it takes no time and writes nothing.
#[test]
fn ladder_checks_its_options_before_any_game() {
    let slow = ["ladder", "--games", "400"];
    let bots = ["--bots", "pimc-dd,ismcts"];
    let cases: [(&[&str], &str); 5] = [
        (
            &["--out", "/nonexistent/x.md", bots[0], bots[1]],
            "--out /nonexistent/x.md: cannot write",
        ),
        (
            &["--plot", "/nonexistent/x.svg", bots[0], bots[1]],
            "--plot /nonexistent/x.svg: cannot write",
        ),
        (
            &["--plot", "ladder.gif", bots[0], bots[1]],
            "name a .svg or .png file",
        ),
        (
            &["--bots", "pimc-dd,ismcts,heuristik"],
            "unknown bot 'heuristik'",
        ),
        (&["--bots", "pimc-dd"], "at least two bots"),
    ];
    for (extra, message) in cases {
        let mut args = slow.to_vec();
        args.extend_from_slice(extra);
        let t = std::time::Instant::now();
        let (code, out, err) = cli(&args, "");
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert!(out.is_empty(), "{extra:?}: {out}");
        // Not a timing assertion on the engine: a ladder of these bots plays for minutes,
        // a refusal returns at once.
        assert!(
            t.elapsed().as_secs() < 20,
            "{extra:?} was refused only after playing"
        );
    }
    assert!(!std::path::Path::new("ladder.gif").exists());
}

/// `play --help` names every bot family that `--bots` accepts, with its budget forms.
#[test]
fn play_help_lists_every_bot_family() {
    let (code, out, _) = cli(&["play", "--help"], "");
    assert_eq!(code, 0);
    for name in yokai_septet_bots::BOT_NAMES {
        assert!(
            out.contains(name),
            "play --help does not name {name}: {out}"
        );
    }
    for form in [
        "pimc:Nms",
        "pimc:200/1400",
        "ismcts:5000/nn",
        "ismcts-nn:4600/nn:PATH",
        "pimc-dd:Nms",
        "epimc:Nms",
        "ismcts:Nms",
        "ismcts-nn:Nms",
        "ismcts-nn:N:PATH",
    ] {
        assert!(out.contains(form), "{form}: {out}");
    }
}

/// The seal variants' score line names the sealed suits of each team.
#[test]
fn the_seal_score_line_shows_the_seals_by_suit() {
    let input = "1\n".repeat(3000);
    let (code, out, err) = cli(
        &[
            "play",
            "--variant",
            "seal",
            "--seed",
            "5",
            "--max-rounds",
            "3",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("[]"), "{out}");
    assert!(
        out.contains("us no seals · them no seals · 7 seals win"),
        "{out}"
    );
    // Some team seals in three rounds of this game: its suits are named by letter.
    let letters = |l: &str| {
        l.split(" seal")
            .skip(1)
            .filter_map(|part| part.split_once('(').and_then(|(_, r)| r.split_once(')')))
            .all(|(inside, _)| {
                inside
                    .split(' ')
                    .all(|x| "WECLDFS".contains(x) && x.len() == 1)
            })
    };
    let score_lines: Vec<&str> = out.lines().filter(|l| l.contains("Scores:")).collect();
    assert!(
        score_lines
            .iter()
            .any(|l| l.contains(" seal (") || l.contains(" seals (")),
        "no seal is ever shown: {out}"
    );
    assert!(score_lines.iter().all(|l| letters(l)), "{score_lines:?}");
    assert!(score_lines.iter().all(|l| !l.contains(" 1 seals")), "{out}");
}

/// `play --load` goes on with a saved game exactly as the game would have gone on without
/// the break: the same deals, the same bots and seat (from the record's `players`, without
/// `--bots`), and bots whose random streams are where they were.
#[test]
fn play_load_resumes_a_saved_game_where_it_stopped() {
    for (variant, bots, seat) in [
        ("4p", "pimc:6", "0"),
        ("seal-short", "pimc:6,heuristic,random", "2"),
    ] {
        let whole = tmp(&format!("whole-{variant}.json"));
        let part = tmp(&format!("part-{variant}.json"));
        let base = [
            "play",
            "--variant",
            variant,
            "--seed",
            "11",
            "--bots",
            bots,
            "--seat",
            seat,
        ];
        let mut args = base.to_vec();
        args.extend(["--max-rounds", "2", "--save", whole.to_str().unwrap()]);
        let input = "1\n".repeat(400);
        let (code, _, err) = cli(&args, &input);
        assert_eq!(code, 0, "{err}");
        // The same game, stopped after 7 decisions, then loaded and played on.
        let mut args = base.to_vec();
        args.extend(["--max-rounds", "2", "--save", part.to_str().unwrap()]);
        let (code, out, _) = cli(&args, &"1\n".repeat(7));
        assert_eq!(code, 0);
        assert!(out.contains("Input closed"), "{out}");
        // Other bots or another seat beside --load are refused, and change nothing.
        let saved = std::fs::read_to_string(&part).unwrap();
        let players: serde_json::Value = serde_json::from_str(&saved).unwrap();
        assert_eq!(
            players["players"][seat.parse::<usize>().unwrap()],
            serde_json::Value::Null
        );
        for other in [["--bots", "random"], ["--seat", "1"]] {
            let (code, _, err) = cli(
                &["play", other[0], other[1], "--load", part.to_str().unwrap()],
                "",
            );
            assert_eq!(code, 2, "{err}");
            assert!(err.contains("the saved game was played"), "{err}");
            assert_eq!(std::fs::read_to_string(&part).unwrap(), saved);
        }
        // Resumed without --bots or --seat: the saved ones.
        let load = ["play", "--load", part.to_str().unwrap()];
        let mut args = load.to_vec();
        args.extend(["--save", part.to_str().unwrap()]);
        let (code, out, err) = cli(&args, &input);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("Resumed "), "{out}");
        assert!(out.contains(&format!("Yokai Septet {variant}")), "{out}");
        assert_eq!(
            std::fs::read_to_string(&part).unwrap(),
            std::fs::read_to_string(&whole).unwrap(),
            "{variant}: the resumed game differs from the one played in one go"
        );
        // A finished game, a tampered record and a seed given beside --load are refused.
        let (code, _, err) = cli(&load, "");
        assert_eq!(code, 2);
        assert!(err.contains("this game is over"), "{err}");
        let (code, out, err) = cli(&["play", "--save", "/nonexistent/g.json"], "1\n");
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("--save /nonexistent/g.json: cannot write"),
            "{err}"
        );
        assert!(out.is_empty(), "refused before the game: {out}");
        let (code, _, err) = cli(&["play", "--load", "no-such.json"], "");
        assert_eq!(code, 2);
        assert!(err.contains("cannot read"), "{err}");
        let (code, _, err) = cli(
            &["play", "--seed", "3", "--load", part.to_str().unwrap()],
            "",
        );
        assert_eq!(code, 2, "{err}");
        std::fs::remove_file(whole).ok();
        std::fs::remove_file(part).ok();
    }
}

/// `rules` through a pipe is plain text: no Markdown marks, no escapes.
#[test]
fn rules_piped_are_plain_text() {
    let (code, out, _) = cli(&["rules"], "");
    assert_eq!(code, 0);
    assert!(out.contains("R6. Winning a trick\n═"), "{out}");
    assert!(!out.contains("## ") && !out.contains("|---") && !out.contains("**"));
    assert!(!out.contains("\x1b["));
}

/// A ladder whose picture cannot be written still prints its table, and says so with exit
/// code 3 (the results are there, the extra output is not). `/dev/full` takes the file
/// open but refuses every byte.
#[cfg(target_os = "linux")]
#[test]
fn a_ladder_whose_picture_fails_keeps_its_table_and_exits_3() {
    let link = tmp("full.svg");
    std::fs::remove_file(&link).ok();
    std::os::unix::fs::symlink("/dev/full", &link).unwrap();
    let (code, out, err) = cli(
        &[
            "ladder",
            "--bots",
            "random,heuristic",
            "--games",
            "4",
            "--max-rounds",
            "2",
            "--plot",
            link.to_str().unwrap(),
        ],
        "",
    );
    std::fs::remove_file(&link).ok();
    assert_eq!(code, 3, "{err}");
    assert!(
        out.contains("| rank | bot | Elo |"),
        "the table is lost: {out}"
    );
    assert!(
        err.contains("the table is written, but not the picture"),
        "{err}"
    );
}

fn golden(name: &str) -> String {
    format!(
        "{}/../yokai-septet/tests/golden/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `analyze`: every card play in the text, the JSON and the HTML, consistent with each
/// other; the same on a pipe from the binary, with nothing on stderr (no progress bar).
#[test]
fn analyze_reports_every_play_as_text_json_and_html() {
    let rec = golden("4p_seed0");
    let (code, text, err) = cli(&["analyze", &rec, "--budget", "20000"], "");
    assert_eq!(code, 0, "{err}");
    for needle in [
        "double-dummy analysis",
        "Round 0",
        "estimated (tricks 1 to",
        "nodes or more, over the budget",
        "estimated cost ",
        "forced",
        "best",
        "cost ",
        "Per seat",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let (code, json, _) = cli(&["analyze", &rec, "--budget", "20000", "--json"], "");
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(&json).unwrap();
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let plays_in_record: usize = record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["tricks"].as_array().unwrap())
        .map(|t| t["cards"].as_array().unwrap().len())
        .sum();
    let plays = a["plays"].as_array().unwrap();
    assert_eq!(plays.len(), plays_in_record);
    let mut costly = 0;
    let mut seat_cost = [0i64; 4];
    for p in plays {
        match p["status"].as_str().unwrap() {
            "solved" => {
                let values = p["values"].as_array().unwrap();
                let best = values.iter().map(|v| v[1].as_i64().unwrap()).max().unwrap();
                let chosen = values
                    .iter()
                    .find(|v| v[0] == p["card"])
                    .expect("the chosen card is scored")[1]
                    .as_i64()
                    .unwrap();
                assert_eq!(p["best"], best);
                assert_eq!(p["chosen"], chosen);
                assert_eq!(p["cost"], best - chosen);
                if best > chosen {
                    costly += 1;
                    seat_cost[p["seat"].as_u64().unwrap() as usize] += best - chosen;
                }
            }
            "forced" => assert_eq!(p["cost"], 0),
            // Over the budget: every legal card's value sampled, the reason given.
            "estimated" => {
                let values = p["values"].as_array().unwrap();
                let best = values
                    .iter()
                    .map(|v| v[1].as_f64().unwrap())
                    .fold(f64::MIN, f64::max);
                let chosen = values.iter().find(|v| v[0] == p["card"]).unwrap()[1]
                    .as_f64()
                    .unwrap();
                assert_eq!(p["best"].as_f64().unwrap(), best);
                assert_eq!(p["cost"].as_f64().unwrap(), best - chosen);
                assert!(p["forecast"].as_u64().unwrap() > 20000);
                assert!(p["worlds"].as_u64().unwrap() > 0);
            }
            s => panic!("unknown status {s}"),
        }
    }
    assert!(costly > 0, "this game has a costly play at this budget");
    for (seat, s) in a["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(s["cost"], seat_cost[seat]);
    }

    let html = tmp("analyze.html");
    let (code, out, err) = cli(
        &[
            "analyze",
            &rec,
            "--budget",
            "20000",
            "--html",
            html.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote "), "{out}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        page.matches("class=\\\"ys-costly\\\"").count(),
        costly,
        "one mark per costly play"
    );
    std::fs::remove_file(&html).ok();

    let piped = Command::new(env!("CARGO_BIN_EXE_yokai-septet"))
        .args(["analyze", &rec, "--budget", "20000", "--json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(String::from_utf8(piped.stdout).unwrap(), json);
    assert!(
        piped.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&piped.stderr)
    );
}

#[test]
fn analyze_checks_its_options_and_the_record_before_any_work() {
    let rec = golden("3p_seed0");
    let (code, out, err) = cli(&["analyze", &rec, "--budget", "0"], "");
    assert_eq!(code, 2);
    assert!(out.is_empty() && err.contains("--budget"), "{err}");
    let (code, out, err) = cli(&["analyze", &rec, "--html", "/no/such/dir/x.html"], "");
    assert_eq!(code, 2);
    assert!(out.is_empty() && err.contains("--html"), "{err}");
    let (code, _, err) = cli(&["analyze", "no-such-file.json"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    let bad = tmp("bad-analyze.json");
    let mut r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    r["rounds"][0]["tricks"][1]["cards"][0] = 999.into();
    std::fs::write(&bad, r.to_string()).unwrap();
    let (code, out, err) = cli(&["analyze", bad.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("rounds[0].tricks[1].cards[0]"), "{err}");
    std::fs::write(&bad, "[1, 2").unwrap();
    let (code, _, err) = cli(&["analyze", bad.to_str().unwrap(), "--json"], "");
    assert_eq!(code, 2);
    assert!(err.contains("not valid JSON"), "{err}");
    std::fs::remove_file(bad).ok();
}

/// A game resumed with `--load` and no `--save` goes on saving to the file it came from:
/// the moves made after resuming are kept, and leaving says where.
#[test]
fn play_load_keeps_saving_to_the_loaded_file() {
    let path = tmp("resume-save.json");
    let p = path.to_str().unwrap();
    let (code, out, err) = cli(&["play", "--seed", "4", "--save", p], "1\n1\nq\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(
            "You left the game. It is saved in {p}; `yokai-septet play --load {p}` goes on"
        )),
        "{out}"
    );
    let decisions = |text: &str| -> usize {
        let r: serde_json::Value = serde_json::from_str(text).unwrap();
        r["rounds"][0]["passes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_array().unwrap().len())
            .sum()
    };
    let before = decisions(&std::fs::read_to_string(&path).unwrap());
    let (code, out, err) = cli(&["play", "--load", p], "1\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("saving to {p} as you play")), "{out}");
    assert!(
        out.contains(&format!(
            "Input closed: leaving the game. It is saved in {p}"
        )),
        "{out}"
    );
    let after = decisions(&std::fs::read_to_string(&path).unwrap());
    assert!(
        after > before,
        "the move made after resuming was lost: {before} -> {after}"
    );
    let (_, help, _) = cli(&["play", "--help"], "");
    assert!(
        help.contains("[default: with --load, the loaded file]"),
        "{help}"
    );
    // Without --save or --load nothing is kept, and leaving says so.
    let (code, out, _) = cli(&["play", "--seed", "4"], "q\n");
    assert_eq!(code, 0);
    assert!(out.contains("It was not saved (give --save FILE"), "{out}");
    std::fs::remove_file(path).ok();
}

/// `--games 0` is a usage error, found before any game, in `arena` and `ladder`.
#[test]
fn no_games_is_a_usage_error() {
    for args in [
        &["arena", "--games", "0"][..],
        &["ladder", "--bots", "random,heuristic", "--games", "0"][..],
    ] {
        let (code, out, err) = cli(args, "");
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(err.contains("games must be at least 1"), "{err}");
        assert!(out.is_empty(), "{out}");
    }
}

/// A round cap that cuts every game: `ladder` flags the table instead of ranking it, and
/// says why on stderr; `arena` warns in its table and on stderr.
#[test]
fn a_round_cap_that_decides_the_result_is_reported() {
    let cut = |command: &str, bots: &str| {
        let args = [
            command,
            "--bots",
            bots,
            "--games",
            "8",
            "--max-rounds",
            "1",
            "--threads",
            "1",
        ];
        let (code, out, err) = cli(&args, "");
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (out, err) = cut("ladder", "random,heuristic");
    assert!(
        out.contains("> **Warning**: not ranked: 8 of 8 games were cut"),
        "{out}"
    );
    assert!(out.contains("| – | `"), "{out}");
    assert!(err.contains("warning: not ranked: 8 of 8 games"), "{err}");
    let (out, err) = cut("arena", "heuristic,random");
    assert!(
        out.contains("8 truncated\nWARNING: 8 of 8 games were cut"),
        "{out}"
    );
    assert!(err.contains("warning: 8 of 8 games were cut"), "{err}");
    // Played out: no warning anywhere.
    let (code, out, err) = cli(&["arena", "--games", "8", "--max-rounds", "0"], "");
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("WARNING") && err.is_empty(), "{out} {err}");
}

/// `--games` is rounded up to whole duplicate groups (3 games a deal in `3p`, 2 with teams),
/// and a note on stderr says so; a count that needs no rounding gets no note.
#[test]
fn arena_says_when_it_rounds_the_games_up_to_whole_deal_groups() {
    let arena = |variant: &str, games: &str| {
        let args = [
            "arena",
            "--variant",
            variant,
            "--games",
            games,
            "--max-rounds",
            "1",
            "--threads",
            "1",
            "--json",
        ];
        let (code, out, err) = cli(&args, "");
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        (json["summary"]["games"].as_u64().unwrap(), err)
    };
    let (played, err) = arena("3p", "10");
    assert_eq!(played, 12);
    assert!(
        err.contains("note: --games 10 rounded up to 12: duplicate deals play each deal once per seat rotation, so whole sets of 3 games"),
        "{err}"
    );
    let (played, err) = arena("4p", "9");
    assert_eq!(played, 10);
    assert!(
        err.contains("rounded up to 10") && err.contains("sets of 2 games"),
        "{err}"
    );
    let (played, err) = arena("3p", "9");
    assert_eq!(played, 9);
    assert!(!err.contains("rounded"), "{err}");
}

/// One bot name is refused before any game: it would print a table of the bot against
/// itself, with an interval, as if it had measured something.
#[test]
fn arena_refuses_a_single_bot() {
    let (code, out, err) = cli(&["arena", "--bots", "heuristic", "--games", "4"], "");
    assert_eq!(code, 2, "{out} {err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--bots heuristic: an arena compares bots: give two names or more")
            && err.contains("heuristic,heuristic"),
        "{err}"
    );
    let (code, _, err) = cli(
        &[
            "arena",
            "--bots",
            "heuristic,heuristic",
            "--games",
            "2",
            "--max-rounds",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
}

/// `arena --rounds --sequential` prints the boards and the stop's verdict, in the table
/// and in the JSON; a sequential stop of more than two entries is a usage error.
#[test]
fn arena_plays_single_rounds_and_stops_sequentially() {
    let args = [
        "arena",
        "--bots",
        "heuristic,random",
        "--games",
        "2000",
        "--seed",
        "3",
        "--rounds",
        "--sequential",
        "--threads",
        "2",
    ];
    let (code, out, err) = cli(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("single rounds of 4p"), "{out}");
    assert!(out.contains("(paired 95% intervals over boards):"), "{out}");
    assert!(
        out.contains("sequential stop (5% error rate): stopped after")
            && out.contains("of 1000 boards"),
        "{out}"
    );
    let (code, json, err) = cli(&[&args[..], &["--json"]].concat(), "");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let q = &v["summary"]["sequential"];
    assert_eq!(q["decided"], true, "{q}");
    assert_eq!(q["boards"], v["summary"]["boards"]);
    assert!(
        v["summary"]["entries"][0]["board_win_rate"]["ci95"][0]
            .as_f64()
            .unwrap()
            > 0.5
    );
    let (code, _, err) = cli(
        &[
            "arena",
            "--bots",
            "random,random,random,random",
            "--games",
            "8",
            "--sequential",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("a sequential stop compares two bots"), "{err}");
}

#[test]
fn cli_replay_html_writes_the_viewer_and_rejects_a_bad_record() {
    let dir = std::env::temp_dir().join(format!("yokai-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../yokai-septet/tests/golden/4p_seed1.json"
    );
    let out_path = dir.join("game.html");
    let out_str = out_path.to_str().unwrap();
    let (code, out, err) = cli(&["replay", record, "--html", out_str], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("game.html"), "{out}");
    let html = std::fs::read_to_string(&out_path).unwrap();
    let m = Match::from_json(&std::fs::read_to_string(record).unwrap()).unwrap();
    assert_eq!(html, replay_html(&m));

    let bad = dir.join("bad.json");
    let tampered =
        std::fs::read_to_string(record)
            .unwrap()
            .replacen("\"winner\":", "\"winner\":7,\"x\":", 1);
    std::fs::write(&bad, tampered).unwrap();
    let (code, _, err) = cli(&["replay", bad.to_str().unwrap(), "--html", out_str], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rounds[0]"), "{err}");
    let (code, _, err) = cli(&["replay", record, "--html", out_str, "--round", "1"], "");
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `replay --html` checks its output path up front (exit code 2, nothing written), as
/// `analyze --html` and `ladder --out` do.
#[test]
fn replay_html_checks_its_path_before_any_work() {
    let rec = golden("4p_seed0");
    let (code, out, err) = cli(&["replay", &rec, "--html", "/nonexistent/x.html"], "");
    assert_eq!(code, 2, "{out} {err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--html /nonexistent/x.html: cannot write there"),
        "{err}"
    );
    // Even before the record is read.
    let (code, _, err) = cli(
        &["replay", "no-such.json", "--html", "/nonexistent/x.html"],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("--html /nonexistent/x.html"), "{err}");
}

/// `analyze`'s text ends with the shares of the card plays by status, the same figures as
/// the JSON's `shares`.
#[test]
fn analyze_text_has_the_shares_line_of_the_json() {
    let rec = golden("4p_seed0");
    let (code, text, err) = cli(&["analyze", &rec, "--budget", "20000"], "");
    assert_eq!(code, 0, "{err}");
    let (_, json, _) = cli(&["analyze", &rec, "--budget", "20000", "--json"], "");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let plays = json["plays"].as_array().unwrap().len();
    let line = text
        .lines()
        .find(|l| l.starts_with("Card plays: "))
        .unwrap_or_else(|| panic!("no shares line: {text}"));
    assert!(
        line.starts_with(&format!("Card plays: {plays} · solved ")),
        "{line}"
    );
    for (k, v) in json["shares"].as_object().unwrap() {
        let want = format!("{k} {:.1}%", 100.0 * v.as_f64().unwrap());
        assert!(line.contains(&want), "{want} in {line}");
    }
}
