//! The `ladderbot-lab` command lines of the README and of `docs/*.md`
//! against the real lab, so that no example goes stale. The engine's lines
//! are tests/doc_commands.rs's, which reads the pages by the same rules
//! (tests/support/doc_lines.rs, which both tests include) and leaves the
//! lab's lines to this test.
//!
//! Every fenced code block whose info string is `sh`, `bash`, `console` or
//! empty is read like a small shell script: `\` continuations joined,
//! comments, quotes, `NAME=value` variables (`$NAME` expanded), `for ...;
//! do ... done` loops, `;`, `&&` and `&`. Every simple command that runs the
//! lab (`ladderbot-lab ...`, `target/release/ladderbot-lab ...`, `cargo run
//! --release -p ladderbot-lab -- ...`, also behind `flock FILE`, after an
//! optional `$ ` prompt and leading `NAME=value` assignments) is
//!
//! - parsed by the lab binary (`LADDERBOT_LAB_PARSE_ONLY=1`: its command
//!   line read, nothing run): a line that no longer parses fails
//!   `every_lab_doc_command_parses`, naming the file, the line and the
//!   command;
//! - run with the lab binary by `every_lab_doc_command_runs`, unless it is
//!   in [`SKIP`] (with the reason): the lines of one page run in order, in
//!   one temporary folder (so a later line reads what an earlier one
//!   wrote; repository files a line names, such as `openings/four3d.txt`,
//!   are copied in), with tiny budgets ([`rewrite`]: `--games 2`, `--nodes
//!   2000`, `--every 64`, ...). The engine's lines of the page that read
//!   what the lab made (`ladderbot match ... --a-param net_file=FILE` after
//!   `ladderbot-lab four3d train-net --out FILE`), which
//!   tests/doc_commands.rs leaves to this test, and those that make what
//!   the lines that run read (a `ladderbot match ... --out FILE` before
//!   `ladderbot-lab ... FILE`) run in their places too ([`running`]), with
//!   the same small budgets, through the engine's library (this test's
//!   binary acting as the engine, see [`engine_for_doc_lines`]: the
//!   engine's binary is not built for the lab's tests). A line ending in
//!   `&` runs in the foreground. Every command must exit 0 within
//!   [`LIMIT`], or with the code its comment gives (`# exits 2`). Pages run
//!   in parallel threads.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::doc_lines::*;

/// Lines that are not run, each with its reason: (page, a piece of the
/// line's text, why). They are still parsed (the lab's). An entry that
/// matches no line fails the test (it is stale).
const SKIP: &[Skip] = &[(
    "docs/geister-results.md",
    "--train tr_rule_nao.jsonl",
    "records of games against Naotti-2020, which nothing here builds",
)];

/// The longest any one command may take.
const LIMIT: Duration = Duration::from_secs(60);
/// Pages run at once.
const THREADS: usize = 2;

/// The engine's arguments (JSON) when this test's binary is started as the
/// engine ([`engine_for_doc_lines`]).
const ENGINE_ARGS: &str = "LAB_DOC_ENGINE_ARGS";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository")
}

