//! The vector env's outputs, declared once (EnvPool's `EnvSpec` idea).
//!
//! The [`outputs!`] table below names every output with its element type, whether it is
//! one value per env or a row per env, the key it goes to in Python's `infos`, and its
//! width per env (0: not produced, for optional outputs). From that one table come:
//!
//! - [`Outputs<F, T>`]: one buffer per output, in a storage *family* `F`: [`Slices`] (what a
//!   pass writes, and one env's row), [`Owned`] (vectors, for Rust users and the
//!   asynchronous pipeline), or the Python binding's numpy arrays;
//! - [`OUTPUTS`]: each output's [`OutputSpec`] (the Python binding builds its arrays, and
//!   `_vector.py` its `infos`, from it), and [`widths`];
//! - the generic walks every storage uses ([`Outputs::build`], [`Outputs::visit`],
//!   [`Outputs::map`], [`Outputs::map_ref`], [`Outputs::map_mut`]), from which sizing,
//!   splitting into chunks and rows, allocating and borrowing are written once.
//!
//! Adding an output is one line in the table, plus the code that writes it
//! ([`super::Slot`]'s `write`/`step`); Rust buffers, chunking, Python arrays, their reuse and
//! the `infos` key follow.

use std::marker::PhantomData;

use super::Shared;
use yokai_septet::observation::{observation_size, ObsValue};
use yokai_septet::state_tensor::state_size;

/// A value type an output holds (`bool`, `f32`, `i64`, and the observations' `u8`/`f32`):
/// these four and no other (the trait is sealed).
pub trait Elem: Copy + Default + Send + Sync + 'static + sealed::Sealed {
    /// numpy's name for it.
    const DTYPE: &'static str;
    /// `op` at this element type: how code that needs a trait of its own of each element
    /// type reaches the concrete type (the Python binding's arrays need numpy's `Element`,
    /// which this crate does not know).
    fn typed<O: ForEachElem>(op: O, input: O::In<Self>) -> O::Out<Self>;
}

/// An operation defined at each of the four element types, run at one by [`Elem::typed`].
pub trait ForEachElem {
    /// What it takes at element type `E`.
    type In<E: Elem>;
    /// What it gives at element type `E`.
    type Out<E: Elem>;
    /// The operation at `bool`.
    fn bool(self, input: Self::In<bool>) -> Self::Out<bool>;
    /// The operation at `f32`.
    fn f32(self, input: Self::In<f32>) -> Self::Out<f32>;
    /// The operation at `i64`.
    fn i64(self, input: Self::In<i64>) -> Self::Out<i64>;
    /// The operation at `u8`.
    fn u8(self, input: Self::In<u8>) -> Self::Out<u8>;
}

/// The four element types, with numpy's names.
macro_rules! elems {
    ($($t:ident => $dtype:literal),+) => {$(
        impl Elem for $t {
            const DTYPE: &'static str = $dtype;
            #[inline]
            fn typed<O: ForEachElem>(op: O, input: O::In<$t>) -> O::Out<$t> {
                op.$t(input)
            }
        }
        impl sealed::Sealed for $t {}
    )+};
}
elems!(bool => "bool", f32 => "float32", i64 => "int64", u8 => "uint8");

mod sealed {
    /// Only the four element types are [`Elem`](super::Elem)s.
    pub trait Sealed {}
}

/// A way of storing one buffer per output: `Of<E>` holds an output of element type `E`.
pub trait Family {
    type Of<E: Elem>;
}

/// Borrowed slices: what a pass writes (`num_envs` rows), a chunk of it, or one env's row.
/// An output that is not produced is an empty slice.
pub struct Slices<'a>(PhantomData<&'a mut ()>);
impl<'a> Family for Slices<'a> {
    type Of<E: Elem> = &'a mut [E];
}

/// Owned vectors ([`Outputs::owned`]).
pub struct Owned;
impl Family for Owned {
    type Of<E: Elem> = Vec<E>;
}

