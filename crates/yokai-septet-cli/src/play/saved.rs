//! A game of `play` saved and resumed: the record written as the game goes, and a saved
//! game loaded and replayed with its bots ([`yokai_septet_bots::resume`], the page's load too).

use std::path::Path;

use yokai_septet::Card;
use yokai_septet::IllegalAction;
use yokai_septet::Match;
use yokai_septet_bots::resume::{resume, ResumeError, Seated};
use yokai_septet_bots::Bot;

use super::super::Failure;
use super::PlayOptions;

/// Where a game left before its end is kept, and how to go on with it.
pub(super) fn where_saved(opts: &PlayOptions) -> String {
    match opts.save_path() {
        Some(path) => format!(
            "It is saved in {p}; `yokai-septet play --load {p}` goes on from here.",
            p = path.display()
        ),
        None => "It was not saved (give --save FILE to keep a game).".to_string(),
    }
}

/// A saved game to resume: a valid record of a game that is not over.
pub(super) fn load(path: &Path) -> Result<Match, Failure> {
    let text = super::super::read_record(path)
        .map_err(|e| Failure::usage(format!("--load: cannot read {}: {e}", path.display())))?;
    let saved = Match::from_json(&text)
        .map_err(|e| Failure::usage(format!("--load {}: {e}", path.display())))?;
    if saved.state().is_over() {
        return Err(Failure::usage(format!(
            "--load {}: this game is over (`yokai-septet replay {}` shows it)",
            path.display(),
            path.display()
        )));
    }
    Ok(saved)
}

/// The game being resumed: its match and its bots (the table's tallies need no replay:
/// narration reads the positions).
struct Resuming<'a> {
    m: &'a mut Match,
    bots: &'a mut [Option<Box<dyn Bot>>],
}

impl Seated for Resuming<'_> {
    fn game(&self) -> &Match {
        self.m
    }

    fn bot(&mut self, seat: usize) -> Option<&mut (dyn Bot + 'static)> {
        self.bots[seat].as_deref_mut()
    }

    fn apply(&mut self, card: Card) -> Result<(), IllegalAction> {
        self.m.apply(card).map(drop)
    }
}

/// Plays the saved game's decisions again from its seed, each bot asked for its own
/// decisions as it was then, so that the game goes on as it would have without the break
/// ([`yokai_septet_bots::resume`]); `names` are the seats' names, for a bot's error.
pub(super) fn replay_saved(
    names: &[String],
    m: &mut Match,
    bots: &mut [Option<Box<dyn Bot>>],
    saved: &Match,
) -> Result<(), Failure> {
    resume(&mut Resuming { m, bots }, &saved.record()).map_err(|e| match e {
        ResumeError::Bot { seat, error } => Failure::runtime(format!("{}: {error}", names[seat])),
        ResumeError::Illegal(e) => {
            Failure::usage(format!("the saved game does not replay from its seed: {e}"))
        }
        ResumeError::NotFromSeed => Failure::usage(
            "the saved game was not dealt from its seed (R10), so it cannot be resumed",
        ),
        // The terminal's table never stops a replay.
        ResumeError::Stopped => Failure::runtime("the replay of the saved game was stopped"),
    })
}

pub(super) fn save(opts: &PlayOptions, m: &Match) -> Result<(), Failure> {
    if let Some(path) = opts.save_path() {
        let json = serde_json::to_string_pretty(&m.record()).expect("a record serialises");
        std::fs::write(path, json + "\n")
            .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
