//! Bot names for people: the bare names a player is offered, and the "did you mean" of a
//! name that is no bot's (the page, the terminal and the Python errors all ask here).

use crate::families::BOT_FAMILIES;
use crate::spec::INFER_MODIFIER;

/// Every bare name the parser accepts, in [`BOT_FAMILIES`]' order: each head, then
/// `head-inf` where the family infers. The lists of bots a player is offered come from
/// here, so that they name exactly what a name is checked against.
pub fn bare_bot_names() -> Vec<String> {
    BOT_FAMILIES
        .iter()
        .flat_map(|f| {
            let inferring = f.infers.then(|| format!("{}{INFER_MODIFIER}", f.head));
            std::iter::once(f.head.to_string()).chain(inferring)
        })
        .collect()
}

/// The one of `names` a typo away from `name` (an edit distance of 1, or 2 for names of
/// five letters or more; swapping two letters is one edit), when exactly one is nearest:
/// the "did you mean" of a name that is no bot's.
pub fn closest_name<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = if name.chars().count() >= 5 { 2 } else { 1 };
    let mut best: Option<(usize, &str, bool)> = None;
    for n in names {
        let d = edit_distance(name, n);
        match best {
            _ if d > most => {}
            Some((b, _, _)) if d > b => {}
            Some((b, _, _)) if d == b => best = Some((b, n, true)),
            _ => best = Some((d, n, false)),
        }
    }
    best.and_then(|(_, n, tied)| (!tied).then_some(n))
}

/// The built-in bare name (of [`bare_bot_names`]) a typo away from the head of `name`; none
/// where the head is one (`ismcts/nn` misplaces its suffix: the whole grammar says more).
pub fn near_bot_name(name: &str) -> Option<String> {
    let head = name.split([':', '/']).next().unwrap_or(name);
    let names = bare_bot_names();
    if names.iter().any(|n| n == head) {
        return None;
    }
    let head = head.to_ascii_lowercase();
    closest_name(&head, names.iter().map(String::as_str)).map(str::to_string)
}

/// The optimal-string-alignment distance of `a` and `b`: insertions, deletions,
/// substitutions and swaps of two neighbouring letters, one each.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: the distance of a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let same = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + same);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod name_tests {
    use super::{bare_bot_names, closest_name, edit_distance, near_bot_name};
    use crate::spec::BotSpec;

    #[test]
    fn a_typo_is_one_or_two_edits_from_the_name_it_meant() {
        assert_eq!(edit_distance("heurstic", "heuristic"), 1);
        assert_eq!(edit_distance("ismtcs", "ismcts"), 1);
        assert_eq!(edit_distance("pimc", "pimc"), 0);
        assert_eq!(edit_distance("", "nn"), 2);
        let names = || ["random", "heuristic", "nn", "pimc", "pimc-dd", "ismcts"];
        assert_eq!(closest_name("heurstic", names()), Some("heuristic"));
        assert_eq!(closest_name("Heuristik", names()), Some("heuristic"));
        assert_eq!(closest_name("pimcdd", names()), Some("pimc-dd"));
        // Far from every name, or as near to two: no guess.
        assert_eq!(closest_name("os", names()), None);
        assert_eq!(closest_name("stockfish", names()), None);
        assert_eq!(closest_name("pimc-d", ["pimc-dd", "pimc-dx"]), None);
        assert_eq!(near_bot_name("ismtcs:500").as_deref(), Some("ismcts"));
        assert_eq!(near_bot_name("epmic").as_deref(), Some("epimc"));
        assert_eq!(near_bot_name("ismcts/nn"), None);
    }

    #[test]
    fn every_bare_name_parses_and_every_family_is_listed() {
        let names = bare_bot_names();
        for n in &names {
            assert!(n.parse::<BotSpec>().is_ok(), "{n}");
        }
        for n in ["epimc", "ismcts-nn-inf", "pimc-dd-inf", "nn", "random"] {
            assert!(names.iter().any(|m| m == n), "{n}: {names:?}");
        }
        for n in ["random-inf", "nn-inf", "heuristic-inf"] {
            assert!(!names.iter().any(|m| m == n), "{n}");
            assert!(n.parse::<BotSpec>().is_err(), "{n}");
        }
    }
}