/// Two of another family's buffers (a split).
pub struct Pair<F>(PhantomData<F>);
impl<F: Family> Family for Pair<F> {
    type Of<E: Elem> = (F::Of<E>, F::Of<E>);
}

/// How an output is laid out per env.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    /// One value per env (Python: shape `[num_envs]`).
    Value,
    /// A row of `width` values per env (Python: shape `[num_envs, width]`).
    Row,
}

/// An output's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// The observations' dtype (`obs_dtype`: `uint8` or `float32`).
    Obs,
    Bool,
    F32,
    I64,
}

/// One output of the vector env.
#[derive(Clone, Copy, Debug)]
pub struct OutputSpec {
    /// Its name (Rust field, Python property).
    pub name: &'static str,
    /// Where it goes in Python: `None` for the step's tuple (`obs, rewards, terminated,
    /// truncated`), else its key in `infos`.
    pub info: Option<&'static str>,
    pub dtype: Dtype,
    pub per: Per,
    /// Whether every pass must write it (else an empty buffer means "not wanted").
    pub required: bool,
    /// What it holds.
    pub doc: &'static str,
}

/// What the optional outputs depend on, beside the core's settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Write every env's privileged state tensor (`state`).
    pub state_tensor: bool,
    /// Write each row's env index (`env_id`: the asynchronous pipeline's batches).
    pub env_ids: bool,
    /// Write the last observation of every episode a step ends (`final_obs`), before the
    /// env's next game is dealt: only [`super::Autoreset::SameStep`] needs it (the other
    /// modes return it as the step's observation).
    pub final_obs: bool,
}

macro_rules! dtype {
    (T) => {
        Dtype::Obs
    };
    (bool) => {
        Dtype::Bool
    };
    (f32) => {
        Dtype::F32
    };
    (i64) => {
        Dtype::I64
    };
}

macro_rules! outputs {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $elem:tt, $per:ident, info $info:expr, $req:ident,
            |$sh:ident, $ex:ident| $width:expr;
    )*) => {
        /// Every output of the vector env (see the module's table), in the storage `F`.
        pub struct Outputs<F: Family, T: ObsValue + Elem> {
            $( $(#[doc = $doc])+ pub $name: F::Of<$elem>, )*
        }

        /// The outputs by name, in table order (`Output::obs as usize` indexes [`OUTPUTS`]).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Output { $( $name, )* }

        /// Every output's spec, in table order.
        pub const OUTPUTS: &[OutputSpec] = &[$(
            OutputSpec {
                name: stringify!($name),
                info: $info,
                dtype: dtype!($elem),
                per: Per::$per,
                required: outputs!(@req $req),
                doc: concat!($($doc),+),
            },
        )*];

        /// Number of outputs.
        pub const NUM_OUTPUTS: usize = OUTPUTS.len();

        /// Values per env of each output (0: not produced), in table order.
        pub fn widths(sh: &Shared, extras: Extras) -> [usize; NUM_OUTPUTS] {
            [$( {
                let ($sh, $ex) = (sh, extras);
                let _ = (&$sh, &$ex);
                $width
            }, )*]
        }

        impl<F: Family, T: ObsValue + Elem> Outputs<F, T> {
            /// Every output made by `f`.
            pub fn build(f: &mut impl Build<F>) -> Self {
                Outputs { $( $name: f.build::<$elem>(Output::$name), )* }
            }

            /// Shows `f` every output.
            pub fn visit(&self, f: &mut impl Visit<F>) {
                $( f.visit::<$elem>(Output::$name, &self.$name); )*
            }

            /// Every output turned into family `G` by `f`.
            pub fn map<G: Family>(self, f: &mut impl Map<F, G>) -> Outputs<G, T> {
                Outputs { $( $name: f.map::<$elem>(Output::$name, self.$name), )* }
            }

            /// Every output, seen through `&`, turned into family `G` by `f`.
            pub fn map_ref<G: Family>(&self, f: &mut impl MapRef<F, G>) -> Outputs<G, T> {
                Outputs { $( $name: f.map::<$elem>(Output::$name, &self.$name), )* }
            }

            /// Every output, borrowed mutably for `'s`, turned into family `G` by `f`.
            pub fn map_mut<'s, G: Family>(&'s mut self, f: &mut impl MapMut<'s, F, G>)
                -> Outputs<G, T> {
                Outputs { $( $name: f.map::<$elem>(Output::$name, &mut self.$name), )* }
            }
        }

        impl<'a, T: ObsValue + Elem> Outputs<Slices<'a>, T> {
            /// Splits off the first row of every buffer (`widths`: values per row); the
            /// buffers keep the rest.
            #[inline]
            pub fn take_row(&mut self, widths: &[usize; NUM_OUTPUTS]) -> Outputs<Slices<'a>, T> {
                Outputs { $( $name: {
                    let w = widths[Output::$name as usize];
                    let (head, tail) = std::mem::take(&mut self.$name).split_at_mut(w);
                    self.$name = tail;
                    head
                }, )* }
            }
        }

        impl<F: Family, T: ObsValue + Elem> Outputs<Pair<F>, T> {
            /// The two halves of a split.
            pub fn unzip(self) -> (Outputs<F, T>, Outputs<F, T>) {
                $( let $name = self.$name; )*
                (Outputs { $( $name: $name.0, )* }, Outputs { $( $name: $name.1, )* })
            }
        }
    };
    (@req required) => { true };
    (@req optional) => { false };
}

