//! `encode`, `legal_mask` and the sampler never touch the heap: they run once per decision
//! (thousands of times per decision in a search bot). A counting global allocator checks
//! it; it lives in its own test binary because the global allocator is per binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rand_core::RngCore;
use yokai_septet::observation::{encode, legal_mask, observation_size};
use yokai_septet::rng::test_rng;
use yokai_septet::sampler::Sampler;
use yokai_septet::{GameConfig, State, Variant};

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ON.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ON.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    f();
    ON.with(|on| on.set(false));
    COUNT.with(Cell::get)
}

#[test]
fn encode_legal_mask_and_sampler_do_not_allocate() {
    // The counter works: a heap allocation is seen.
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))) > 0);
    let mut rng = test_rng(1);
    let mut sampler = Box::new(Sampler::new());
    for v in Variant::ALL {
        let mut obs_f = vec![0f32; observation_size(v)];
        let mut obs_u = vec![0u8; observation_size(v)];
        let mut mask = vec![false; v.num_actions()];
        let mut positions = 0;
        let mut game = 0;
        while positions < 3000 {
            game += 1;
            let mut s = State::new(GameConfig::new(v, game).with_max_rounds(Some(2)));
            while !s.is_over() && positions < 3000 {
                let seat = rng.next_u32() as usize % v.num_players();
                let n = allocations(|| {
                    let view = s.view(seat);
                    encode(&view, &mut obs_f);
                    encode(&view, &mut obs_u);
                    legal_mask(&view, &mut mask);
                    let t = sampler.sample(&view, &mut rng);
                    encode(&t.view(seat), &mut obs_f);
                    let legal = s.legal_actions();
                    let a = legal.nth(rng.next_u32() % legal.len()).unwrap();
                    s.apply(a).unwrap();
                });
                assert_eq!(n, 0, "{v}: {n} allocations");
                positions += 1;
            }
        }
    }
}
