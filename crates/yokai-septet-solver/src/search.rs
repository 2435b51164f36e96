//! The search: alpha-beta (fail-soft, from the root side's point of view) with the
//! table probed at trick boundaries, the enhanced transposition cut-off at a trick's
//! last card, and the zero-window driver that finds an exact value by null-window
//! searches. Compiled once per way of keying the table ([`Table`]).

use super::order::{live_rank_id, order_moves, reduce_equivalent, NO_MOVE};
use super::partition::RankedTable;
use super::position::{fold_second_copies, Ctx, Pos, Step, MAX_MOVES};
use super::table::{Found, PlainTable, Ranks, Table};
use super::value::INF;
use super::Solver;

impl Solver {
    /// The exact value of `p`: one full-window search, or with [`Techniques::zero_window`]
    /// a series of null-window ones, the first at `guess` when one is given (a sibling's
    /// value: often the answer or near it).
    pub(super) fn exact(&mut self, ctx: &Ctx, p: &Pos, guess: Option<i32>) -> i32 {
        if !ctx.techniques.zero_window {
            return self.search(ctx, p, -INF, INF);
        }
        // The bounds hold the exact value wherever the trick stands.
        let (mut lo, mut hi, _) = p.bounds(ctx, None);
        let mut target = guess.filter(|&g| lo < g && g <= hi);
        while lo < hi {
            // Is the value at least `t`? `t` in `lo+1..=hi`, so each answer narrows.
            let t = target.take().unwrap_or(lo + (hi - lo + 1) / 2);
            let v = self.search(ctx, p, t - 1, t);
            if self.aborted {
                return 0;
            }
            // Fail-soft: an answer at or above `t` is a lower bound, below it an upper one.
            if v >= t {
                lo = v.max(t);
            } else {
                hi = v.min(t - 1);
            }
        }
        lo
    }

    /// The fail-soft value of `p` in the window `(alpha, beta)`, with the table of
    /// `ctx`'s techniques.
    pub(super) fn search(&mut self, ctx: &Ctx, p: &Pos, alpha: i32, beta: i32) -> i32 {
        if !ctx.techniques.partition {
            return self
                .search_probed::<PlainTable>(ctx, p, alpha, beta, None)
                .0;
        }
        if !self.ranked.is_made() {
            self.ranked = RankedTable::new(self.table_bits);
        }
        self.search_probed::<RankedTable>(ctx, p, alpha, beta, None)
            .0
    }

    /// `T`'s look-up of `probe`, counted.
    #[inline]
    fn look_up<T: Table>(&mut self, probe: &T::Probe) -> Option<Found<T::Ranks>> {
        self.probes += 1;
        let found = T::of(self).look_up(probe);
        self.hits += found.is_some() as u64;
        found
    }

