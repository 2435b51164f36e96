//! The vector env's passes over its envs: chunks of consecutive envs shared out over the
//! pool, each writing its envs' rows; and the parallel check of a batch's actions.

use std::sync::Mutex;

use super::slot::{Deal, Slot};
use super::{Autoreset, Elem, Illegal, Outputs, Shared, Slices, StepError, NUM_OUTPUTS};
use crate::pool::{Kind, Pool};
use yokai_septet::observation::ObsValue;

/// What a pass does to each env.
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    /// Resets every env.
    Reset(Deal),
    /// Resets the envs whose entry of the pass's `actions` is not 0 (the reset mask); the
    /// others' rows are written from their games as they are.
    ResetSome(Deal),
    /// Applies the env's action (checked), then as [`Slot::step`].
    Step,
}

/// `Err` naming the first env of `slots` (numbered from `first`) that holds a finished
/// episode under [`Autoreset::Disabled`], or (under [`Illegal::Raise`]) whose action is
/// not legal there, with the reason [`State::apply_action`] gives. A finished env's
/// action is ignored under [`Autoreset::NextStep`] (its step deals the next game), so any
/// value passes; under [`Illegal::Lose`] so does any other (an illegal one ends its
/// episode: [`Slot::step`]).
pub(super) fn check_range(
    sh: &Shared,
    slots: &[Slot],
    actions: &[i64],
    first: usize,
) -> Result<(), StepError> {
    for (i, (slot, &a)) in slots.iter().zip(actions).enumerate() {
        if slot.over {
            if sh.autoreset == Autoreset::Disabled {
                return Err(StepError::Over { env: first + i });
            }
            continue;
        }
        if matches!(sh.illegal, Illegal::Lose(_)) {
            continue;
        }
        if !slot.is_legal(a) {
            // The quick test above only filters: the engine's own check, on a copy, says
            // whether and why the action is illegal.
            let mut probe = slot.state;
            if let Err(action) = probe.apply_action(a as i128) {
                return Err(StepError::Illegal {
                    env: first + i,
                    action,
                });
            }
        }
    }
    Ok(())
}

/// A run of consecutive envs, their actions (empty for a reset) and their rows: the unit
/// of parallel work.
struct Chunk<'s, 'o, T: ObsValue + Elem> {
    slots: &'s mut [Slot],
    actions: &'s [i64],
    outs: Outputs<Slices<'o>, T>,
}

impl<T: ObsValue + Elem> Chunk<'_, '_, T> {
    fn run(self, sh: &Shared, widths: &[usize; NUM_OUTPUTS], op: Op) {
        let mut outs = self.outs;
        for (k, slot) in self.slots.iter_mut().enumerate() {
            let mut row = outs.take_row(widths);
            match op {
                Op::Reset(deal) => slot.reset_row(sh, deal, &mut row),
                Op::ResetSome(deal) if self.actions[k] != 0 => slot.reset_row(sh, deal, &mut row),
                Op::ResetSome(_) => slot.write_first(sh, &mut row),
                Op::Step => slot.step(sh, self.actions[k], &mut row),
            }
        }
    }
}

/// Runs `op` on every env of `slots` (with `actions`, one per env, for a step), writing
/// each env's row of `outs`: chunks of `chunk_len` envs shared out over the pool.
///
/// Panics if a buffer has the wrong size.
pub(super) fn pass<T: ObsValue + Elem>(
    pool: &Pool,
    sh: &Shared,
    slots: &mut [Slot],
    actions: &[i64],
    outs: Outputs<Slices<'_>, T>,
    chunk_len: usize,
    op: Op,
) {
    let layout = outs.layout(sh, slots.len());
    let ch = chunk_len.max(1);
    let mut chunks = Vec::with_capacity(slots.len().div_ceil(ch));
    let (mut slots, mut actions, mut outs) = (slots, actions, outs);
    while slots.len() > ch {
        let (s0, s1) = slots.split_at_mut(ch);
        let (a0, a1) = actions.split_at(ch.min(actions.len()));
        let (o0, o1) = outs.split_at(ch, &layout.widths);
        chunks.push(Chunk {
            slots: s0,
            actions: a0,
            outs: o0,
        });
        (slots, actions, outs) = (s1, a1, o1);
    }
    chunks.push(Chunk {
        slots,
        actions,
        outs,
    });
    let widths = layout.widths;
    let kind = match op {
        Op::Step => Kind::Step,
        Op::Reset(_) | Op::ResetSome(_) => Kind::Other,
    };
    pool.run(kind, chunks, |c| c.run(sh, &widths, op));
}

/// The first illegal action of a batch, checked in parallel over `pool` (nothing is
/// changed; `&mut`: the bots make an env `Send` but not `Sync`).
pub(super) fn check_actions(
    pool: &Pool,
    sh: &Shared,
    slots: &mut [Slot],
    actions: &[i64],
    chunk_len: usize,
) -> Result<(), StepError> {
    if actions.len() != slots.len() {
        return Err(StepError::Length {
            expected: slots.len(),
            got: actions.len(),
        });
    }
    let ch = chunk_len.max(1);
    let first: Mutex<Option<StepError>> = Mutex::new(None);
    let items = slots.chunks_mut(ch).zip(actions.chunks(ch)).enumerate();
    pool.run(Kind::Check, items.collect(), |(k, (s, a))| {
        if let Err(e) = check_range(sh, s, a, k * ch) {
            let mut f = first.lock().unwrap_or_else(|p| p.into_inner());
            // Keep the lowest env index, whichever thread finds what first.
            if f.as_ref().is_none_or(|g| g.env() > e.env()) {
                *f = Some(e);
            }
        }
    });
    match first.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Envs per unit of parallel work: about eight units per thread (so a thread that falls
/// behind is helped), but never fewer than 16 envs (so scheduling stays cheap next to
/// the work). Each thread starts on its own eighth of the chunks, the same envs every
/// pass (see `crate::pool`).
pub(super) fn chunk_len(num_envs: usize, num_threads: usize) -> usize {
    (num_envs / (8 * num_threads)).max(16)
}
