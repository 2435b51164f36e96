//! Pictures of the table: the SVG (parsed as XML and read back), the seat view's secrecy
//! (R10), the suit colours and card marks (R1), the HTML replay viewer's page, and (with
//! the `raster` feature) the pixels.

use yokai_septet_testkit as common;

use std::collections::BTreeSet;

use yokai_septet::{sampler, Card, CardSet, GameConfig, Match, State, Suit, Variant};
use yokai_septet_picture::{replay_html, seat_svg, table_svg, table_text};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"))
}

/// The R1 codes of every card placed in the picture (`<use data-card>`), optionally only
/// under the element matching `within`.
fn placed(doc: &roxmltree::Document, within: impl Fn(roxmltree::Node) -> bool) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("use") && n.attribute("data-card").is_some())
        .filter(|n| n.ancestors().any(&within))
        .map(|n| n.attribute("data-card").unwrap().to_string())
        .collect()
}

fn codes(set: CardSet) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

fn hand_group(p: usize) -> impl Fn(roxmltree::Node) -> bool {
    move |n| {
        n.attribute("class") == Some("hand") && n.attribute("data-seat") == Some(&p.to_string())
    }
}

/// States along random games of every variant: passing, mid-trick, after round ends.
fn sample_states() -> Vec<State> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        for seed in 0..3u64 {
            let mut cfg = GameConfig::new(v, seed);
            cfg.max_rounds = Some(3);
            let mut m = Match::new(cfg);
            let mut rng = common::rng(seed);
            let mut k = 0;
            while !m.state().is_over() {
                if k % 5 == 0 {
                    out.push(*m.state());
                }
                let c = common::random_action(m.state(), &mut rng);
                m.apply(c).unwrap();
                k += 1;
            }
            out.push(*m.state());
        }
    }
    out
}

#[test]
fn table_svg_is_well_formed_and_shows_every_hand_trick_and_captured_boss() {
    for s in sample_states() {
        let svg = table_svg(&s);
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some("960"));
        assert_eq!(root.attribute("height"), Some("640"));
        for p in 0..s.num_players() {
            assert_eq!(
                placed(&doc, hand_group(p)),
                codes(s.hand(p)),
                "seat {p}\n{}",
                table_text(&s)
            );
            let bosses = placed(&doc, |n| {
                n.attribute("class") == Some("bosses")
                    && n.parent()
                        .is_some_and(|g| g.attribute("data-seat") == Some(&p.to_string()))
            });
            assert_eq!(bosses, codes(s.won_cards(p).bosses()));
        }
        let trick: Vec<String> = s.trick_cards().iter().map(|c| c.to_string()).collect();
        assert_eq!(
            placed(&doc, |n| n.attribute("class") == Some("trick")),
            trick
        );
        // Every placed card has its face defined in the same document.
        let defined: BTreeSet<&str> = doc
            .descendants()
            .filter_map(|n| n.attribute("id"))
            .collect();
        for n in doc.descendants().filter(|n| n.has_tag_name("use")) {
            let href = n.attribute("href").unwrap();
            assert!(defined.contains(&href[1..]), "{href} undefined");
        }
        let text: String = doc
            .descendants()
            .filter(|n| n.is_text())
            .map(|n| n.text().unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(&format!("round {}", s.round())), "{text}");
        for p in 0..s.num_players() {
            assert!(text.contains(&format!("tricks {}", s.tricks_won(p))));
        }
        match s.trump_suit() {
            Some(t) => assert!(text.contains(t.name())),
            None => assert!(text.contains("set by the first lead")),
        }
        if s.is_over() && !s.is_truncated() {
            assert!(text.contains("Game over · winners"), "{text}");
        }
    }
}

/// R1 colour names, checked on the card's fill by hue.
fn colour_name(hex: &str) -> &'static str {
    let v = u32::from_str_radix(&hex[1..], 16).unwrap();
    let (r, g, b) = ((v >> 16) as i32, (v >> 8 & 255) as i32, (v & 255) as i32);
    if r.max(g).max(b) < 64 {
        "black"
    } else if g > r && g > b {
        "green"
    } else if r > 200 && g > 150 && b < 80 {
        "yellow"
    } else if b > r && g > r {
        "blue"
    } else if b >= r && r > g {
        "purple"
    } else if r > b && b > g && b > 120 {
        "pink"
    } else if r > 150 && g < 80 && b < 80 {
        "red"
    } else {
        "unknown"
    }
}

