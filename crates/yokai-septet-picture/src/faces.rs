//! The card faces: each suit's colours (R1), a face drawn whole or fanned, lit or dimmed,
//! and the `<defs>` that hold every face a picture uses once (with the card back).

use std::fmt::Write;

use yokai_septet::{Card, CardSet, Suit};

/// The table's paper colour (a dimmed face mixes towards it).
pub(crate) const PAPER: &str = "#f7f4ea";

/// How a card face is drawn: whole or fanned (covered but for its left strip), lit or
/// dimmed (a card the acting seat may not choose).
///
/// A fanned face shows only its corner index (letter, value, marks): the big centred
/// value would show through the strip cut, and a cut `13` reads as `1`. A dimmed face is
/// drawn in opaque colours mixed with the paper, never with transparency, so that the
/// cards it covers do not show through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    pub fanned: bool,
    pub dim: bool,
}

impl Look {
    const ALL: [Look; 4] = [
        Look {
            fanned: false,
            dim: false,
        },
        Look {
            fanned: false,
            dim: true,
        },
        Look {
            fanned: true,
            dim: false,
        },
        Look {
            fanned: true,
            dim: true,
        },
    ];

    pub(crate) fn index(self) -> usize {
        usize::from(self.fanned) * 2 + usize::from(self.dim)
    }

    /// The face's id in `<defs>`: `ys-c12`, `ys-c12-dim`, `ys-c12-fan`, `ys-c12-fan-dim`.
    pub(crate) fn id(self, c: Card) -> String {
        format!(
            "ys-c{}{}{}",
            c.id(),
            if self.fanned { "-fan" } else { "" },
            if self.dim { "-dim" } else { "" }
        )
    }
}

/// How much of the paper a dimmed face mixes into its colours.
const DIM: f32 = 0.55;

