//! The `yokai-septet` command-line tool: a thin shell over [`yokai_septet_cli::run`],
//! the same code the Python console script runs.

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = yokai_septet_cli::run(std::env::args_os(), &yokai_septet_bots::BotRegistry::new());
    ExitCode::from(code.clamp(0, 255) as u8)
}