#[test]
fn card_faces_show_the_suit_colour_letter_value_and_marks_r1() {
    // A seal deal: every card face, both boss copies included, sooner or later.
    let expected = ["green", "purple", "pink", "yellow", "black", "red", "blue"];
    let mut seen = CardSet::EMPTY;
    for seed in 0..40 {
        let s = State::new(GameConfig::new(Variant::Seal, seed));
        let svg = table_svg(&s);
        let doc = parse(&svg);
        for c in (0..56u8).filter_map(Card::new) {
            let Some(face) = doc.descendants().find(|n| {
                // Any look of the face: whole or fanned, lit or dimmed.
                let id = format!("ys-c{}", c.id());
                n.attribute("id")
                    .is_some_and(|a| a == id || a.starts_with(&format!("{id}-")))
            }) else {
                continue;
            };
            seen.insert(c);
            let fill = face
                .children()
                .find(|n| n.has_tag_name("rect"))
                .and_then(|r| r.attribute("fill"))
                .unwrap();
            assert_eq!(colour_name(fill), expected[c.suit().index()], "{c}");
            let texts: Vec<&str> = face
                .descendants()
                .filter(|n| n.is_text())
                .map(|n| n.text().unwrap())
                .collect();
            assert_eq!(texts[0], c.suit().letter().to_string(), "{c}");
            let value = if c == Card::ACE {
                "A".to_string()
            } else {
                c.value().to_string()
            };
            assert!(texts.contains(&value.as_str()), "{c}: {texts:?}");
            assert_eq!(texts.contains(&"★"), c.is_boss(), "{c}: boss mark");
            assert_eq!(texts.contains(&"b"), c.is_second_copy(), "{c}: copy mark");
            // The A's ring is in the centre, which a fanned face leaves out.
            let whole = !face.attribute("id").unwrap().contains("-fan");
            assert_eq!(
                face.descendants().any(|n| n.has_tag_name("circle")),
                c == Card::ACE && whole,
                "{c}: the A's ring"
            );
        }
    }
    assert_eq!(seen.len(), 56, "every face drawn: {seen}");
    for s in Suit::ALL {
        assert!(seen.contains(s.boss()) && seen.contains(s.second_boss()));
    }
}

#[test]
fn seat_svg_shows_only_what_the_seat_knows_r10() {
    let mut rng = common::rng(99);
    for s in sample_states() {
        for me in 0..s.num_players() {
            let view = s.view(me);
            let svg = seat_svg(&view);
            let doc = parse(&svg);
            assert_eq!(placed(&doc, hand_group(me)), codes(s.hand(me)));
            for p in (0..s.num_players()).filter(|&p| p != me) {
                assert!(placed(&doc, hand_group(p)).is_empty(), "seat {p} shown");
            }
            // Every card pictured is public or the viewer's own.
            let mut public = s.hand(me).union(s.played());
            if let Some(c) = s.trump_card() {
                public.insert(c);
            }
            for code in placed(&doc, |_| true) {
                let c: Card = code.parse().unwrap();
                assert!(public.contains(c), "{code} is hidden from seat {me}");
            }
            let backs = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("card-back"))
                .count();
            let others: usize = (0..s.num_players())
                .filter(|&p| p != me)
                .map(|p| s.hand(p).len() as usize)
                .collect::<Vec<_>>()
                .iter()
                .sum();
            assert_eq!(backs, others);
            // The picture depends on the information set only: any other deal consistent
            // with what this seat knows gives the same picture.
            if !s.is_over() {
                let other = sampler::sample(&view, &mut rng);
                assert_eq!(
                    seat_svg(&other.view(me)),
                    svg,
                    "seat {me}\n{}",
                    table_text(&s)
                );
            }
        }
    }
}

