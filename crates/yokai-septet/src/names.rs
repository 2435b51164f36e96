//! The name-enum pattern, written once: a fieldless enum whose values have stable names
//! (in configs, records, the command line and Python) gets `ALL`, `name`, `from_name`
//! and `Display` from one table.

/// `names!(Type { Variant => "name", … })`: `Type::ALL` (in the table's order, which is
/// the declaration order), `Type::name`, `Type::from_name` and `Display` (the name). The
/// crates above the engine name their enums with it too (`RewardMode`).
#[macro_export]
macro_rules! names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// Every value's name, in the order of `ALL` (settings tables list them).
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            /// The value's name in configs, records, the command line and Python.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }

            /// The value called `name`, if any.
            pub fn from_name(name: &str) -> Option<$ty> {
                $ty::ALL.into_iter().find(|v| v.name() == name)
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

/// `k` of `noun` in words: `1 card`, `3 cards` (a regular plural: add `s`).
pub fn count(k: usize, noun: &str) -> String {
    if k == 1 {
        format!("1 {noun}")
    } else {
        format!("{k} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use crate::{Episode, Phase, RoundEnd, Scoring, Variant};

    /// Every value's name is unique, finds the value again, and is what it displays.
    fn round_trip<T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display>(
        all: &[T],
        name: impl Fn(T) -> &'static str,
        from_name: impl Fn(&str) -> Option<T>,
    ) {
        for &v in all {
            assert_eq!(from_name(name(v)), Some(v));
            assert_eq!(v.to_string(), name(v));
            assert_eq!(all.iter().filter(|&&w| name(w) == name(v)).count(), 1);
        }
        assert_eq!(from_name("no such name"), None);
    }

    #[test]
    fn names_find_their_values_and_display() {
        round_trip(&Variant::ALL, Variant::name, Variant::from_name);
        round_trip(&Scoring::ALL, Scoring::name, Scoring::from_name);
        round_trip(&Episode::ALL, Episode::name, Episode::from_name);
        round_trip(&Phase::ALL, Phase::name, Phase::from_name);
        round_trip(&RoundEnd::ALL, RoundEnd::name, RoundEnd::from_name);
    }
}