/// Makes an output's buffer ([`Outputs::build`]).
pub trait Build<F: Family> {
    fn build<E: Elem>(&mut self, out: Output) -> F::Of<E>;
}

/// Looks at an output's buffer ([`Outputs::visit`]).
pub trait Visit<F: Family> {
    fn visit<E: Elem>(&mut self, out: Output, x: &F::Of<E>);
}

/// Turns an output's buffer into another family's ([`Outputs::map`]).
pub trait Map<F: Family, G: Family> {
    fn map<E: Elem>(&mut self, out: Output, x: F::Of<E>) -> G::Of<E>;
}

/// Turns a shared view of an output's buffer into another family's ([`Outputs::map_ref`]).
pub trait MapRef<F: Family, G: Family> {
    fn map<E: Elem>(&mut self, out: Output, x: &F::Of<E>) -> G::Of<E>;
}

/// Turns a mutable borrow of an output's buffer into another family's
/// ([`Outputs::map_mut`]).
pub trait MapMut<'s, F: Family, G: Family> {
    fn map<E: Elem>(&mut self, out: Output, x: &'s mut F::Of<E>) -> G::Of<E>;
}

// The table. Each entry: docs; `name: element type, per env (Value or Row), info key,
// required or optional, |shared, extras| width per env`.
outputs! {
    /// Observations `[N, D]` of the seat that decides next (the learner's in learner mode),
    /// in the observation dtype.
    obs: T, Row, info None, required, |sh, ex| observation_size(sh.config.variant);
    /// Legal-action masks `[N, num_actions]` for the decision now pending.
    mask: bool, Row, info Some("action_mask"), required, |sh, ex| sh.config.num_actions();
    /// Rewards of the step: `[N, 1]` (learner modes) or `[N, num_players]` (self-play).
    reward: f32, Row, info None, required, |sh, ex| sh.reward_width();
    /// Whether the step ended the env's episode by the rules (the env has been reset).
    terminated: bool, Value, info None, required, |sh, ex| 1;
    /// Whether the step ended the env's episode at the round cap (it has been reset).
    truncated: bool, Value, info None, required, |sh, ex| 1;
    /// The seat to move now (`-1`: none).
    to_play: i64, Value, info Some("to_play"), required, |sh, ex| 1;
    /// Whether a round ended on the step (by the action or by the bots' moves after it;
    /// the game's last round too).
    round_end: bool, Value, info Some("round_end"), required, |sh, ex| 1;
    /// Each side's margin `[N, num_sides]` in the round the step ended (`reward::round_margins`:
    /// its points, or seals, minus the other sides' average; sides as `Variant::side_of`
    /// numbers them), 0 where no round ended; over the game's target it is on the game's
    /// scale.
    round_margin: f32, Row, info Some("round_margin"), required,
        |sh, ex| sh.config.variant.num_sides();
    /// Privileged state tensors `[N, state_size]` (docs/state_tensor.md), in the observation
    /// dtype; only with `Extras::state_tensor`.
    state: T, Row, info Some("state"), optional,
        |sh, ex| if ex.state_tensor { state_size(sh.config.variant) } else { 0 };
    /// Each row's env index (the asynchronous pipeline's batches hold some envs, in any
    /// order); only with `Extras::env_ids`.
    env_id: i64, Value, info Some("env_id"), optional, |sh, ex| usize::from(ex.env_ids);
    /// Whether the step's action was illegal, which ended the episode as lost; only under
    /// `Illegal::Lose`.
    illegal: bool, Value, info Some("illegal_action"), optional,
        |sh, ex| usize::from(matches!(sh.illegal, super::Illegal::Lose(_)));
    /// The last observation of the episode the step ended, in the observation dtype, for
    /// rows whose `terminated` or `truncated` is set (other rows are left as they were:
    /// read them through the flags); only with `Extras::final_obs`.
    final_obs: T, Row, info Some("final_obs"), optional,
        |sh, ex| if ex.final_obs { observation_size(sh.config.variant) } else { 0 };
}