/// The JSON steps embedded in a replay page.
fn steps(html: &str) -> Vec<serde_json::Value> {
    let start = html.find(r#"id="ys-steps">"#).unwrap() + r#"id="ys-steps">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn replay_html_is_self_contained_and_steps_through_every_trick_of_a_record() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../yokai-septet/tests/golden");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        // The records (the folder also holds the search's golden move lists, `.txt`).
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let json = std::fs::read_to_string(&path).unwrap();
        let m = Match::from_json(&json).unwrap();
        let rec = m.record();
        let html = replay_html(&m);
        let name = path.display();
        // No network, no external files.
        for needle in ["<link", " src=", "url(", "@import", "https:"] {
            assert!(!html.contains(needle), "{name}: {needle}");
        }
        assert_eq!(
            html.matches("http://").count(),
            html.matches("http://www.w3.org/2000/svg").count(),
            "{name}: only the SVG namespace URI"
        );
        let steps = steps(&html);
        let expected: usize = rec
            .rounds
            .iter()
            .map(|r| 1 + r.passes.iter().any(|p| !p.is_empty()) as usize + r.tricks.len())
            .sum();
        assert_eq!(steps.len(), expected, "{name}");
        let mut tricks = steps
            .iter()
            .filter(|s| s["text"].as_str().unwrap().contains("ys-trick"));
        for (r, round) in rec.rounds.iter().enumerate() {
            for (k, trick) in round.tricks.iter().enumerate() {
                let step = tricks.next().unwrap();
                let text = step["text"].as_str().unwrap();
                let cards: Vec<String> = trick
                    .cards
                    .iter()
                    .map(|&c| Card::new(c).unwrap().to_string())
                    .collect();
                assert!(
                    text.contains(&format!(
                        r#"data-round="{r}" data-trick="{k}" data-cards="{}""#,
                        cards.join(" ")
                    )),
                    "{name} round {r} trick {k}: {text}"
                );
                let svg = step["svg"].as_str().unwrap();
                let doc = parse(svg);
                assert_eq!(
                    placed(&doc, |n| n.attribute("class") == Some("trick")),
                    cards
                );
                if k + 1 == round.tricks.len() {
                    let res = round.result.as_ref().unwrap();
                    assert!(
                        text.contains(&format!(r#"data-reason="{}""#, res.reason)),
                        "{name}: {text}"
                    );
                }
            }
        }
        // Every hand is drawn face up and face down, tagged by seat, for the seat selector.
        let first = parse(steps[0]["svg"].as_str().unwrap());
        for p in 0..m.state().num_players() {
            for side in ["ys-face", "ys-back"] {
                let class = format!("{side} ys-seat-{p}");
                assert!(
                    first
                        .descendants()
                        .any(|n| n.attribute("class") == Some(class.as_str())),
                    "{name}: {class}"
                );
            }
        }
    }
}

/// The placed cards of seat `p`'s hand, in order: (code, face id, x).
fn hand_cards(doc: &roxmltree::Document, p: usize) -> Vec<(String, String, f32)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("use") && n.ancestors().any(hand_group(p)))
        .map(|n| {
            (
                n.attribute("data-card").unwrap().to_string(),
                n.attribute("href")
                    .unwrap()
                    .trim_start_matches('#')
                    .to_string(),
                n.attribute("x").unwrap().parse().unwrap(),
            )
        })
        .collect()
}

