//! `ladderbot-lab`: the lab beside the engine. Self-play, labelling,
//! fitting and training of the models the engine ships, and the offline
//! probes that measure an agent on recorded games. Its own binary in the
//! workspace (as KataGo keeps its training apart from its engine): nothing
//! here is in the binary a user uploads. One command shape for every game:
//! `ladderbot-lab GAME TASK [OPTIONS]`.

mod common;
mod four3d;
mod geister;
mod golad;
mod puyo;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ladderbot::cli::CliError;
use ladderbot::config::LogFormat;

/// `println!` for a task's output, by the engine's writer: a reader that
/// closes the pipe early ends the output quietly.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        ladderbot::cli::out::line(format_args!($($arg)*))
    };
}

#[derive(Debug, Parser)]
#[command(
    name = "ladderbot-lab",
    version,
    about = "The lab beside ladderbot: the data behind the shipped models and the offline probes",
    long_about = "The lab beside ladderbot: self-play games, labelled positions, fitted \
        evaluations and networks, and the offline probes of recorded games. One shape for \
        every game: ladderbot-lab GAME TASK [OPTIONS]. Exit 0 done, 1 failed, 2 bad input."
)]
struct Lab {
    /// Log format on stderr.
    #[arg(long, global = true, value_enum, default_value = "human")]
    log_format: LogFormat,
    #[command(subcommand)]
    game: Game,
}

#[derive(Debug, Subcommand)]
enum Game {
    /// Score Four: self-play games, labelled positions, the fitted evaluation and its
    /// network, the solver's endgame set, and the offline judge of evaluations.
    Four3d(four3d::Four3dLabArgs),
    /// GOLAD: fit the value model, and measure how far the candidates reach in recorded games.
    Golad(golad::GoladLabArgs),
    /// Puyo Puyo one-player experiments: template completion and solo chains.
    Puyo(puyo::PuyoLabArgs),
    /// Geister: fit and score the learned belief model, and probe how an agent takes bait.
    Geister(geister::GeisterLabArgs),
}

fn run(lab: Lab) -> Result<(), CliError> {
    ladderbot::logging::init(lab.log_format, "info");
    match lab.game {
        Game::Four3d(a) => four3d::run(a),
        Game::Golad(a) => golad::run(a),
        Game::Puyo(a) => puyo::run(a),
        Game::Geister(a) => geister::run(a),
    }
}

fn main() -> ExitCode {
    // A hidden check for the docs test: parse the command line, run nothing.
    let parse_only = std::env::var_os("LADDERBOT_LAB_PARSE_ONLY").is_some();
    let lab = Lab::parse();
    if parse_only {
        return ExitCode::SUCCESS;
    }
    match run(lab) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ CliError::Stopped(_)) => ExitCode::from(e.code()),
        Err(e) => {
            eprintln!("error: {}", e.message());
            ExitCode::from(e.code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn lab_definition_is_consistent() {
        Lab::command().debug_assert();
    }
}