/// `#rrggbb` mixed with the paper colour, `t` of the way (opaque).
fn toward_paper(hex: &str, t: f32) -> String {
    let channel = |s: &str, k: usize| u8::from_str_radix(&s[1 + 2 * k..3 + 2 * k], 16).unwrap_or(0);
    let mix = |k: usize| {
        let (a, b) = (channel(hex, k) as f32, channel(PAPER, k) as f32);
        (a + (b - a) * t).round() as u8
    };
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

/// A suit's card colour and the text colour on it (R1: green, purple, pink, yellow,
/// black, red, blue).
pub(crate) fn suit_colors(s: Suit) -> (&'static str, &'static str) {
    match s {
        Suit::Wind => ("#2e8b3e", "#ffffff"),
        Suit::Earth => ("#7a3f9d", "#ffffff"),
        Suit::Charm => ("#e0589a", "#ffffff"),
        Suit::Lightning => ("#f2c40f", "#222222"),
        Suit::Darkness => ("#262626", "#ffffff"),
        Suit::Fire => ("#d2372c", "#ffffff"),
        Suit::Snow => ("#2a6fc9", "#ffffff"),
    }
}

/// The faces of `cards` (one set per [`Look`], by `Look::index`) and the card back as an
/// SVG `<defs>` element.
pub(crate) fn defs(cards: &[CardSet; 4], back: bool) -> String {
    let mut out = String::from("<defs>");
    for look in Look::ALL {
        for c in cards[look.index()] {
            card_face(&mut out, c, look);
        }
    }
    if back {
        out += concat!(
            r##"<g id="ys-back"><rect x=".5" y=".5" width="35" height="51" rx="4" fill="#3b4a7a" stroke="#1c2340"/>"##,
            r##"<rect x="4" y="4" width="28" height="44" rx="2" fill="none" stroke="#aab6e0" stroke-width="1.2"/>"##,
            r##"<path d="M18 10 L28 26 L18 42 L8 26 Z" fill="none" stroke="#aab6e0" stroke-width="1.2"/></g>"##
        );
    }
    out += "</defs>";
    out
}

/// Every face of the Seal deck (a superset of the standard deck) in every look, and the
/// back.
pub(crate) fn all_defs() -> String {
    defs(&[CardSet::SEAL_DECK; 4], true)
}

/// The corner value's width at most, in SVG units: two digits are set condensed to fit,
/// so that the index stays inside the narrowest strip of a fanned hand.
pub(crate) const INDEX_VALUE_WIDTH: f32 = 13.0;

fn card_face(out: &mut String, c: Card, look: Look) {
    let (bg, fg) = suit_colors(c.suit());
    let (bg, fg, edge) = if look.dim {
        (
            toward_paper(bg, DIM),
            toward_paper(fg, DIM),
            toward_paper("#111111", DIM),
        )
    } else {
        (bg.to_string(), fg.to_string(), "#111111".to_string())
    };
    let value = if c == Card::ACE {
        "A".to_string()
    } else {
        c.value().to_string()
    };
    let _ = write!(
        out,
        r##"<g id="{}"><rect x=".5" y=".5" width="35" height="51" rx="4" fill="{bg}" stroke="{edge}" stroke-width="1"/>"##,
        look.id(c)
    );
    if c.is_boss() {
        let _ = write!(
            out,
            r#"<rect x="3" y="3" width="30" height="46" rx="3" fill="none" stroke="{fg}" stroke-width="1.6"/>"#
        );
    }
    // The corner index (letter, value, marks) stays readable when cards overlap. A second
    // copy's `b` follows the letter's own advance (a tspan), with a gap: at a fixed x it
    // touched the wide `W` at 1x scale.
    let copy_mark = if c.is_second_copy() {
        r#"<tspan font-size="9" dx="1.2">b</tspan>"#
    } else {
        ""
    };
    let _ = write!(
        out,
        r#"<text x="4" y="13" font-size="10" font-weight="bold" fill="{fg}">{}{copy_mark}</text>"#,
        c.suit().letter()
    );
    // Two digits are condensed into the index's width (the font's "13" is wider).
    let condensed = if value.len() > 1 {
        format!(r#" textLength="{INDEX_VALUE_WIDTH}" lengthAdjust="spacingAndGlyphs""#)
    } else {
        String::new()
    };
    let _ = write!(
        out,
        r#"<text x="3" y="26" font-size="12" font-weight="bold" fill="{fg}"{condensed} class="index">{value}</text>"#
    );
    if c.is_boss() {
        let _ = write!(
            out,
            r#"<text x="4" y="38" font-size="9" fill="{fg}">★</text>"#
        );
    }
    if look.fanned {
        out.push_str("</g>");
        return;
    }
    if c == Card::ACE {
        let _ = write!(
            out,
            r#"<circle cx="23" cy="34" r="9" fill="none" stroke="{fg}" stroke-width="1.4"/>"#
        );
    }
    let _ = write!(
        out,
        r#"<text x="23" y="40" font-size="16" font-weight="bold" text-anchor="middle" fill="{fg}">{value}</text>"#
    );
    out.push_str("</g>");
}

#[cfg(all(test, feature = "raster"))]
mod tests {
    use super::*;

    /// Ink runs along the columns `x0..x1` of the rows `y0..y1`: each run a stretch of
    /// columns holding a pixel far from the card's colour.
    fn ink_runs(r: &crate::Raster, x0: u32, x1: u32, y0: u32, y1: u32) -> usize {
        let paper = |x: u32, y: u32| {
            let i = 3 * (y * r.width + x) as usize;
            [r.rgb[i], r.rgb[i + 1], r.rgb[i + 2]]
        };
        let bg = paper(x1, y0);
        let inked: Vec<bool> = (x0..x1)
            .map(|x| {
                (y0..y1).any(|y| {
                    let p = paper(x, y);
                    (0..3)
                        .map(|k| (p[k] as i32 - bg[k] as i32).abs())
                        .sum::<i32>()
                        > 120
                })
            })
            .collect();
        inked.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(inked[0])
    }

    /// At 1x scale, every second copy's `b` stands clear of its suit letter: the corner
    /// holds two runs of ink with a bare column between them (the `Wb` once read as one
    /// blot).
    #[test]
    fn the_copy_mark_stands_clear_of_the_suit_letter_at_1x() {
        for s in yokai_septet::Suit::ALL {
            let c = s.second_boss();
            let look = Look {
                fanned: true,
                dim: false,
            };
            let mut face = String::new();
            card_face(&mut face, c, look);
            let svg = format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="36" height="52"><defs>{face}</defs><use xlink:href="#{}"/></svg>"##,
                look.id(c)
            );
            let r = crate::rasterize(&svg, 1.0).unwrap();
            // Inside the boss frame, the letter's band: from the letter to past the `b`.
            assert_eq!(
                ink_runs(&r, 4, 24, 5, 14),
                2,
                "{c}: the letter and the b touch"
            );
        }
    }
}