/// Dimmed cards are drawn with opaque fills (no transparency anywhere in a hand or a card
/// face), exactly the acting seat's unplayable cards are dimmed, and every card a
/// neighbour covers shows its corner index only (no cut centre value).
#[test]
fn hands_are_opaque_dimmed_where_unplayable_and_fanned_to_their_index() {
    let mut dimmed_seen = 0;
    for s in sample_states() {
        let svg = table_svg(&s);
        let doc = parse(&svg);
        for n in doc.descendants() {
            for attr in ["opacity", "fill-opacity", "stroke-opacity"] {
                assert!(n.attribute(attr).is_none(), "{attr} on {:?}", n.tag_name());
            }
        }
        for p in 0..s.num_players() {
            let cards = hand_cards(&doc, p);
            let legal = s.legal_actions();
            for (k, (code, face, x)) in cards.iter().enumerate() {
                let c: Card = code.parse().unwrap();
                let dim = s.current_player() == Some(p) && !legal.contains(c);
                dimmed_seen += usize::from(dim);
                assert_eq!(face.ends_with("-dim"), dim, "{code} {face}");
                let covered = cards.get(k + 1).is_some_and(|next| next.2 - x < 36.0);
                assert_eq!(face.contains("-fan"), covered, "{code} {face}");
                // The face exists, with an opaque fill in its suit colour family.
                let def = doc
                    .descendants()
                    .find(|n| n.attribute("id") == Some(face.as_str()))
                    .unwrap_or_else(|| panic!("no face {face}"));
                let fill = def.children().find(|n| n.has_tag_name("rect")).unwrap();
                let fill = fill.attribute("fill").unwrap();
                assert!(fill.len() == 7 && fill.starts_with('#'), "{face}: {fill}");
                let texts: Vec<&str> = def
                    .descendants()
                    .filter(|n| n.is_text())
                    .map(|n| n.text().unwrap())
                    .collect();
                let value = if c == Card::ACE {
                    "A".to_string()
                } else {
                    c.value().to_string()
                };
                // The index shows the value once; a whole face shows it twice.
                let times = texts.iter().filter(|&&t| t == value).count();
                assert_eq!(times, if covered { 1 } else { 2 }, "{face}: {texts:?}");
            }
        }
    }
    assert!(dimmed_seen > 0, "the samples dim no card");
}

/// Two-digit values are set condensed in the corner index, which fits the narrowest strip
/// a fanned hand leaves (16 cards in 3p).
#[test]
fn two_digit_indices_fit_the_narrowest_strip() {
    let s = State::new(GameConfig::new(Variant::ThreePlayer, 1));
    let doc_text = table_svg(&s);
    let doc = parse(&doc_text);
    let cards = hand_cards(&doc, 0);
    assert_eq!(cards.len(), 16);
    let step = cards[1].2 - cards[0].2;
    for face in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("index"))
    {
        let x: f32 = face.attribute("x").unwrap().parse().unwrap();
        let text = face.text().unwrap();
        if text.len() == 2 {
            let width: f32 = face.attribute("textLength").unwrap().parse().unwrap();
            assert!(x + width < step, "{text}: {x} + {width} >= {step}");
        }
    }
}

