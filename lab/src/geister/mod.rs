//! Geister's lab: the learned belief model fitted and scored on records
//! ([`beliefs`]), and the capture probe of an agent over recorded games
//! ([`captures`], [`probe`]).

mod beliefs;
mod captures;
mod fit;
mod probe;

use clap::{Args, Subcommand};
use ladderbot::cli::CliError;

#[derive(Debug, Args)]
pub struct GeisterLabArgs {
    #[command(subcommand)]
    pub command: LabCommand,
}

#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Fit the learned Geister belief model on records, and score belief sources.
    Beliefs(beliefs::GeisterBeliefsArgs),
    /// Replay recorded games from one player's seat and ask an agent, wherever a piece of
    /// unknown colour could be taken, whether it would take it: reds and blues taken by ply.
    Captures(captures::GeisterCapturesArgs),
}

pub fn run(args: GeisterLabArgs) -> Result<(), CliError> {
    match args.command {
        LabCommand::Beliefs(a) => beliefs::run(a),
        LabCommand::Captures(a) => captures::run(a),
    }
}
