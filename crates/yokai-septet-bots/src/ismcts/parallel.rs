//! A decision on several threads ([`IsmctsConfig::threads`]): root-parallel search. Each
//! thread grows a tree of its own from the same information set, with its share of the
//! iterations and a random stream drawn from the bot's at that decision; the trees'
//! root statistics are summed and the most visited card is played. The trees share
//! nothing while they grow, so the result does not depend on how the threads are
//! scheduled: a count budget plays the same cards for the same seed and thread count.

use rand_core::RngCore;

use yokai_septet::Card;
use yokai_septet::SeatView;

use super::{IsmctsBot, IsmctsConfig};

impl IsmctsBot {
    /// Runs the decision's search on [`IsmctsConfig::threads`] threads; returns the
    /// iterations run over all of them.
    pub(super) fn search(&mut self, view: &SeatView) -> u32 {
        let threads = self.config.threads.max(1);
        let total = self.config.iterations.max(1);
        if threads == 1 {
            return self.search_tree(view, total);
        }
        // The iterations, split as evenly as they go: thread `i` runs `share(i)`.
        let share = move |i: u32| (total / threads + u32::from(i < total % threads)).max(1);
        let mut helpers = std::mem::take(&mut self.helpers);
        if helpers.len() != threads as usize - 1 {
            helpers = (1..threads).map(|_| self.helper()).collect();
        }
        for helper in &mut helpers {
            helper.rng.reseed(self.rng.next_u64());
        }
        let view = *view;
        let done = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .zip(1..)
                .map(|(helper, i)| scope.spawn(move || helper.search_tree(&view, share(i))))
                .collect();
            let mine = self.search_tree(&view, share(0));
            running.into_iter().fold(mine, |sum, thread| {
                // A helper's panic is the search's own (an engine bug), re-raised here.
                sum + thread
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
        });
        self.helpers = helpers;
        done
    }

    /// A helper thread's search: this bot's settings on one thread, its worlds drawn
    /// the same way.
    fn helper(&self) -> IsmctsBot {
        let config = IsmctsConfig {
            threads: 1,
            ..self.config
        };
        let mut helper = IsmctsBot::new(config, 0);
        helper.leaf_model = self.leaf_model.clone();
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
