//! A small reader of Rust source, for the layout's checks (`tests/imports.rs`): its
//! tokens without comments or string and char literals, its items without the
//! test-only ones, and the leaf paths of its `use` trees. It reads token by token rather
//! than parsing, so that a path written inside a macro's arguments counts as well.

/// A token: a word (an identifier or keyword, digits included), `::`, or any other
/// single character.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// `::`
    Path,
    P(char),
}

/// The tokens of `src` without comments or string and char literals (a lifetime's quote
/// is dropped, its name kept as a word).
pub fn tokenize(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == 'r' && matches!(c.get(i + 1), Some('"') | Some('#')) && {
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            c.get(j) == Some(&'"')
        } {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    i = j + 1 + hashes;
                    break;
                }
                j += 1;
            }
        } else if ch == '"' {
            i += 1;
            while c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if ch == '\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // `b"…"` byte strings: the string is dropped next round.
            if !(word == "b" && c.get(i) == Some(&'"')) {
                out.push(Tok::Ident(word));
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(Tok::P(ch));
            i += 1;
        }
    }
    out
}

/// The word `t` is, if it is one.
pub fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// Index just past the item that starts at `i` (attributes, then up to a `;` or a
/// balanced `{…}` at depth 0).
fn skip_item(t: &[Tok], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < t.len() {
        match t[i] {
            Tok::P('{') | Tok::P('[') | Tok::P('(') => depth += 1,
            Tok::P('}') | Tok::P(']') | Tok::P(')') => {
                depth -= 1;
                if depth == 0 && t[i] == Tok::P('}') {
                    return i + 1;
                }
            }
            Tok::P(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// `src` without its `#[cfg(test)]` items, and the names of the child modules they
/// declare (`#[cfg(test)] mod name;`).
pub fn without_tests(t: Vec<Tok>) -> (Vec<Tok>, Vec<String>) {
    let cfg_test = [
        Tok::P('#'),
        Tok::P('['),
        Tok::Ident("cfg".into()),
        Tok::P('('),
        Tok::Ident("test".into()),
        Tok::P(')'),
        Tok::P(']'),
    ];
    let mut out = Vec::new();
    let mut test_children = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i..].starts_with(&cfg_test) {
            let start = i + cfg_test.len();
            let end = skip_item(&t, start);
            let item = &t[start..end];
            if let Some(k) = item.iter().position(|x| x == &Tok::Ident("mod".into())) {
                if item.last() == Some(&Tok::P(';')) {
                    if let Some(name) = ident(item.get(k + 1)) {
                        test_children.push(name.to_string());
                    }
                }
            }
            i = end;
        } else {
            out.push(t[i].clone());
            i += 1;
        }
    }
    (out, test_children)
}

/// The leaf paths of a `use` tree starting at `t[i]`, and the index of its `;`.
pub fn use_tree(t: &[Tok], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match t.get(i) {
            Some(Tok::Ident(s)) if s == "as" => i += 2,
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
            }
            Some(Tok::Path) => i += 1,
            Some(Tok::P('{')) => {
                i += 1;
                loop {
                    i = use_tree(t, i, &path, out);
                    match t.get(i) {
                        Some(Tok::P(',')) => i += 1,
                        _ => break,
                    }
                    if t.get(i) == Some(&Tok::P('}')) {
                        break;
                    }
                }
                // Past the `}`; the group stands for its leaves, not the prefix.
                return i + 1;
            }
            Some(Tok::P('*')) => {
                i += 1;
            }
            _ => {
                if path.len() > prefix.len() {
                    out.push(path);
                }
                return i;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<String> {
        let t = tokenize(src);
        t.iter()
            .filter_map(|t| ident(Some(t)).map(String::from))
            .collect()
    }

    #[test]
    fn comments_strings_and_chars_are_dropped_and_macro_arguments_kept() {
        let src = r###"a // b
            /* c /* d */ e */ f "g \" h" r#"i "j" k"# b"l" 'm' '\n' 'n x
            vec![crate::o::p]"###;
        assert_eq!(words(src), ["a", "f", "n", "x", "vec", "crate", "o", "p"]);
    }

    #[test]
    fn test_only_items_are_dropped_and_their_child_modules_named() {
        let src = "use a::b; #[cfg(test)] mod tests; #[cfg(test)] fn t() { c::d(); } fn e() {}";
        let (t, children) = without_tests(tokenize(src));
        assert_eq!(children, ["tests"]);
        assert_eq!(t, tokenize("use a::b; fn e() {}"));
    }

    #[test]
    fn a_use_tree_gives_its_leaf_paths() {
        let t = tokenize("use a::{b, c::{d as e, f}, g::*};");
        let mut leaves = Vec::new();
        let end = use_tree(&t, 1, &[], &mut leaves);
        assert_eq!(t[end], Tok::P(';'));
        let leaves: Vec<String> = leaves.iter().map(|l| l.join("::")).collect();
        assert_eq!(leaves, ["a::b", "a::c::d", "a::c::f", "a::g"]);
    }
}