/// Parses `args` with the real lab (`LADDERBOT_LAB_PARSE_ONLY=1`: the
/// command line read, nothing run); `Err` with the first line of clap's
/// message.
fn parse(args: &[String]) -> Result<(), String> {
    let o = crate::common::bin()
        .args(args.iter().map(|a| plain(a)))
        .env("LADDERBOT_LAB_PARSE_ONLY", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("start ladderbot-lab");
    match o.status.code() {
        Some(0) => Ok(()),
        code => Err(format!(
            "exit {code:?}: {}",
            crate::common::stderr(&o).lines().next().unwrap_or_default()
        )),
    }
}

/// Every command of a page, in order (the engine's too), with `$PWD` the
/// folder it runs in; and the lines that run the lab but cannot be read.
fn commands_of_page(page: &str, dir: &Path) -> (Vec<Cmd>, Vec<String>) {
    let (mut cmds, mut unreadable) = (Vec::new(), Vec::new());
    for block in blocks(&repo(), page) {
        for step in steps(&block, dir, Program::Lab) {
            match step {
                Step::Run(cmd) => cmds.push(cmd),
                Step::Unreadable(p) => unreadable.push(p),
                // The lab's lines run in the foreground: no job to wait for.
                Step::Wait(_) | Step::Kill(_) => {}
            }
        }
    }
    (cmds, unreadable)
}

#[test]
fn every_lab_doc_command_parses() {
    let mut problems = Vec::new();
    let mut count = 0;
    let mut used = vec![0; SKIP.len()];
    for page in pages(&repo()) {
        let (cmds, unreadable) = commands_of_page(&page, Path::new("/nonexistent"));
        problems.extend(unreadable);
        for cmd in cmds {
            count_skips(SKIP, &cmd, &mut used);
            if cmd.program != Program::Lab {
                continue;
            }
            count += 1;
            list_if_asked(SKIP, &cmd);
            if let Err(e) = parse(&cmd.args) {
                problems.push(format!("{}: {e}", cmd.at()));
            }
        }
    }
    problems.extend(stale_skips(SKIP, &used));
    // The pages may show no lab line yet; where a code block names the lab,
    // its lines must have been found.
    let named = pages(&repo()).iter().any(|page| {
        blocks(&repo(), page)
            .iter()
            .any(|b| b.lines.iter().any(|(_, l)| l.contains("ladderbot-lab")))
    });
    if named {
        assert!(
            count > 0,
            "a code block of README.md or docs/ names ladderbot-lab, but no lab command line was found in them"
        );
    }
    eprintln!("{count} ladderbot-lab command lines parsed");
    assert!(
        problems.is_empty(),
        "{} documented lab command line(s) do not parse:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Running.

/// The names of files a command may read or write: its words that look like
/// paths (no flag, no number, with a `.` or a `/`; the path of
/// `NAME=PATH`) and its redirections, but the repository's own files (which
/// are copied in, not made).
fn names(cmd: &Cmd) -> Vec<String> {
    let mut words: Vec<&str> = cmd.args.iter().map(|a| plain(a)).collect();
    words.extend(cmd.stdin.as_deref());
    words.extend(cmd.stdout.as_ref().map(|(f, _)| f.as_str()));
    words
        .into_iter()
        .map(|w| w.rsplit('=').next().unwrap_or(w))
        .filter(|w| {
            let path = !w.starts_with('-')
                && (w.contains('.') || w.contains('/'))
                && w.parse::<f64>().is_err()
                && !w.contains("://");
            let shipped = !w.starts_with('/') && repo().join(w).exists();
            path && !shipped
        })
        .map(String::from)
        .collect()
}

/// Whether two names may be the same file (either may be a glob).
fn same(a: &str, b: &str) -> bool {
    let is_glob = |s: &str| s.contains(['*', '?']);
    match (is_glob(a), is_glob(b)) {
        (false, false) => a == b,
        (true, _) => matches(a, b),
        (false, true) => matches(b, a),
    }
}

/// Which commands of a page run (none in [`SKIP`]): every lab line; every
/// engine line that reads what the lab made (it names a file an earlier lab
/// line, or such an engine line, names: tests/doc_commands.rs leaves these
/// to this test); then every engine line that makes what those read (it
/// names a file a later line that runs names).
fn running(cmds: &[Cmd]) -> Vec<bool> {
    let names: Vec<Vec<String>> = cmds.iter().map(names).collect();
    let skipped: Vec<bool> = cmds
        .iter()
        .map(|c| skip_reason(SKIP, c).is_some())
        .collect();
    let shares =
        |own: &[String], those: &[String]| own.iter().any(|n| those.iter().any(|w| same(n, w)));
    let mut run: Vec<bool> = cmds
        .iter()
        .zip(&skipped)
        .map(|(c, skip)| !skip && c.program == Program::Lab)
        .collect();
    let mut made: Vec<String> = Vec::new();
    for i in 0..cmds.len() {
        if !skipped[i] && (run[i] || shares(&names[i], &made)) {
            run[i] = true;
            made.extend(names[i].iter().cloned());
        }
    }
    let mut wanted: Vec<String> = Vec::new();
    for i in (0..cmds.len()).rev() {
        if !skipped[i] && (run[i] || shares(&names[i], &wanted)) {
            run[i] = true;
            wanted.extend(names[i].iter().cloned());
        }
    }
    run
}

/// The lab's task (`four3d selfplay`), after its global flag.
fn task(args: &[String]) -> String {
    let mut words = Vec::new();
    let mut i = 0;
    while i < args.len() && words.len() < 2 {
        let a = plain(&args[i]);
        if a == "--log-format" {
            i += 2;
            continue;
        }
        if !a.starts_with('-') {
            words.push(a);
        }
        i += 1;
    }
    words.join(" ")
}

/// The command line and environment a documented command runs with: tiny
/// budgets, paths in `dir`.
fn rewrite(cmd: &Cmd, dir: &Path) -> Result<(Vec<String>, Env), String> {
    let sub = match cmd.program {
        Program::Lab => task(&cmd.args),
        Program::Engine => subcommand(&cmd.args),
    };
    let repo = repo();
    let args = small_args(&cmd.args, &sub, dir, &mut |_, _| Ok(None), &mut |w| {
        Ok(local_path(&repo, w, dir))
    })?;
    // The environment: small budgets for the engine, then the line's own
    // assignments, made small as well.
    let env = match cmd.program {
        Program::Lab => Vec::new(),
        Program::Engine => engine_env(),
    };
    let env = with_line_env(env, &cmd.env, &sub, &mut |v| Ok(v.to_string()))?;
    Ok((args, env))
}

/// This test's binary started as the engine with `args`
/// ([`engine_for_doc_lines`]), in a clean environment.
fn engine_command(args: &[String]) -> Command {
    let mut c =
        crate::common::process::clean_command(std::env::current_exe().expect("this test's binary"));
    c.args([
        "doc_commands::engine_for_doc_lines",
        "--exact",
        "--nocapture",
        "--quiet",
        "--test-threads=1",
    ])
    .env(ENGINE_ARGS, serde_json::to_string(args).unwrap());
    c
}

/// What the test harness prints before the test that is the engine runs.
const HARNESS_HEADER: &str = "\nrunning 1 test\n";

/// Not a check: this test's binary acting as the engine, `ladderbot ARGS`
/// through its library (as its `main` runs it), when [`engine_command`]
/// starts it with the arguments in `LAB_DOC_ENGINE_ARGS`; it then exits
/// with the engine's code. Otherwise it does nothing.
#[test]
fn engine_for_doc_lines() {
    use clap::{CommandFactory, FromArgMatches};
    use ladderbot::cli::{Cli, CliError};
    let Ok(json) = std::env::var(ENGINE_ARGS) else {
        return;
    };
    let args: Vec<String> = serde_json::from_str(&json).expect("the engine's arguments");
    let argv = std::iter::once("ladderbot".to_string()).chain(args);
    let matches = match Cli::command().try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => e.exit(),
    };
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli.profile_from_env =
        matches.value_source("profile") == Some(clap::parser::ValueSource::EnvVariable);
    let code = match ladderbot::cli::run(cli) {
        Ok(()) => 0,
        Err(e @ CliError::Stopped(_)) => e.code(),
        Err(e) => {
            eprintln!("error: {}", e.message());
            e.code()
        }
    };
    std::process::exit(code.into());
}

/// Runs one command in `dir` (its logs in `logs`, numbered `serial`); a
/// failure's message.
fn run_one(cmd: &Cmd, dir: &Path, logs: &Path, serial: usize) -> Result<(), String> {
    let (args, env) = rewrite(cmd, dir).map_err(|e| format!("{}: {e}", cmd.at()))?;
    let mut c = match cmd.program {
        Program::Lab => {
            let mut c = crate::common::bin();
            c.args(&args);
            c
        }
        Program::Engine => engine_command(&args),
    };
    c.current_dir(dir);
    c.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    // The engine's stdout starts with the test harness's header: it goes to
    // the log, and to the page's file without the header after the run.
    let Started {
        mut child,
        out,
        err,
    } = start(
        c,
        cmd,
        &repo(),
        dir,
        logs,
        serial,
        cmd.program == Program::Lab,
    )?;
    let t = Instant::now();
    let code = wait_code(&mut child, LIMIT);
    if std::env::var_os("DOC_COMMANDS_LIST").is_some() {
        eprintln!(
            "{}:{}: {:?} in {:.2} s: {:?} {}",
            cmd.file,
            cmd.line,
            code,
            t.elapsed().as_secs_f64(),
            cmd.program,
            args.join(" "),
        );
    }
    if let (Some((f, append)), Program::Engine) = (&cmd.stdout, cmd.program) {
        let text = fs::read_to_string(&out).unwrap_or_default();
        let text = text.strip_prefix(HARNESS_HEADER).unwrap_or(&text);
        let mut file = fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(*append)
            .truncate(!*append)
            .open(dir.join(f))
            .map_err(|e| format!("{}: {f}: {e}", cmd.at()))?;
        std::io::Write::write_all(&mut file, text.as_bytes())
            .map_err(|e| format!("{}: {f}: {e}", cmd.at()))?;
    }
    let program = match cmd.program {
        Program::Lab => "ladderbot-lab",
        Program::Engine => "ladderbot (for a lab line after it)",
    };
    code.and_then(|code| check_code(code, cmd.expect))
        .map_err(|e| failure(cmd, program, &args, &e, &out, &err))
}

/// Runs the lab's commands of `page`, and the engine's they need, in one
/// folder; the failures.
fn run_page(page: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let logs = dir.join(".doc-commands");
    fs::create_dir_all(&logs).unwrap();
    let (cmds, mut failures) = commands_of_page(page, dir);
    for (serial, (cmd, run)) in cmds.iter().zip(running(&cmds)).enumerate() {
        if run {
            if let Err(e) = run_one(cmd, dir, &logs, serial) {
                failures.push(e);
            }
        }
    }
    failures
}

#[test]
fn every_lab_doc_command_runs() {
    // The pages with a lab line.
    let pages = pages(&repo())
        .into_iter()
        .filter(|page| {
            let (cmds, unreadable) = commands_of_page(page, Path::new("/nonexistent"));
            !unreadable.is_empty() || cmds.iter().any(|c| c.program == Program::Lab)
        })
        .collect();
    run_pages(pages, THREADS, run_page);
}