impl<F: Family, T: ObsValue + Elem> Outputs<F, T> {
    /// The spec of `out`.
    pub fn spec(out: Output) -> &'static OutputSpec {
        &OUTPUTS[out as usize]
    }
}

/// Sizes of a set of buffers: rows (envs) and values per row of each output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rows: usize,
    pub widths: [usize; NUM_OUTPUTS],
}

impl Layout {
    /// `rows` envs of a core with settings `sh`.
    pub fn new(sh: &Shared, rows: usize, extras: Extras) -> Layout {
        Layout {
            rows,
            widths: widths(sh, extras),
        }
    }

    /// Values in `out`'s buffer.
    pub fn len(&self, out: Output) -> usize {
        self.rows * self.widths[out as usize]
    }

    /// The same widths for `rows` rows.
    pub fn with_rows(&self, rows: usize) -> Layout {
        Layout { rows, ..*self }
    }
}

/// Zeroed vectors of a layout.
struct Zeroed(Layout);
impl Build<Owned> for Zeroed {
    fn build<E: Elem>(&mut self, out: Output) -> Vec<E> {
        vec![E::default(); self.0.len(out)]
    }
}

/// Borrows vectors as slices.
struct AsSlices;
impl<'s> MapMut<'s, Owned, Slices<'s>> for AsSlices {
    fn map<E: Elem>(&mut self, _: Output, x: &'s mut Vec<E>) -> &'s mut [E] {
        x
    }
}

/// Splits every slice after `rows` rows.
struct SplitAt<'l> {
    rows: usize,
    widths: &'l [usize; NUM_OUTPUTS],
}
impl<'a> Map<Slices<'a>, Pair<Slices<'a>>> for SplitAt<'_> {
    #[inline]
    fn map<E: Elem>(&mut self, out: Output, x: &'a mut [E]) -> (&'a mut [E], &'a mut [E]) {
        x.split_at_mut(self.rows * self.widths[out as usize])
    }
}

/// Checks every buffer's length against a layout (the first wrong output is kept).
struct CheckLen<'l> {
    layout: &'l Layout,
    wrong: Option<(Output, usize, usize)>,
}
impl<'a> Visit<Slices<'a>> for CheckLen<'_> {
    fn visit<E: Elem>(&mut self, out: Output, x: &&'a mut [E]) {
        let want = self.layout.len(out);
        let ok = x.len() == want || (x.is_empty() && !OUTPUTS[out as usize].required);
        if !ok && self.wrong.is_none() {
            self.wrong = Some((out, want, x.len()));
        }
    }
}

