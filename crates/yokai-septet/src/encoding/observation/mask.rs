//! Legal-action masks: one entry per card id, true (1) for each legal card.

use crate::cards::CardSet;
use crate::infoset::view::SeatView;

/// Writes the legal-action mask of `view`'s seat into `out` (length `num_actions`): true
/// (1) for each legal card id; all false when it is not this seat's turn.
/// `T` is `bool`, `u8` or `f32`.
#[inline]
pub fn legal_mask<T: From<bool> + Copy>(view: &SeatView, out: &mut [T]) {
    write_mask(view.legal_actions(), out);
}

/// Writes `actions` as a mask indexed by card id into `out`.
#[inline]
pub fn write_mask<T: From<bool> + Copy>(actions: CardSet, out: &mut [T]) {
    let bits = actions.bits();
    for (i, o) in out.iter_mut().enumerate() {
        *o = T::from(bits >> i & 1 == 1);
    }
}

static BOOL_BYTES: [[bool; 8]; 256] = crate::simd::expand::byte_table!(bool, true, false);

/// [`write_mask`] for `bool` masks, 8 entries at a time from a table (the VectorEnv
/// writes one per env and step). `out` may have any length up to 64.
#[inline]
pub fn write_mask_bool(actions: CardSet, out: &mut [bool]) {
    let bits = actions.bits();
    let at = out.len() / 8 * 8;
    let mut chunks = out.chunks_exact_mut(8);
    for (j, chunk) in (&mut chunks).enumerate() {
        chunk.copy_from_slice(&BOOL_BYTES[(bits >> (8 * j) & 0xFF) as usize]);
    }
    let tail = chunks.into_remainder();
    let row = &BOOL_BYTES[(bits.checked_shr(at as u32).unwrap_or(0) & 0xFF) as usize];
    tail.copy_from_slice(&row[..tail.len()]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bool_mask_table_agrees_with_write_mask() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..500 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for len in [49, 56, 3, 64] {
                let set = CardSet(x & (u64::MAX >> (64 - len)));
                let (mut a, mut b) = (vec![false; len], vec![true; len]);
                write_mask(set, &mut a);
                write_mask_bool(set, &mut b);
                assert_eq!(a, b);
            }
        }
    }
}
