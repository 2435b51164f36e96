//! The baseline `nn` models of yokai-septet: one safetensors file per variant, as bytes.
//! (The belief models of its `-inf` search bots are the crate `yokai-septet-beliefs`.)
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

/// The value models of `ismcts`'s leaves (`ValueNet` in the engine), by variant name, in
/// the engine's variant order (`None` would be a variant without one; each has one).
pub static VALUE_MODELS: [(&str, Option<&[u8]>); 4] = [
    ("4p", Some(include_bytes!("../models/value-4p.safetensors"))),
    ("3p", Some(include_bytes!("../models/value-3p.safetensors"))),
    (
        "seal",
        Some(include_bytes!("../models/value-seal.safetensors")),
    ),
    (
        "seal-short",
        Some(include_bytes!("../models/value-seal-short.safetensors")),
    ),
];

/// The value model file of the variant named `variant`, or `None` where it has none.
pub fn value_model(variant: &str) -> Option<&'static [u8]> {
    VALUE_MODELS
        .iter()
        .find(|(name, _)| *name == variant)
        .and_then(|(_, bytes)| *bytes)
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
        for (name, bytes) in MODELS {
            // A safetensors file starts with its header's length (little-endian u64),
            // then the JSON header.
            let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
            assert!(len > 2 && 8 + len <= bytes.len(), "{name}");
            assert_eq!(bytes[8], b'{', "{name}");
        }
        for (name, bytes) in MODELS {
            assert_eq!(model(name), Some(bytes));
        }
        assert_eq!(model("5p"), None);
        for (name, bytes) in VALUE_MODELS {
            let bytes = bytes.expect("every variant has a value model");
            assert_eq!(value_model(name), Some(bytes));
            let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
            assert!(len > 2 && 8 + len <= bytes.len(), "{name}");
        }
        assert_eq!(value_model("5p"), None);
    }
}
