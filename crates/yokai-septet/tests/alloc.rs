//! The engine's hot path never touches the heap: a counting global allocator watches
//! `legal_actions` and `apply` over 10,000 random games of every variant.

use common::*;
use yokai_septet_testkit as common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use yokai_septet::{GameConfig, State, Variant};

/// Counts allocations made by threads that opted in (the test harness's own threads
/// allocate concurrently and must not count).
struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    static WATCHED: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if WATCHED.with(|w| w.get()) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        note();
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        note();
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn apply_and_legal_actions_never_allocate() {
    for v in Variant::ALL {
        let mut r = rng(1);
        let mut decisions = 0u64;
        let before = ALLOCS.load(Ordering::Relaxed);
        for seed in 0..10_000u64 {
            let mut s = State::new(GameConfig::new(v, seed).with_max_rounds(Some(100)));
            WATCHED.with(|w| w.set(true));
            while !s.is_over() {
                let a = random_action(&s, &mut r);
                s.apply(a).unwrap();
                decisions += 1;
            }
            WATCHED.with(|w| w.set(false));
        }
        let allocs = ALLOCS.load(Ordering::Relaxed) - before;
        assert_eq!(
            allocs, 0,
            "{v}: {allocs} allocations in {decisions} decisions"
        );
        assert!(decisions > 10_000 * 40);
    }
}

#[test]
fn state_is_a_small_copy_value() {
    fn is_copy<T: Copy>() {}
    is_copy::<State>();
    assert!(
        std::mem::size_of::<State>() <= 256,
        "{}",
        std::mem::size_of::<State>()
    );
}
