//! Bits to values: the observation encoder's inner loop.
//!
//! The encoder first builds the observation as a bit image, one bit per value (every
//! 0/1 feature; counts are patched in afterwards), then calls [`expand`] to write
//! `out[i] = bit i` for the whole vector. Nearly all of the work is that store of the
//! vector, so it is done with the widest stores the CPU has: one kernel per instruction
//! set, picked at run time by [`crate::simd::cpu_level`], so one binary (and one wheel)
//! runs on any x86-64. Every kernel writes exactly `out`, with the same values: the tests
//! below check each against the portable one.

use crate::simd::{Cpu, CpuLevel};

/// A value type the encoder writes, with a kernel per instruction set. (Public in a
/// private module: the supertrait that seals [`crate::encoding::observation::ObsValue`].)
pub trait Expand: Copy + 'static {
    /// `out[i] = bit i of words` (bit `i % 64` of `words[i / 64]`), as 0 or 1.
    /// `words` must hold one word more than `out` needs (a spare, read but never
    /// stored: it may hold anything); `out` must hold at least 64 values.
    fn expand_portable(words: &[u64], out: &mut [Self]);
    /// # Safety
    /// The CPU must have AVX2 (`cpu_level() >= Avx2`).
    #[cfg(target_arch = "x86_64")]
    unsafe fn expand_avx2(words: &[u64], out: &mut [Self]);
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VL (`cpu_level() == Avx512`).
    #[cfg(target_arch = "x86_64")]
    unsafe fn expand_avx512(words: &[u64], out: &mut [Self]);
}

/// [`Expand`]'s kernel for `cpu`'s level. Inlined into callers compiled for that level,
/// where the kernel inlines in turn (a `#[target_feature]` function only inlines into
/// one that has its features).
#[inline(always)]
pub(crate) fn expand<T: Expand>(cpu: Cpu, words: &[u64], out: &mut [T]) {
    assert!(
        words.len() > out.len() / 64 + 1 && out.len() >= 64,
        "expand: {} words for {} values",
        words.len(),
        out.len()
    );
    match cpu.level() {
        // SAFETY: `cpu` proves the CPU has AVX-512 F, BW and VL.
        #[cfg(target_arch = "x86_64")]
        CpuLevel::Avx512 => unsafe { T::expand_avx512(words, out) },
        // SAFETY: `cpu` proves the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        CpuLevel::Avx2 => unsafe { T::expand_avx2(words, out) },
        _ => T::expand_portable(words, out),
    }
}

/// The 64 bits of the image starting at bit `at` (needs the spare word).
#[inline(always)]
fn bits_at(words: &[u64], at: usize) -> u64 {
    let (w, s) = (at / 64, at % 64);
    // `(x << 1) << (63 - s)` is `x << (64 - s)` without the shift by 64 when s = 0.
    (words[w] >> s) | ((words[w + 1] << 1) << (63 - s))
}

/// `BYTES[b][i]` = bit `i` of `b`, as 0/1.
macro_rules! byte_table {
    ($t:ty, $one:expr, $zero:expr) => {{
        let mut t = [[$zero; 8]; 256];
        let mut b = 0;
        while b < 256 {
            let mut i = 0;
            while i < 8 {
                if b >> i & 1 == 1 {
                    t[b][i] = $one;
                }
                i += 1;
            }
            b += 1;
        }
        t
    }};
}
pub(crate) use byte_table;

static F32_BYTES: [[f32; 8]; 256] = byte_table!(f32, 1.0, 0.0);
static U8_BYTES: [[u8; 8]; 256] = byte_table!(u8, 1, 0);

/// The portable kernel: a byte → 8 values table.
#[inline(always)]
fn portable<T: Copy>(table: &[[T; 8]; 256], words: &[u64], out: &mut [T]) {
    let at = out.len() / 8 * 8;
    let mut chunks = out.chunks_exact_mut(8);
    for (j, chunk) in (&mut chunks).enumerate() {
        chunk.copy_from_slice(&table[(words[j / 8] >> (8 * (j % 8))) as u8 as usize]);
    }
    let rest = chunks.into_remainder();
    rest.copy_from_slice(&table[bits_at(words, at) as u8 as usize][..rest.len()]);
}

