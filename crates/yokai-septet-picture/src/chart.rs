//! The ladder as a picture: one bar per bot from 0 to its Elo, with the 95% interval as a
//! whisker, best first. SVG like every other picture, so the same rasteriser makes the PNG.

use std::fmt::Write;

use super::svg::esc;
use yokai_septet_bots::arena::ladder::LadderReport;

const WIDTH: f64 = 720.0;
const ROW: f64 = 34.0;
const TOP: f64 = 56.0;
const LABEL: f64 = 150.0;
const RIGHT: f64 = 110.0;

/// The ladder's Elo table as an SVG bar chart (width 720).
pub fn ladder_svg(report: &LadderReport) -> String {
    let c = &report.config.arena;
    let rows = &report.ratings;
    let height = TOP + ROW * rows.len() as f64 + 40.0;
    // A symmetric scale around 0 that holds every interval.
    let reach = rows
        .iter()
        .flat_map(|r| [r.elo95[0].abs(), r.elo95[1].abs(), r.elo.abs()])
        .fold(100.0_f64, f64::max);
    let plot = WIDTH - LABEL - RIGHT;
    let zero = LABEL + plot / 2.0;
    let x = |elo: f64| zero + elo / reach * plot / 2.0;
    let games = report.pairings.first().map_or(0, |p| p.games);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans" font-size="13">"##
    );
    let _ = write!(
        s,
        r##"<rect width="100%" height="100%" fill="#f7f4ea"/><text x="16" y="26" font-size="16" font-weight="bold">Ladder, {}: Elo with 95% intervals</text><text x="16" y="44" fill="#555">{games} games per pair, seed {}, duplicate deals</text>"##,
        esc(c.variant.name()),
        c.seed
    );
    let _ = write!(
        s,
        r##"<line x1="{zero}" y1="{}" x2="{zero}" y2="{}" stroke="#888"/>"##,
        TOP - 6.0,
        TOP + ROW * rows.len() as f64
    );
    for (k, r) in rows.iter().enumerate() {
        let y = TOP + ROW * k as f64;
        let (a, b) = (x(0.0).min(x(r.elo)), x(0.0).max(x(r.elo)));
        let fill = if r.elo >= 0.0 { "#2f7d4f" } else { "#b8483e" };
        let mid = y + ROW / 2.0;
        let _ = write!(
            s,
            r##"<g class="ladder-row" data-bot="{bot}" data-elo="{elo:.0}"><text x="{tx}" y="{ty}" text-anchor="end">{bot}</text><rect x="{a:.1}" y="{ry}" width="{w:.1}" height="{h}" fill="{fill}"/><line x1="{l:.1}" y1="{mid}" x2="{u:.1}" y2="{mid}" stroke="#222" stroke-width="2"/><text x="{vx}" y="{ty}">{elo:+.0}</text></g>"##,
            bot = esc(&r.bot),
            elo = r.elo,
            tx = LABEL - 10.0,
            ty = mid + 4.5,
            ry = y + 7.0,
            w = (b - a).max(1.0),
            h = ROW - 14.0,
            l = x(r.elo95[0]),
            u = x(r.elo95[1]),
            vx = WIDTH - RIGHT + 14.0,
        );
    }
    s.push_str("</svg>");
    s
}
