//! The `ladderbot` binary: see `ladderbot --help`.

fn main() -> std::process::ExitCode {
    ladderbot::cli::main_exit()
}
