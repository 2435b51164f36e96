//! The name-enum pattern, written once: a fieldless enum whose values have stable names
//! (in configs, records, the command line and Python) gets `ALL`, `name`, `from_name`
//! and `Display` from one table.

/// `names!(Type { Variant => "name", … })`: `Type::ALL` (in the table's order, which is
/// the declaration order), `Type::name`, `Type::from_name` and `Display` (the name).
macro_rules! names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

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

pub(crate) use names;