/// Which optional outputs a set of buffers holds.
struct Present(Extras);
impl<'a> Visit<Slices<'a>> for Present {
    fn visit<E: Elem>(&mut self, out: Output, x: &&'a mut [E]) {
        match out {
            Output::state => self.0.state_tensor = !x.is_empty(),
            Output::env_id => self.0.env_ids = !x.is_empty(),
            Output::final_obs => self.0.final_obs = !x.is_empty(),
            _ => {}
        }
    }
}

impl<T: ObsValue + Elem> Outputs<Owned, T> {
    /// Zeroed buffers for `layout`.
    pub fn owned(layout: &Layout) -> Self {
        Self::build(&mut Zeroed(*layout))
    }

    /// Borrows them as slices (what [`super::VecCore`]'s passes take).
    pub fn as_slices(&mut self) -> Outputs<Slices<'_>, T> {
        self.map_mut(&mut AsSlices)
    }
}

impl<'a, T: ObsValue + Elem> Outputs<Slices<'a>, T> {
    /// The first `rows` rows of every buffer, and the rest.
    #[inline]
    pub fn split_at(self, rows: usize, widths: &[usize; NUM_OUTPUTS]) -> (Self, Self) {
        self.map(&mut SplitAt { rows, widths }).unzip()
    }

    /// The layout these buffers have for `rows` envs: the optional outputs present are
    /// those whose buffer is not empty. Panics naming the first buffer of the wrong size.
    pub fn layout(&self, sh: &Shared, rows: usize) -> Layout {
        let mut present = Present(Extras::default());
        self.visit(&mut present);
        let layout = Layout::new(sh, rows, present.0);
        let mut check = CheckLen {
            layout: &layout,
            wrong: None,
        };
        self.visit(&mut check);
        if let Some((out, want, got)) = check.wrong {
            panic!(
                "VecCore output `{}` has {got} values, expected {want} ({rows} envs)",
                OUTPUTS[out as usize].name
            );
        }
        layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::{GameConfig, Variant};

    #[test]
    fn the_table_sizes_splits_and_checks_every_output() {
        let sh = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
        let extras = Extras {
            state_tensor: true,
            env_ids: false,
            final_obs: true,
        };
        let layout = Layout::new(&sh, 5, extras);
        let mut owned = Outputs::<Owned, u8>::owned(&layout);
        assert_eq!(owned.obs.len(), 5 * observation_size(Variant::FourPlayer));
        assert_eq!(owned.reward.len(), 5 * 4);
        assert_eq!(owned.state.len(), 5 * state_size(Variant::FourPlayer));
        assert!(owned.env_id.is_empty());
        assert_eq!(owned.final_obs.len(), owned.obs.len());
        let s = owned.as_slices();
        assert_eq!(s.layout(&sh, 5), layout);
        let (a, b) = s.split_at(2, &layout.widths);
        assert_eq!((a.mask.len(), b.mask.len()), (2 * 49, 3 * 49));
        assert_eq!((a.to_play.len(), b.to_play.len()), (2, 3));
        assert_eq!(b.layout(&sh, 3), layout.with_rows(3));
        let names: Vec<_> = OUTPUTS.iter().map(|o| o.name).collect();
        assert_eq!(names[..3], ["obs", "mask", "reward"]);
        assert_eq!(OUTPUTS[Output::mask as usize].info, Some("action_mask"));
    }

    #[test]
    #[should_panic(expected = "output `mask` has 3 values")]
    fn a_wrong_size_is_named() {
        let sh = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
        let mut owned = Outputs::<Owned, f32>::owned(&Layout::new(&sh, 2, Extras::default()));
        owned.mask.truncate(3);
        owned.as_slices().layout(&sh, 2);
    }
}