/// The replay viewer names each passed card with its receiver, commas between, and counts
/// in words ("1 card").
#[test]
fn replay_pass_texts_name_each_card_with_its_receiver() {
    for v in [Variant::Seal, Variant::FourPlayer, Variant::ThreePlayer] {
        let mut cfg = GameConfig::new(v, 4);
        cfg.max_rounds = Some(1);
        let mut m = Match::new(cfg);
        let mut rng = common::rng(4);
        while !m.state().is_over() {
            let c = common::random_action(m.state(), &mut rng);
            m.apply(c).unwrap();
        }
        let rec = m.record();
        let html = replay_html(&m);
        assert!(html.contains(" · 1 round · "), "a count in words");
        let text = steps(&html)
            .iter()
            .find(|s| s["label"].as_str().unwrap().ends_with("passing"))
            .unwrap()["text"]
            .as_str()
            .unwrap()
            .to_string();
        let n = v.num_players();
        for p in 0..n {
            let expected: Vec<String> = rec.rounds[0].passes[p]
                .iter()
                .enumerate()
                .map(|(k, &c)| {
                    let to = match v {
                        Variant::FourPlayer => (p + 2) % 4,
                        Variant::ThreePlayer => (p + 1) % 3,
                        _ => (p + 1 + k) % 4,
                    };
                    format!("{} to seat {to}", Card::new(c).unwrap())
                })
                .collect();
            let whole = format!(
                r#"Seat {p} passes <span class="ys-face ys-seat-{p}">{}</span>"#,
                expected.join(", ")
            );
            assert!(text.contains(&whole), "{v}: {whole}\n{text}");
        }
        assert!(text.contains("(3 cards in all)"), "{text}");
        if v.is_seal() {
            // In the seal variants each other seat receives exactly one of the cards.
            assert_eq!(
                text.matches(r#"<span class="ys-face ys-seat-"#).count(),
                4 + 12
            );
        }
    }
    // A hand of one card, hidden, reads "1 card".
    let mut m = Match::new(GameConfig::new(Variant::FourPlayer, 2));
    let mut rng = common::rng(2);
    while m.state().round() == 0 && m.state().hand(1).len() != 1 {
        let c = common::random_action(m.state(), &mut rng);
        m.apply(c).unwrap();
    }
    if m.state().hand(1).len() == 1 {
        let svg = seat_svg(&m.state().view(0));
        assert!(svg.contains(">1 card<"), "{svg}");
        assert!(!svg.contains("1 cards"), "{svg}");
    }
}

#[cfg(feature = "raster")]
mod raster {
    use super::*;
    use yokai_septet_picture::rasterize;

    /// Columns of the box `x0..x1` × `y0..y1` that hold ink: pixels far from `paper`.
    fn ink_columns(
        r: &yokai_septet_picture::Raster,
        x0: u32,
        x1: u32,
        y0: u32,
        y1: u32,
        paper: [u8; 3],
    ) -> u32 {
        (x0..x1)
            .filter(|&x| {
                (y0..y1).any(|y| {
                    let i = 3 * (y * r.width + x) as usize;
                    let d: i32 = (0..3)
                        .map(|k| (r.rgb[i + k] as i32 - paper[k] as i32).abs())
                        .sum();
                    d > 150
                })
            })
            .count() as u32
    }

    /// The top of seat `p`'s hand, in pixels at scale 1.
    fn hand_top(doc: &roxmltree::Document, p: usize) -> u32 {
        let first = doc
            .descendants()
            .find(|n| n.has_tag_name("use") && n.ancestors().any(hand_group(p)))
            .unwrap();
        first.attribute("y").unwrap().parse::<f32>().unwrap() as u32
    }

    fn hex(s: &str) -> [u8; 3] {
        let c = |k: usize| u8::from_str_radix(&s[1 + 2 * k..3 + 2 * k], 16).unwrap();
        [c(0), c(1), c(2)]
    }

    /// In the narrowest fanned hand (16 cards, 3p), a covered 13 shows both digits: its
    /// index holds more ink than a `1` alone, and nothing of the centre value shows in the
    /// strip (a cut centre `13` reads `1`).
    #[test]
    fn a_covered_thirteen_shows_both_digits() {
        // The `1` alone, set as a card's index is.
        let one = rasterize(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#2a6fc9"/><text x="3" y="26" font-size="12" font-weight="bold" fill="#ffffff">1</text></svg>"##,
            1.0,
        )
        .unwrap();
        let one_width = ink_columns(&one, 0, 40, 14, 28, hex("#2a6fc9"));
        assert!(one_width >= 3, "{one_width}");
        let mut checked = 0;
        for seed in 0..10 {
            let s = State::new(GameConfig::new(Variant::ThreePlayer, seed));
            let svg = table_svg(&s);
            let doc = parse(&svg);
            let r = rasterize(&svg, 1.0).unwrap();
            for p in 0..3 {
                let cards = hand_cards(&doc, p);
                let y0 = hand_top(&doc, p);
                for k in 0..cards.len() - 1 {
                    let c: Card = cards[k].0.parse().unwrap();
                    if c == Card::ACE || c.value() < 10 {
                        continue;
                    }
                    let (x, next) = (cards[k].2 as u32, cards[k + 1].2 as u32);
                    let bg = hex(svg_colour(c));
                    // The index's value band, inside the strip the next card leaves.
                    let index = ink_columns(&r, x + 2, next, y0 + 14, y0 + 28, bg);
                    assert!(
                        index as f32 >= 1.4 * one_width as f32,
                        "seed {seed}: {c} shows {index} columns of ink, a 1 alone {one_width}"
                    );
                    // Below the index, the strip is bare.
                    let centre = ink_columns(&r, x + 2, next, y0 + 29, y0 + 46, bg);
                    assert_eq!(centre, 0, "seed {seed}: {c}: the centre value shows");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }

    /// The card colours of the pictures (R1), as the SVG writes them.
    fn svg_colour(c: Card) -> &'static str {
        [
            "#2e8b3e", "#7a3f9d", "#e0589a", "#f2c40f", "#262626", "#d2372c", "#2a6fc9",
        ][c.suit().index()]
    }

    /// A dimmed card covering another shows its own dimmed colour, whatever lies under it.
    #[test]
    fn dimmed_cards_hide_the_cards_under_them() {
        let mut checked = 0;
        for s in sample_states() {
            let Some(p) = s.current_player() else {
                continue;
            };
            let svg = table_svg(&s);
            let doc = parse(&svg);
            let r = rasterize(&svg, 1.0).unwrap();
            let cards = hand_cards(&doc, p);
            let y0 = hand_top(&doc, p);
            // Every dimmed card between two others (covering one, covered by one).
            for (code, face, x) in cards.iter().take(cards.len().saturating_sub(1)).skip(1) {
                if !face.ends_with("-dim") {
                    continue;
                }
                let c: Card = code.parse().unwrap();
                // 45% of the suit colour on the paper (#f7f4ea), drawn opaque.
                let paper = [0xf7, 0xf4, 0xea];
                let bg = hex(svg_colour(c));
                let want: Vec<i32> = (0..3)
                    .map(|i| (bg[i] as f32 * 0.45 + paper[i] as f32 * 0.55).round() as i32)
                    .collect();
                // A point of the card's strip over the card before it, below its index.
                let x = *x as u32 + 8;
                let i = 3 * ((y0 + 46) * r.width + x) as usize;
                let got: Vec<i32> = r.rgb[i..i + 3].iter().map(|&v| v as i32).collect();
                for ch in 0..3 {
                    assert!((got[ch] - want[ch]).abs() <= 3, "{c}: {got:?} != {want:?}");
                }
                checked += 1;
            }
        }
        assert!(checked > 10, "{checked}");
    }

    #[test]
    fn rasterised_table_is_960x640_rgb_not_blank_and_deterministic() {
        let mut m = Match::new(GameConfig::new(Variant::FourPlayer, 5));
        let mut rng = common::rng(5);
        for _ in 0..20 {
            let c = common::random_action(m.state(), &mut rng);
            m.apply(c).unwrap();
        }
        let svg = table_svg(m.state());
        let a = rasterize(&svg, 1.0).unwrap();
        assert_eq!((a.width, a.height, a.rgb.len()), (960, 640, 960 * 640 * 3));
        assert_eq!(a, rasterize(&svg, 1.0).unwrap());
        let colours: BTreeSet<&[u8]> = a.rgb.chunks_exact(3).collect();
        assert!(colours.len() > 50, "{} colours", colours.len());
        // Text is drawn (the bundled font): the header band holds light pixels.
        let header_light = (0..960 * 36)
            .filter(|i| a.rgb[3 * i] > 200 && a.rgb[3 * i + 1] > 200)
            .count();
        assert!(header_light > 500, "{header_light}");
        let png = a.to_png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let half = rasterize(&svg, 0.5).unwrap();
        assert_eq!((half.width, half.height), (480, 320));
        assert!(rasterize("<svg", 1.0).is_err());
        assert!(rasterize(&svg, 0.0).is_err());
    }
}

#[test]
fn scores_box_names_the_target_of_the_game_and_none_in_a_one_round_episode_r10() {
    use yokai_septet::{Episode, Scoring};
    let texts = |scoring, episode| {
        let mut cfg = GameConfig::new(Variant::FourPlayer, 5);
        cfg.scoring = scoring;
        cfg.episode = episode;
        let svg = table_svg(Match::new(cfg).state());
        let doc = parse(&svg);
        doc.descendants()
            .filter(|n| n.is_text())
            .map(|n| n.text().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    let has = |t: &[String], s: &str| t.iter().any(|x| x == s);
    let game = texts(Scoring::Advanced, Episode::Game);
    assert!(has(&game, "game to 7"), "{game:?}");
    let basic = texts(Scoring::Basic, Episode::Game);
    assert!(has(&basic, "game to 2"), "{basic:?}");
    let round = texts(Scoring::Advanced, Episode::Round);
    assert!(has(&round, "one round"), "{round:?}");
    assert!(!round.iter().any(|x| x.contains("game to")), "{round:?}");
}
