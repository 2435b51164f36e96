//! Who sits where in `play`: from the options, or from a saved game's `players`.

use yokai_septet::Variant;

use super::super::Failure;
use super::PlayOptions;

/// Who sits where: one entry per seat, a bot's name or `None` for the person. From the
/// options (`--bots` default `heuristic`, `--seat` default 0), or from the saved game's
/// `players` when it has them: options given beside them must agree, else they are
/// refused (the resumed game would not be the saved one).
pub(super) fn seating(
    opts: &PlayOptions,
    v: Variant,
    saved: Option<&[Option<String>]>,
) -> Result<Vec<Option<String>>, Failure> {
    let n = v.num_players();
    if let Some(saved) = saved {
        let path = opts
            .load
            .as_deref()
            .expect("saved players come from --load");
        let load = format!("--load {}", path.display());
        let mut people = saved.iter().enumerate().filter(|(_, p)| p.is_none());
        let me = match (people.next(), people.next()) {
            (Some((me, _)), None) => me,
            _ => {
                return Err(Failure::usage(format!(
                    "{load}: `players` must have exactly one person's seat (null) for `play`"
                )))
            }
        };
        if let Some(seat) = opts.seat.filter(|&s| s != me) {
            return Err(Failure::usage(format!(
                "--seat {seat}: the saved game was played from seat {me} ({load}); leave \
                 --seat out to resume it"
            )));
        }
        if let Some(bots) = &opts.bots {
            let given = seating_from(v, me, bots)?;
            if given != saved {
                let names: Vec<&str> = saved.iter().flatten().map(String::as_str).collect();
                return Err(Failure::usage(format!(
                    "--bots {}: the saved game was played against {} ({load}); leave --bots \
                     out to resume it",
                    bots.join(","),
                    names.join(",")
                )));
            }
        }
        return Ok(saved.to_vec());
    }
    let me = opts.seat.unwrap_or(0);
    if me >= n {
        return Err(Failure::usage(format!(
            "--seat {me} is out of range: {v} has seats 0 to {}",
            n - 1
        )));
    }
    let default = ["heuristic".to_string()];
    seating_from(v, me, opts.bots.as_deref().unwrap_or(&default))
}

/// The seats from `--bots` (one name for all, or one per other seat) around seat `me`.
fn seating_from(v: Variant, me: usize, bots: &[String]) -> Result<Vec<Option<String>>, Failure> {
    let n = v.num_players();
    let names: Vec<String> = match bots.len() {
        1 => vec![bots[0].clone(); n - 1],
        k if k == n - 1 => bots.to_vec(),
        k => {
            return Err(Failure::usage(format!(
                "--bots: give one bot name, or {} (one per other seat); got {k}",
                n - 1
            )))
        }
    };
    let mut others = names.into_iter();
    Ok((0..n)
        .map(|p| if p == me { None } else { others.next() })
        .collect())
}
