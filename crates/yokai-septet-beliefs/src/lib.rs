//! The belief models of yokai-septet's `-inf` search bots: for each variant, a network
//! that reads one seat's observation and the round's play log and gives, for every card
//! the seat cannot see, a weight for each other seat holding it (safetensors files, float16,
//! as bytes; the engine's `docs/inference.md`).
//!
//! `yokai-septet` reads them (`BeliefNet::shipped`, feature `models`); they are a crate
//! of their own so that each crate stays under crates.io's 10 MiB, uncompressed too.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// The belief model files by variant name, in the engine's variant order (`4p`, `3p`,
/// `seal`, `seal-short`): index it with the variant's number.
pub static BELIEFS: [(&str, &[u8]); 4] = [
    ("4p", include_bytes!("../models/belief-4p.safetensors")),
    ("3p", include_bytes!("../models/belief-3p.safetensors")),
    ("seal", include_bytes!("../models/belief-seal.safetensors")),
    (
        "seal-short",
        include_bytes!("../models/belief-seal-short.safetensors"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_belief_model_file_in_the_engines_order() {
        let names: Vec<&str> = BELIEFS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["4p", "3p", "seal", "seal-short"]);
        // Each file is the engine's: a float16 belief model of its own variant.
        for (name, bytes) in BELIEFS {
            let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
            let header = std::str::from_utf8(&bytes[8..8 + len]).unwrap();
            assert!(
                header.contains("\"format\":\"yokai-septet-belief/2\""),
                "{name}"
            );
            assert!(
                header.contains(&format!("\"variant\":\"{name}\"")),
                "{name}"
            );
            assert!(header.contains("\"dtype\":\"F16\""), "{name}");
        }
    }
}
