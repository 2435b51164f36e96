//! The CPU-specific `unsafe` of the engine, in one audited place (the workspace's only other
//! `unsafe` is the vector env's fork-join pool and the web server's two libc calls, in their
//! crates): CPU detection, the instructions
//! beyond baseline x86-64 (BMI2's `pdep`/`pext`, AVX2, AVX-512), and the dispatch that
//! compiles a computation once per CPU level.
//!
//! The instruction sets are detected once at run time, so one binary (and one Python
//! wheel) runs on any x86-64. Code outside this module never runs an instruction the CPU
//! may lack: it holds a [`Cpu`], a token that only detection makes, and the functions here
//! take it as proof.
//!
//! Picking a uniformly random legal card is "select the k-th set bit": with BMI2 one
//! `pdep` + `tzcnt`; elsewhere a portable fallback skips 16-bit chunks by popcount, then
//! clears low bits.

pub(crate) mod expand;

/// Position of the `k`-th (0-based) set bit of `x`. Requires `k < x.count_ones()`.
#[inline]
pub(crate) fn select(x: u64, k: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_bmi2() {
            // SAFETY: BMI2 was detected on this CPU.
            return unsafe { select_pdep(x, k) };
        }
    }
    select_portable(x, k)
}

/// The index a 32-bit random number `r` picks among `n` items by multiply-shift:
/// `⌊r·n / 2³²⌋` (bias below `n / 2³²`: irrelevant for a random policy).
#[inline]
pub(crate) fn scale(r: u32, n: u32) -> u32 {
    ((r as u64 * n as u64) >> 32) as u32
}

/// `select(x, scale(r, x.count_ones()))`: a random set bit of `x` (non-zero) from one
/// 32-bit random number, in one call. With BMI2 it is `popcnt`, a multiply, `pdep` and
/// `tzcnt`: baseline x86-64 has no `popcnt` instruction, so `count_ones` alone would
/// otherwise cost a dozen instructions.
#[inline]
pub(crate) fn select_scaled(x: u64, r: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_bmi2() {
            // SAFETY: BMI1, BMI2 and POPCNT were detected on this CPU.
            return unsafe { select_scaled_bmi2(x, r) };
        }
    }
    select_portable(x, scale(r, x.count_ones()))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
unsafe fn select_scaled_bmi2(x: u64, r: u32) -> u32 {
    let k = scale(r, x.count_ones());
    core::arch::x86_64::_pdep_u64(1u64 << k, x).trailing_zeros()
}

/// What the CPU offers beyond baseline x86-64, in increasing order: each level includes
/// the ones below it. Detected once; kernels compiled with `#[target_feature]` for a
/// level may run when [`cpu_level`] is at least that level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CpuLevel {
    /// Baseline: SSE2 only (and every non-x86 target).
    Base = 1,
    /// BMI1, BMI2 and POPCNT (`pdep`, `pext`, one-instruction `count_ones`).
    Bmi2 = 2,
    /// `Bmi2` plus AVX2.
    Avx2 = 3,
    /// `Avx2` plus AVX-512 F, BW and VL (mask registers for bytes and 256-bit vectors).
    Avx512 = 4,
}

/// Proof that this CPU runs the instructions of a [`CpuLevel`]: only [`Cpu::detect`] and
/// [`Cpu::at_most`] make one, so a function that takes a `Cpu` may use that level's
/// instructions without being `unsafe`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu(CpuLevel);

impl Cpu {
    /// This CPU's own level.
    #[inline(always)]
    pub fn detect() -> Cpu {
        Cpu(cpu_level())
    }

    /// `level`, or this CPU's own level if it lacks `level` (to compare the kernels).
    #[inline]
    pub fn at_most(level: CpuLevel) -> Cpu {
        Cpu(level.min(cpu_level()))
    }

    /// The CPU level this token proves.
    #[inline(always)]
    pub fn level(self) -> CpuLevel {
        self.0
    }
}

/// A computation compiled once per CPU level by [`dispatch`]. `run` should be
/// `#[inline(always)]`, so that it inlines into each level's `#[target_feature]`
/// function and is compiled with that level's instructions (the `Cpu` it receives is a
/// constant there, so per-level branches fold away).
pub trait Kernel {
    /// What the computation returns.
    type Output;
    /// The computation, at the level `cpu` proves.
    fn run(self, cpu: Cpu) -> Self::Output;
}

/// Runs `kernel` compiled for `cpu`'s level.
#[inline(always)]
pub fn dispatch<K: Kernel>(cpu: Cpu, kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    match cpu.0 {
        // SAFETY (each arm): `cpu` proves the CPU has the level.
        CpuLevel::Avx512 => return unsafe { run_avx512(kernel) },
        CpuLevel::Avx2 => return unsafe { run_avx2(kernel) },
        CpuLevel::Bmi2 => return unsafe { run_bmi2(kernel) },
        CpuLevel::Base => {}
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cpu;
    kernel.run(Cpu(CpuLevel::Base))
}

/// [`dispatch`] for AVX-512 (F, BW, VL) CPUs.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,popcnt")]
unsafe fn run_avx512<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Cpu(CpuLevel::Avx512))
}