/// Runs `chunk(bits, at)` for the vector chunks of `width` values (a divisor of 64)
/// covering `0..len`: aligned ones, a word at a time, then, when `width` does not divide
/// `len`, one ending exactly at `len` (it overlaps the one before and rewrites the same
/// values), so no store passes the end.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn for_chunks(words: &[u64], len: usize, width: usize, mut chunk: impl FnMut(u64, usize)) {
    debug_assert!(64 % width == 0);
    for (w, &bits) in words.iter().enumerate().take(len / 64) {
        // A constant number of chunks per word, at constant shifts: unrolled.
        for k in 0..64 / width {
            chunk(bits >> (k * width), 64 * w + k * width);
        }
    }
    for at in (len / 64 * 64..len / width * width).step_by(width) {
        chunk(words[at / 64] >> (at % 64), at);
    }
    if !len.is_multiple_of(width) {
        assert!(len >= width, "expand: {len} values, fewer than one vector");
        chunk(bits_at(words, len - width), len - width);
    }
}

impl Expand for u8 {
    #[inline(always)]
    fn expand_portable(words: &[u64], out: &mut [u8]) {
        portable(&U8_BYTES, words, out)
    }

    /// 32 values a vector: broadcast 4 bytes of the image, give each output byte its
    /// source byte (`pshufb`), keep its own bit, compare.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn expand_avx2(words: &[u64], out: &mut [u8]) {
        use core::arch::x86_64::*;
        let spread = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, //
            2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
        );
        // Byte k of every 8 holds bit k.
        let own_bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let one = _mm256_set1_epi8(1);
        let base = out.as_mut_ptr();
        for_chunks(words, out.len(), 32, |bits, at| {
            let x = _mm256_set1_epi32(bits as u32 as i32);
            let y = _mm256_and_si256(_mm256_shuffle_epi8(x, spread), own_bit);
            let v = _mm256_and_si256(_mm256_cmpeq_epi8(y, own_bit), one);
            // SAFETY: `for_chunks` keeps `at + 32 <= out.len()`.
            _mm256_storeu_si256(base.add(at) as *mut __m256i, v);
        });
    }

    /// 64 values a vector: the bits are the byte mask of one masked move. (Peeling to
    /// align the stores of buffers that are not 32-byte aligned was measured: with the
    /// encoder storing the image in two parts, it was slower for every alignment.)
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn expand_avx512(words: &[u64], out: &mut [u8]) {
        use core::arch::x86_64::*;
        let one = _mm512_set1_epi8(1);
        let base = out.as_mut_ptr();
        for_chunks(words, out.len(), 64, |bits, at| {
            // SAFETY: `for_chunks` keeps `at + 64 <= out.len()`.
            _mm512_storeu_si512(
                base.add(at) as *mut __m512i,
                _mm512_maskz_mov_epi8(bits, one),
            );
        });
    }
}

impl Expand for f32 {
    #[inline(always)]
    fn expand_portable(words: &[u64], out: &mut [f32]) {
        portable(&F32_BYTES, words, out)
    }

