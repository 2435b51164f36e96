//! `yokai-septet rules`: the rules reference (`docs/rules.md`, built in) set for reading in a
//! terminal, not as raw Markdown: headings stand out, tables are aligned in columns (or,
//! where too wide for a terminal, given row by row), Markdown marks are dropped. Colour and
//! bold only with a colour [`Style`]; piped, the same text without escapes.

use super::Style;

/// The widest table drawn as columns; wider ones are given row by row.
const MAX_TABLE_WIDTH: usize = 100;

/// The rules reference as the tool prints it.
pub fn render(markdown: &str, style: Style) -> String {
    let mut out = String::with_capacity(markdown.len());
    let lines: Vec<&str> = markdown.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with('|') {
            let start = i;
            while i < lines.len() && lines[i].starts_with('|') {
                i += 1;
            }
            table(&lines[start..i], style, &mut out);
            continue;
        }
        let level = line.bytes().take_while(|&b| b == b'#').count();
        if level > 0 && line[level..].starts_with(' ') {
            let text = inline(line[level..].trim(), Style::PLAIN);
            let rule = if level <= 2 { "═" } else { "─" };
            let underline = rule.repeat(text.chars().count());
            out += &paint(style, if level == 1 { "1;4" } else { "1;36" }, &text);
            out.push('\n');
            if level > 1 || !style.color {
                out += &paint(style, "36", &underline);
                out.push('\n');
            }
        } else {
            let indent = line.len() - line.trim_start().len();
            let body = line.trim_start();
            let body = match body.strip_prefix("- ") {
                Some(rest) => format!("• {}", inline(rest, style)),
                None => inline(body, style),
            };
            out += &" ".repeat(indent);
            out += &body;
            out.push('\n');
        }
        i += 1;
    }
    out
}

fn paint(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Inline Markdown: `code` and **bold** marked with colour (or dropped), *emphasis* and
/// link targets dropped (`[text](url)` → `text (url)`).
fn inline(text: &str, style: Style) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        let close = |mark: &str, rest: &str| -> Option<usize> {
            rest.get(mark.len()..)
                .and_then(|r| r.find(mark))
                .filter(|&k| k > 0)
        };
        if rest.starts_with("**") {
            if let Some(k) = close("**", rest) {
                out += &paint(style, "1", &inline(&rest[2..2 + k], style));
                rest = &rest[4 + k..];
                continue;
            }
        } else if ch == '`' {
            if let Some(k) = close("`", rest) {
                out += &paint(style, "33", &rest[1..1 + k]);
                rest = &rest[2 + k..];
                continue;
            }
        } else if ch == '*' {
            if let Some(k) = close("*", rest) {
                out += &paint(style, "3", &inline(&rest[1..1 + k], style));
                rest = &rest[2 + k..];
                continue;
            }
        } else if ch == '[' {
            if let Some(mid) = rest.find("](") {
                if let Some(end) = rest[mid..].find(')') {
                    let label = inline(&rest[1..mid], style);
                    let url = &rest[mid + 2..mid + end];
                    out += &format!("{label} ({url})");
                    rest = &rest[mid + end + 1..];
                    continue;
                }
            }
        }
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out
}

/// A Markdown table: aligned columns, or row by row where it is too wide.
fn table(rows: &[&str], style: Style, out: &mut String) {
    let cells = |row: &str| -> Vec<String> {
        let row = row.trim().trim_start_matches('|').trim_end_matches('|');
        row.split('|')
            .map(|c| inline(c.trim(), Style::PLAIN))
            .collect()
    };
    let is_rule = |row: &str| row.chars().all(|c| "|-: ".contains(c));
    let Some((head, body)) = rows.split_first() else {
        return;
    };
    let head = cells(head);
    let right: Vec<bool> = body
        .first()
        .filter(|r| is_rule(r))
        .map(|r| cells(r).iter().map(|c| c.ends_with(':')).collect())
        .unwrap_or_default();
    let body: Vec<Vec<String>> = body
        .iter()
        .filter(|r| !is_rule(r))
        .map(|r| cells(r))
        .collect();
    let width = |s: &str| s.chars().count();
    let mut widths: Vec<usize> = head.iter().map(|h| width(h)).collect();
    for row in &body {
        for (k, c) in row.iter().enumerate() {
            if k < widths.len() {
                widths[k] = widths[k].max(width(c));
            }
        }
    }
    let total = widths.iter().sum::<usize>() + 2 * widths.len();
    if total > MAX_TABLE_WIDTH {
        for row in &body {
            for (k, c) in row.iter().enumerate() {
                let name = head.get(k).map_or("", String::as_str);
                match (k, name.is_empty()) {
                    (0, true) => *out += &format!("{}\n", paint(style, "1", c)),
                    (0, false) => *out += &format!("{}: {}\n", paint(style, "1", name), c),
                    _ => *out += &format!("    {name}: {c}\n"),
                }
            }
        }
        return;
    }
    let line = |row: &[String]| -> String {
        let mut s = String::from(" ");
        for (k, w) in widths.iter().enumerate() {
            let c = row.get(k).map_or("", String::as_str);
            let pad = " ".repeat(w - width(c));
            if right.get(k).copied().unwrap_or(false) {
                s += &format!(" {pad}{c} ");
            } else {
                s += &format!(" {c}{pad} ");
            }
        }
        s.trim_end().to_string()
    };
    *out += &paint(style, "1", &line(&head));
    out.push('\n');
    let rule: Vec<String> = widths.iter().map(|&w| "─".repeat(w)).collect();
    *out += &line(&rule);
    out.push('\n');
    for row in &body {
        *out += &line(row);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLOR: Style = Style {
        color: true,
        interactive: true,
    };

    #[test]
    fn the_rules_read_as_text_with_aligned_tables() {
        let text = render(super::super::RULES, Style::PLAIN);
        assert!(!text.contains("\x1b["), "no escapes when piped");
        assert!(
            !text.contains("## ") && !text.contains("|---"),
            "no Markdown marks"
        );
        assert!(
            text.contains("R6. Winning a trick\n═══"),
            "headings are underlined"
        );
        // The suits table is narrow enough for columns: every suit on one line, aligned.
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("Lightning") && l.contains("L7 (id 24)"))
            .collect();
        assert_eq!(rows.len(), 1, "{text}");
        let wind = text.lines().find(|l| l.contains("W7 (id 6)")).unwrap();
        assert_eq!(wind.find("W7 (id 6)"), rows[0].find("L7 (id 24)"));
        // The variants table is too wide: one block per row.
        assert!(
            text.contains("variant: 4p\n    players: 4 (2 teams)"),
            "{text}"
        );
    }

    #[test]
    fn a_terminal_gets_bold_headings_and_coloured_code() {
        let text = render("## R1. Cards\nThe `W7` is **the** boss.\n", COLOR);
        assert!(text.contains("\x1b[1;36mR1. Cards\x1b[0m"), "{text:?}");
        assert!(text.contains("\x1b[33mW7\x1b[0m"), "{text:?}");
        assert!(text.contains("\x1b[1mthe\x1b[0m"), "{text:?}");
    }
}
