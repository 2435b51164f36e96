//! A decision on several threads ([`IsmctsConfig::threads`]): root-parallel search. Each
//! thread grows a tree of its own from the same information set, with its share of the
//! iterations and a random stream drawn from the bot's at that decision; the trees'
//! root statistics are summed and the most visited card is played. The trees share
//! nothing while they grow, so the result does not depend on how the threads are
//! scheduled: a count budget plays the same cards for the same seed and thread count.

use std::sync::{Mutex, PoisonError};

use rand_core::RngCore;

use crate::{Bot, BotError};
use yokai_septet::Card;
use yokai_septet::SeatView;

use super::{IsmctsBot, IsmctsConfig};

impl IsmctsBot {
    /// Runs the decision's search on [`IsmctsConfig::threads`] threads; returns the
    /// iterations run over all of them. Where the system will not start one of the
    /// threads, no tree grows and the bot is left as it was ([`BotError::NoThread`]).
    pub(super) fn search(&mut self, view: &SeatView) -> Result<u32, BotError> {
        let threads = self.config.threads.max(1);
        let total = self.config.iterations.max(1);
        if threads == 1 {
            return Ok(self.search_tree(view, total));
        }
        // The iterations, split as evenly as they go: thread `i` runs `share(i)`.
        let share = move |i: u32| (total / threads + u32::from(i < total % threads)).max(1);
        let mut helpers = std::mem::take(&mut self.helpers);
        if helpers.len() != threads as usize - 1 {
            helpers = (1..threads).map(|_| self.helper()).collect();
        }
        // The helpers' streams are drawn from the bot's: put back if a thread cannot start.
        let stream = self.rng.clone();
        for helper in &mut helpers {
            helper.rng.reseed(self.rng.next_u64());
        }
        let view = *view;
        // Each helper waits at the gate until every one has started, and searches only if
        // they all have: a thread the system refuses leaves every tree as it was.
        let gate = Mutex::new(false);
        let done = std::thread::scope(|scope| {
            let mut open = gate.lock().unwrap_or_else(PoisonError::into_inner);
            let mut running = Vec::with_capacity(helpers.len());
            let mut refused = None;
            for (helper, i) in helpers.iter_mut().zip(1..) {
                let gate = &gate;
                let started = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let go = *gate.lock().unwrap_or_else(PoisonError::into_inner);
                    if go {
                        helper.search_tree(&view, share(i))
                    } else {
                        0
                    }
                });
                match started {
                    Ok(thread) => running.push(thread),
                    Err(e) => {
                        refused = Some(e);
                        break;
                    }
                }
            }
            *open = refused.is_none();
            drop(open);
            let mine = match refused {
                Some(e) => Err(e),
                None => Ok(self.search_tree(&view, share(0))),
            };
            running.into_iter().fold(mine, |sum, thread| {
                // A helper's panic is the search's own (an engine bug), re-raised here.
                let theirs = thread
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                sum.map(|sum| sum + theirs)
            })
        });
        self.helpers = helpers;
        done.map_err(|e| {
            self.rng = stream;
            BotError::NoThread {
                name: self.name(),
                message: e.to_string(),
            }
        })
    }

    /// A helper thread's search: this bot's settings on one thread, its worlds drawn
    /// the same way.
    fn helper(&self) -> IsmctsBot {
        let config = IsmctsConfig {
            threads: 1,
            ..self.config
        };
        let mut helper = IsmctsBot::new(config, 0);
        helper.evaluator = self.evaluator.clone();
        if let Some(source) = &self.belief {
            helper.worlds.infer(source.clone());
        }
        helper
    }

    /// Each card tried at the root, with its visits and summed values over the trees of
    /// the last search (this thread's, then the helpers').
    pub(super) fn root_stats(&self) -> Vec<(Card, u32, f32)> {
        let mut out: Vec<(Card, u32, f32)> = Vec::new();
        let trees = self.config.threads > 1;
        let helpers = self.helpers.iter().filter(|_| trees);
        for tree in std::iter::once(self).chain(helpers) {
            for n in tree.root_children() {
                match out.iter_mut().find(|(card, _, _)| *card == n.card) {
                    Some(entry) => {
                        entry.1 += n.visits;
                        entry.2 += n.total;
                    }
                    None => out.push((n.card, n.visits, n.total)),
                }
            }
        }
        out
    }

    /// Drops what the bot kept from earlier decisions (its kept tree, its helpers').
    pub(super) fn forget(&mut self) {
        self.kept = None;
        for helper in &mut self.helpers {
            helper.kept = None;
        }
    }
}
