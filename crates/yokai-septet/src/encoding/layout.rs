//! Field tables for flat feature vectors: one spec (name, length, meaning per field, in
//! vector order) gives the offsets the encoder writes through and the Markdown table the
//! docs are generated from, so a documented offset cannot drift from the real one. Used
//! by the observation ([`crate::observation`]) and the privileged state tensor
//! ([`crate::state_tensor`]).

use std::fmt::Write as _;

/// One field of a feature vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name.
    pub name: &'static str,
    /// Its first index in the vector.
    pub offset: usize,
    /// Its number of entries.
    pub len: usize,
    /// What it holds.
    pub meaning: &'static str,
}

/// A field's spec: name, length, meaning.
pub(crate) type Spec = (&'static str, usize, &'static str);

/// One layout per variant, in [`Variant::ALL`](crate::rules::config::Variant::ALL) order
/// (index a table with `variant as usize`), each built at compile time by the `const fn`
/// `$build(variant)`.
macro_rules! per_variant {
    ($build:path) => {
        [
            $build(crate::rules::config::Variant::ALL[0]),
            $build(crate::rules::config::Variant::ALL[1]),
            $build(crate::rules::config::Variant::ALL[2]),
            $build(crate::rules::config::Variant::ALL[3]),
        ]
    };
}
pub(crate) use per_variant;

/// The layout of `K` fields (some possibly empty), computed at compile time.
pub(crate) struct Layout<const K: usize> {
    /// Non-empty fields in vector order; the first `count` are valid.
    fields: [Field; K],
    count: usize,
    /// Offset and length by field id (zero-length fields included).
    pub(crate) offset: [usize; K],
    pub(crate) len: [usize; K],
    pub(crate) size: usize,
}

impl<const K: usize> Layout<K> {
    /// Fields laid out contiguously from 0 in the order of `specs`.
    pub(crate) const fn new(specs: [Spec; K]) -> Layout<K> {
        const BLANK: Field = Field {
            name: "",
            offset: 0,
            len: 0,
            meaning: "",
        };
        let mut l = Layout {
            fields: [BLANK; K],
            count: 0,
            offset: [0; K],
            len: [0; K],
            size: 0,
        };
        let mut i = 0;
        while i < K {
            let (name, len, meaning) = specs[i];
            l.offset[i] = l.size;
            l.len[i] = len;
            if len > 0 {
                l.fields[l.count] = Field {
                    name,
                    offset: l.size,
                    len,
                    meaning,
                };
                l.count += 1;
            }
            l.size += len;
            i += 1;
        }
        l
    }

    /// The non-empty fields, in vector order.
    pub(crate) fn fields(&self) -> &[Field] {
        &self.fields[..self.count]
    }

    /// The layout as a Markdown table under a `### `{title}`: N values` heading.
    pub(crate) fn markdown(&self, title: &str) -> String {
        let mut s = format!(
            "### `{title}`: {} values\n\n| field | offset | length | meaning |\n|---|---:|---:|---|\n",
            self.size
        );
        for f in self.fields() {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} |",
                f.name, f.offset, f.len, f.meaning
            );
        }
        s
    }
}

/// A document: `intro`, then one table per variant (`table(v)`), as `docs/*.md` hold them.
pub(crate) fn docs(intro: &str, table: impl Fn(crate::rules::config::Variant) -> String) -> String {
    let mut s = String::from(intro);
    for v in crate::rules::config::Variant::ALL {
        s.push('\n');
        s.push_str(&table(v));
    }
    s
}
