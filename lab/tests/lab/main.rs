//! The lab's tests, one binary (each test binary links the whole engine):
//! every task on small inputs, its messages and exit codes, closed stdout,
//! and every `ladderbot-lab` line of the README and docs/.

mod common;
/// How the pages' command lines are read (the engine's doc test reads them too).
#[path = "../../../tests/support/doc_lines.rs"]
mod doc_lines;

mod closed_stdout;
mod doc_commands;
mod exit_codes;
mod four3d;
mod geister;
mod golad;
mod messages;
mod puyo;
