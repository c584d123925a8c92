//! The lab's tests, one binary (each test binary links the whole engine):
//! every task on small inputs, its messages and exit codes, closed stdout,
//! and every `ladderbot-lab` line of the README and docs/.

mod common;

mod closed_stdout;
mod doc_commands;
mod exit_codes;
mod four3d;
mod geister;
mod golad;
mod messages;
mod puyo;