    /// 32 values from one broadcast: 4 vectors of 8, each shifting its lanes' bits to
    /// the sign, spreading the sign over the lane and keeping 1.0's bits.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn expand_avx2(words: &[u64], out: &mut [f32]) {
        use core::arch::x86_64::*;
        let shifts = [
            _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24),
            _mm256_setr_epi32(23, 22, 21, 20, 19, 18, 17, 16),
            _mm256_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8),
            _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0),
        ];
        let one = _mm256_set1_ps(1.0);
        let base = out.as_mut_ptr();
        let vec8 = |x: __m256i, k: usize| {
            let mask = _mm256_srai_epi32::<31>(_mm256_sllv_epi32(x, shifts[k]));
            _mm256_and_ps(_mm256_castsi256_ps(mask), one)
        };
        for_chunks(words, out.len(), 32, |bits, at| {
            let x = _mm256_set1_epi32(bits as u32 as i32);
            for k in 0..4 {
                // SAFETY: `for_chunks` keeps `at + 32 <= out.len()`.
                _mm256_storeu_ps(base.add(at + 8 * k), vec8(x, k));
            }
        });
    }

    /// 16 values a vector: 16 bits of the image are the lane mask of one masked move,
    /// then a plain 64-byte store (on the AMD EPYC this was measured on, masked stores were
    /// several times slower, and 256-bit masked moves slower than the AVX2 kernel).
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn expand_avx512(words: &[u64], out: &mut [f32]) {
        use core::arch::x86_64::*;
        let one = _mm512_set1_ps(1.0);
        let base = out.as_mut_ptr();
        for_chunks(words, out.len(), 16, |bits, at| {
            _mm512_storeu_ps(base.add(at), _mm512_maskz_mov_ps(bits as u16, one));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::cpu_level;
    use std::io::Write;

    /// Bits of every length the kernels handle differently (a word, a vector, a tail).
    fn lengths() -> impl Iterator<Item = usize> {
        (64..=300).chain([587, 711, 1005])
    }

    /// `len` pseudo-random bits (the unused bits of the last word clear) and two spare
    /// words.
    fn words(len: usize, x: &mut u64) -> Vec<u64> {
        let mut words = vec![0u64; len / 64 + 2];
        for w in &mut words[..len.div_ceil(64)] {
            *x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *w = *x;
        }
        if !len.is_multiple_of(64) {
            words[len / 64] &= u64::MAX >> (64 - len % 64);
        }
        words
    }

    /// The portable kernel writes the bits, at every length, and nothing past the end.
    fn portable_writes_the_bits<T: Expand + PartialEq + std::fmt::Debug + Default>(
        one: T,
        sentinel: T,
    ) {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in lengths() {
            let words = words(len, &mut x);
            let mut got = vec![sentinel; len + 1];
            T::expand_portable(&words, &mut got[..len]);
            for (i, w) in got[..len].iter().enumerate() {
                let bit = words[i / 64] >> (i % 64) & 1 == 1;
                assert_eq!(*w, if bit { one } else { T::default() }, "len {len}");
            }
            assert_eq!(got[len], sentinel, "wrote past the end");
        }
    }

    /// `level`'s kernel writes exactly what the portable one writes, at every length.
    /// Where this CPU lacks `level` there is nothing to run: the test says so on the
    /// terminal (written to stderr directly, which the test harness does not capture) and
    /// passes; `every_vector_level_runs_on_this_cpu` is the one that fails then.
    fn agree_at<T: Expand + PartialEq + std::fmt::Debug + Copy>(level: CpuLevel, sentinel: T) {
        if cpu_level() < level {
            let _ = writeln!(
                std::io::stderr(),
                "skipped: the {level:?} kernels (this CPU's level is {:?})",
                cpu_level()
            );
            return;
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in lengths() {
            let words = words(len, &mut x);
            let mut want = vec![sentinel; len + 1];
            T::expand_portable(&words, &mut want[..len]);
            let mut got = vec![sentinel; len + 1];
            expand(Cpu::at_most(level), &words, &mut got[..len]);
            assert_eq!(got, want, "{level:?}, len {len}");
        }
    }

    #[test]
    fn portable_kernel_writes_the_bits_u8() {
        portable_writes_the_bits::<u8>(1, 7);
    }

    #[test]
    fn portable_kernel_writes_the_bits_f32() {
        portable_writes_the_bits::<f32>(1.0, 7.0);
    }

    #[test]
    fn avx2_kernels_agree_with_portable() {
        agree_at::<u8>(CpuLevel::Avx2, 7);
        agree_at::<f32>(CpuLevel::Avx2, 7.0);
    }

    #[test]
    fn avx512_kernels_agree_with_portable() {
        agree_at::<u8>(CpuLevel::Avx512, 7);
        agree_at::<f32>(CpuLevel::Avx512, 7.0);
    }

    /// For the machines that must check every kernel (run with `--ignored`): fails where
    /// the CPU lacks a level, instead of skipping it.
    #[test]
    #[ignore = "fails on a CPU without AVX-512: run with --ignored where every level must be checked"]
    fn every_vector_level_runs_on_this_cpu() {
        assert!(
            cpu_level() >= CpuLevel::Avx512,
            "this CPU's level is {:?}: the AVX-512 kernels were not checked",
            cpu_level()
        );
        avx2_kernels_agree_with_portable();
        avx512_kernels_agree_with_portable();
    }
}
