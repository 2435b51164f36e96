//! The baseline `nn` models of yokai-septet: one safetensors file per variant, as bytes;
//! and the belief models of its `-inf` search bots, one per variant.
//!
//! `yokai-septet` reads them (its `nn` bot and `Mlp::shipped`); they are a crate of their
//! own so that the engine crate stays well under crates.io's size limit.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// The model files by variant name, in the engine's variant order (`4p`, `3p`, `seal`,
/// `seal-short`).
pub static MODELS: [(&str, &[u8]); 4] = [
    ("4p", include_bytes!("../models/4p.safetensors")),
    ("3p", include_bytes!("../models/3p.safetensors")),
    ("seal", include_bytes!("../models/seal.safetensors")),
    (
        "seal-short",
        include_bytes!("../models/seal-short.safetensors"),
    ),
];

/// The belief model files by variant name (who holds which unseen card; the `-inf` bots),
/// in the engine's variant order. Their weights are float16: half the bytes of float32,
/// which keeps the crate under crates.io's 10 MiB.
pub static BELIEFS: [(&str, &[u8]); 4] = [
    ("4p", include_bytes!("../models/belief-4p.safetensors")),
    ("3p", include_bytes!("../models/belief-3p.safetensors")),
    ("seal", include_bytes!("../models/belief-seal.safetensors")),
    (
        "seal-short",
        include_bytes!("../models/belief-seal-short.safetensors"),
    ),
];

/// The belief model file of the variant named `variant`, or `None` for a name with none.
pub fn belief(variant: &str) -> Option<&'static [u8]> {
    BELIEFS
        .iter()
        .find(|(name, _)| *name == variant)
        .map(|(_, bytes)| *bytes)
}

/// The model file of the variant named `variant`, or `None` for a name with no model.
pub fn model(variant: &str) -> Option<&'static [u8]> {
    MODELS
        .iter()
        .find(|(name, _)| *name == variant)
        .map(|(_, bytes)| *bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_safetensors_file() {
        for (name, bytes) in MODELS.into_iter().chain(BELIEFS) {
            // A safetensors file starts with its header's length (little-endian u64),
            // then the JSON header.
            let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
            assert!(len > 2 && 8 + len <= bytes.len(), "{name}");
            assert_eq!(bytes[8], b'{', "{name}");
        }
        for (name, bytes) in MODELS {
            assert_eq!(model(name), Some(bytes));
        }
        for (name, bytes) in BELIEFS {
            assert_eq!(belief(name), Some(bytes));
        }
        assert_eq!(model("5p"), None);
        assert_eq!(belief("5p"), None);
        for ((a, _), (b, _)) in MODELS.iter().zip(&BELIEFS) {
            assert_eq!(a, b, "one belief model per variant, in the same order");
        }
    }
}