    /// [`Solver::search`] of a position whose table look-up (`Some`, at a trick boundary)
    /// is already worked out. Also gives the live cards whose ranks the value rests on
    /// (with partition search; see [`partition::Ranks`]).
    fn search_probed<T: Table>(
        &mut self,
        ctx: &Ctx,
        p: &Pos,
        mut alpha: i32,
        mut beta: i32,
        known: Option<T::Probe>,
    ) -> (i32, T::Ranks) {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
            return (0, T::Ranks::default());
        }
        let at_boundary = p.trick_len == 0;
        // The live cards whose ranks the bounds found so far rest on.
        let mut ranks = T::Ranks::default();
        let mut probe = None;
        let mut tt_move = NO_MOVE;
        let mut slots = 0;
        if at_boundary {
            // The boss bounds read the live bosses and the tallies (no rank); the sure
            // bounds, the trump suit's ranks from its lowest sure card up.
            let (lo, hi, sure) = p.bounds(ctx, Some((alpha, beta)));
            let sure = T::Ranks::cards(sure);
            if hi <= alpha {
                return (hi, sure);
            }
            if lo >= beta {
                return (lo, sure);
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            if alpha >= beta {
                return (alpha, sure);
            }
            ranks = sure;
            slots = fold_second_copies(p.live());
            let pr = known.unwrap_or_else(|| T::probe(p, ctx));
            probe = Some(pr);
            if let Some(f) = self.look_up::<T>(&pr) {
                // The window may rest on the sure bounds: their ranks count too.
                let with_sure = f.ranks.with(sure);
                if f.lo >= beta {
                    return (f.lo, with_sure);
                }
                if f.hi <= alpha {
                    return (f.hi, with_sure);
                }
                if f.lo == f.hi {
                    return (f.lo, f.ranks);
                }
                alpha = alpha.max(f.lo);
                beta = beta.min(f.hi);
                tt_move = f.best;
                ranks = ranks.with(f.ranks);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let live = p.live();
        let legal = p.legal();
        let reps = reduce_equivalent(legal, live);
        let mut moves = [0u8; MAX_MOVES];
        let history = (ctx.techniques.history && p.trick_len == 0)
            .then(|| &self.lead_cutoffs[p.current as usize]);
        let k = order_moves(ctx, p, reps, (tt_move, slots), history, &mut moves);
        let maximizing = ctx.side_of(p.current) == ctx.root_side;
        let ends_trick = p.trick_len + 1 == ctx.n;
        // At a trick's last card with the enhanced transposition cut-off: each card's
        // next position and look-up, worked out once for the look-ups and the search.
        let mut probes = [None; MAX_MOVES];
        let mut bounds = [(-INF, INF); MAX_MOVES];
        let mut bound_ranks = [T::Ranks::default(); MAX_MOVES];
        if ctx.techniques.etc && ends_trick {
            let found = self.etc::<T>(ctx, p, &moves[..k], maximizing, (alpha, beta), &mut probes);
            match found {
                Err(cut) => return cut,
                Ok((b, r)) => (bounds, bound_ranks) = (b, r),
            }
        }
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = moves[0];
        for (i, &c) in moves[..k].iter().enumerate() {
            let (lo, hi) = bounds[i];
            // A card whose known bound cannot improve on the best so far or the window
            // needs no search: its bound stands in for its value (fail-soft).
            let (v, w) = if maximizing && hi <= alpha.max(best) {
                (hi, bound_ranks[i])
            } else if !maximizing && lo >= beta.min(best) {
                (lo, bound_ranks[i])
            } else {
                let (v, w) = match p.play(ctx, c) {
                    Step::End(v) => (v, T::Ranks::default()),
                    Step::Next(q) => self.search_probed::<T>(ctx, &q, alpha, beta, probes[i]),
                };
                if ends_trick {
                    (v, w.with(T::Ranks::trick_winner(p, ctx, c)))
                } else {
                    (v, w)
                }
            };
            if self.aborted {
                return (0, T::Ranks::default());
            }
            ranks = ranks.with(w);
            if maximizing {
                if v > best {
                    best = v;
                    best_move = c;
                    alpha = alpha.max(v);
                }
            } else if v < best {
                best = v;
                best_move = c;
                beta = beta.min(v);
            }
            if alpha >= beta {
                if ctx.techniques.history && p.trick_len == 0 {
                    let left = (ctx.variant.tricks_per_round() - p.tricks_played as usize) as u32;
                    let count = &mut self.lead_cutoffs[p.current as usize][c as usize];
                    *count = count.saturating_add(left * left);
                }
                break;
            }
        }
        let ranks = ranks.with_equivalent(legal, reps, live);
        if let Some(pr) = probe {
            let best_id = live_rank_id(best_move, slots);
            T::of(self).store(&pr, ranks, (alpha0, beta0), (best, best_id));
        }
        (best, ranks)
    }
}

impl Solver {
    /// The enhanced transposition cut-off (see [`Techniques::etc`]) at the last card of a
    /// trick: a value that refutes the window `(alpha, beta)` for the player to move, if
    /// one of `moves` is known to reach it without a search. Each look-up is a bound on
    /// that card's exact value, so a card whose bound already passes the window proves
    /// the node's value passes it too (fail-soft: the bound and the ranks it rests on are
    /// returned as `Err`). Otherwise gives each card's bounds and the ranks they rest on,
    /// and fills `probes` with the next positions' look-ups it worked out, for the search
    /// to reuse.
    #[allow(clippy::type_complexity)]
    fn etc<T: Table>(
        &mut self,
        ctx: &Ctx,
        p: &Pos,
        moves: &[u8],
        maximizing: bool,
        (alpha, beta): (i32, i32),
        probes: &mut [Option<T::Probe>; MAX_MOVES],
    ) -> Result<([(i32, i32); MAX_MOVES], [T::Ranks; MAX_MOVES]), (i32, T::Ranks)> {
        let mut bounds = [(-INF, INF); MAX_MOVES];
        let mut bound_ranks = [T::Ranks::default(); MAX_MOVES];
        for (i, &c) in moves.iter().enumerate() {
            // Who wins the trick decides the next position: its rank counts for any bound.
            let won = T::Ranks::trick_winner(p, ctx, c);
            let (lo, hi, w) = match p.play(ctx, c) {
                Step::End(v) => (v, v, won),
                Step::Next(q) => {
                    let (mut lo, mut hi, sure) = q.bounds(ctx, Some((alpha, beta)));
                    let mut w = won.with(T::Ranks::cards(sure));
                    if maximizing && lo >= beta || !maximizing && hi <= alpha {
                        return Err((if maximizing { lo } else { hi }, w));
                    }
                    let pr = T::probe(&q, ctx);
                    probes[i] = Some(pr);
                    if let Some(f) = self.look_up::<T>(&pr) {
                        lo = lo.max(f.lo);
                        hi = hi.min(f.hi);
                        w = w.with(f.ranks);
                    }
                    (lo, hi, w)
                }
            };
            if maximizing && lo >= beta {
                return Err((lo, w));
            }
            if !maximizing && hi <= alpha {
                return Err((hi, w));
            }
            bounds[i] = (lo, hi);
            bound_ranks[i] = w;
        }
        Ok((bounds, bound_ranks))
    }
}