/// [`dispatch`] for AVX2 CPUs.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
unsafe fn run_avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Cpu(CpuLevel::Avx2))
}

/// [`dispatch`] for CPUs with POPCNT and BMI2 but no AVX2 (baseline x86-64 has no
/// `popcnt`, and the engine counts cards everywhere).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
unsafe fn run_bmi2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Cpu(CpuLevel::Bmi2))
}

/// The bits of `x` under `mask`, packed low (`pext`), where `cpu` has BMI2; `None`
/// elsewhere (the caller has its own fallback).
#[inline(always)]
pub fn pext(cpu: Cpu, x: u64, mask: u64) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if cpu.0 >= CpuLevel::Bmi2 {
        // SAFETY: `cpu` proves BMI2.
        return Some(unsafe { core::arch::x86_64::_pext_u64(x, mask) });
    }
    let _ = (cpu, x, mask);
    None
}

/// The low bits of `x` spread out to the places of `mask`'s bits (`pdep`, the inverse of
/// [`pext`]), where `cpu` has BMI2; `None` elsewhere (the caller has its own fallback).
#[inline(always)]
pub fn pdep(cpu: Cpu, x: u64, mask: u64) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if cpu.0 >= CpuLevel::Bmi2 {
        // SAFETY: `cpu` proves BMI2.
        return Some(unsafe { core::arch::x86_64::_pdep_u64(x, mask) });
    }
    let _ = (cpu, x, mask);
    None
}

#[cfg(target_arch = "x86_64")]
static CPU_LEVEL: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// This CPU's [`CpuLevel`] (detected once; a relaxed load is a plain `mov` on x86).
#[inline(always)]
pub fn cpu_level() -> CpuLevel {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::atomic::Ordering;
        match CPU_LEVEL.load(Ordering::Relaxed) {
            4 => CpuLevel::Avx512,
            3 => CpuLevel::Avx2,
            2 => CpuLevel::Bmi2,
            1 => CpuLevel::Base,
            _ => detect_cpu_level(),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    CpuLevel::Base
}

/// Whether this CPU has BMI1, BMI2 and POPCNT. Callers may run code compiled with
/// `#[target_feature(enable = "bmi1,bmi2,popcnt")]` when it is true.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_bmi2() -> bool {
    cpu_level() >= CpuLevel::Bmi2
}

#[cfg(target_arch = "x86_64")]
#[cold]
fn detect_cpu_level() -> CpuLevel {
    use std::is_x86_feature_detected as has;
    // Every BMI2 CPU has BMI1 and POPCNT; check them all anyway.
    let bmi2 = has!("bmi2") && has!("bmi1") && has!("popcnt");
    let avx2 = bmi2 && has!("avx2");
    let avx512 = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl");
    let level = match (bmi2, avx2, avx512) {
        (_, _, true) => CpuLevel::Avx512,
        (_, true, _) => CpuLevel::Avx2,
        (true, ..) => CpuLevel::Bmi2,
        _ => CpuLevel::Base,
    };
    CPU_LEVEL.store(level as u8, std::sync::atomic::Ordering::Relaxed);
    level
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
unsafe fn select_pdep(x: u64, k: u32) -> u32 {
    core::arch::x86_64::_pdep_u64(1u64 << k, x).trailing_zeros()
}

/// Portable select: skip whole 16-bit chunks by their popcounts, then clear low bits
/// inside the chunk that holds the bit.
#[inline]
pub(crate) fn select_portable(x: u64, mut k: u32) -> u32 {
    let mut x = x;
    let mut base = 0u32;
    // Skip whole 16-bit chunks first (at most 3 steps for 56-bit card sets).
    loop {
        let c = (x & 0xFFFF).count_ones();
        if k < c {
            break;
        }
        k -= c;
        x >>= 16;
        base += 16;
    }
    for _ in 0..k {
        x &= x - 1;
    }
    base + x.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_agrees_with_naive() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = x & ((1 << 56) - 1);
            let naive: Vec<u32> = (0..64).filter(|i| v >> i & 1 == 1).collect();
            for (k, &pos) in naive.iter().enumerate() {
                assert_eq!(select(v, k as u32), pos);
                assert_eq!(select_portable(v, k as u32), pos);
            }
            for r in [0, 1, x as u32, u32::MAX] {
                let k = scale(r, naive.len() as u32) as usize;
                assert_eq!(select_scaled(v, r), naive[k]);
            }
        }
    }
}
