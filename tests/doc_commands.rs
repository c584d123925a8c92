//! The command lines of the README and of `docs/*.md` against the real
//! program, so that no example goes stale.
//!
//! Every fenced code block whose info string is `sh`, `bash`, `console` or
//! empty is read like a small shell script: `\` continuations joined,
//! comments, quotes, `NAME=value` variables (`$NAME` expanded), `for ...;
//! do ... done` loops, `;`, `&&` and `&`, `wait` and `kill %N`. Every simple
//! command that runs ladderbot (`ladderbot ...`, `target/release/ladderbot
//! ...`, `cargo run --release -- ...`, also behind `flock FILE`, after an
//! optional `$ ` prompt and leading `LADDERBOT_X=y` assignments) is
//! checked here; the lab's lines (`ladderbot-lab ...`) are not (this test
//! cannot rely on the lab's binary): lab/tests/lab/doc_commands.rs parses and
//! runs them, with the engine's lines that make what they read and those
//! that read what they make (in [`SKIP`] here). Each engine line is
//!
//! - parsed with the real command line (`ladderbot::cli::Cli`): a line that
//!   no longer parses fails `every_doc_command_parses`, naming the file, the
//!   line and the command;
//! - run with the release binary by `every_doc_command_runs`, unless it is
//!   in [`SKIP`] (with the reason): the lines of one page run in order, block
//!   after block, in one temporary folder (so a later line reads the records
//!   an earlier one wrote; repository files a line names, such as
//!   `openings/four3d.txt`, are copied in), with tiny budgets ([`rewrite`]:
//!   `--games 2`, `--playouts 50`, `--time-ms 10`, free ports, ...). A line
//!   ending in `&` runs in the background: a server (`serve`, `serve-gat`)
//!   is waited for until it prints `listening on`, and the addresses of later
//!   lines (`ws://127.0.0.1:8765`, `127.0.0.1:10000`, a profile's server)
//!   are pointed at it; at the end of its block a server gets SIGTERM, any
//!   other background command is waited for. Every command must exit 0
//!   within [`LIMIT`], or with the code its comment gives (`# exits 2`).
//!   Pages run in parallel threads.
//!
//! The reading of the pages, and the pieces of the run the lab's test does
//! alike, are tests/support/doc_lines.rs.

mod common;
#[path = "support/doc_lines.rs"]
mod doc_lines;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use clap::Parser;
use doc_lines::*;
use ladderbot::cli::Cli;

/// Lines that are not run, each with its reason: (page, a piece of the
/// line's text, why). They are still parsed. An entry that matches no line
/// fails the test (it is stale).
const SKIP: &[Skip] = &[
    (
        "docs/four3d.md",
        "--agent best --bank-ms 5700 --games 100 --name best",
        "plays against quasimaster/yonmoku's console programs through the bridge; nothing here builds them",
    ),
    (
        "docs/four3d-results.md",
        "--agent best --time-ms 256 --games 100 --name best",
        "plays against quasimaster/yonmoku's console programs through the bridge; nothing here builds them",
    ),
    (
        "docs/four3d-results.md",
        "analyze yon-before-lost.jsonl",
        "the games against yonmoku (above), which nothing here plays",
    ),
    (
        "docs/four3d-results.md",
        "--agent best --time-ms 192 --games 100 --name best",
        "plays against quasimaster/yonmoku's console programs through the bridge; nothing here builds them",
    ),
    (
        "docs/golad.md",
        "python3 my_other_bot.py",
        "my_other_bot.py stands for anyone's bot program",
    ),
    (
        "docs/golad-results.md",
        "/work/scratch/eric/eric",
        "eric-clinch/Golad's bot, built by hand in a scratch folder (the recipe above)",
    ),
    (
        "docs/geister.md",
        "exec ./naotti",
        "Naotti-2020, a C++ GAT client built by hand (geister-results.md)",
    ),
    (
        "docs/geister-results.md",
        "--records us.jsonl",
        "plays on the real GAT server (Java, $LADDERBOT_GAT_SERVER) against Naotti-2020",
    ),
    (
        "docs/geister-results.md",
        "--b-cmd \"$NAO\"",
        "Naotti-2020, a C++ GAT client built by hand",
    ),
    (
        "docs/geister-results.md",
        "--bank-ms 600000 --games 2 --records real.jsonl",
        "plays on the real GAT server (Java) against Naotti-2020, at the platform's pace",
    ),
    (
        "docs/geister-results.md",
        "analyze base501-lost.jsonl",
        "the lost games against Naotti-2020 (above), which nothing here plays",
    ),
    (
        "docs/geister.md",
        "--agent best --time-policy bank --games 20",
        "a GAT session at the platform's pace (moves of up to 9 s: hours for 20 games) on a server the page leaves to the reader",
    ),
    (
        "docs/geister.md",
        "--agent best --time-policy bank --bank-ms 120000",
        "a GAT session at the platform's pace (moves of up to 3 s) on a server the page leaves to the reader",
    ),
    (
        "docs/geister-results.md",
        "--param capture=2:20",
        "6 minutes of tuning; the like population run above (tune60) is run, cut to ten iterations",
    ),
    (
        "docs/geister-results.md",
        "--of best-geister-gat us-first.jsonl us-second.jsonl",
        "the records of games on the real Java server against Naotti, which the page leaves to the reader",
    ),
    (
        "docs/geister.md",
        "--profile geister-gat --games 1",
        "a game at the GAT clock (moves of up to 9 s) on a server the page leaves to the reader",
    ),
    (
        "docs/testing.md",
        "ladderbot latency campaign/four3d.jsonl",
        "reads the records of the deadline campaign (15 minutes), which this test does not run",
    ),
    (
        "docs/floodit-results.md",
        "--profile floodit-best",
        "waits for a second client on the server, which the page leaves to the reader",
    ),
    // What the lab makes, the lab's test runs after it (lab/tests/doc_commands.rs).
    (
        "docs/four3d.md",
        "--a best --a-param net_file=net.json --b ab-v2",
        "plays the network `ladderbot-lab four3d train-net` makes above: run by the lab's test",
    ),
    (
        "docs/four3d-results.md",
        "--a-param net_file=net-w32-pegs.json",
        "plays the network `ladderbot-lab four3d train-net` makes above: run by the lab's test",
    ),
    (
        "docs/four3d-results.md",
        "--a-param net_file=net-sym32.json",
        "plays the network `ladderbot-lab four3d train-net` makes above: run by the lab's test",
    ),
];

/// The longest any one command may take.
const LIMIT: Duration = Duration::from_secs(60);
/// Pages run at once.
const THREADS: usize = 3;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The steps of a block for this test: the engine's lines, not the lab's
/// (lab/tests/lab/doc_commands.rs reads those).
fn engine_steps(block: &Block, pwd: &Path) -> Vec<Step> {
    steps(block, pwd, Program::Engine)
        .into_iter()
        .filter(|s| !matches!(s, Step::Run(cmd) if cmd.program != Program::Engine))
        .collect()
}

/// The arguments of a ladderbot invocation, or `None` for another program
/// (the lab, `ladderbot-lab ...`, among them).
fn ladderbot_args(words: &[String]) -> Option<Vec<String>> {
    program_args(words)
        .filter(|(program, _)| *program == Program::Engine)
        .map(|(_, args)| args)
}

/// Parses `args` with the real command line; `Err` with clap's message.
fn parse(args: &[String]) -> Result<(), String> {
    let argv =
        std::iter::once("ladderbot".to_string()).chain(args.iter().map(|a| plain(a).to_string()));
    match Cli::try_parse_from(argv) {
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e.to_string().lines().next().unwrap_or_default().to_string()),
    }
}

#[test]
fn every_doc_command_parses() {
    let mut problems = Vec::new();
    let mut count = 0;
    let mut used = vec![0; SKIP.len()];
    let dir = Path::new("/nonexistent");
    for page in pages(&repo()) {
        for block in blocks(&repo(), &page) {
            for step in engine_steps(&block, dir) {
                let cmd = match step {
                    Step::Run(cmd) => cmd,
                    Step::Unreadable(p) => {
                        problems.push(p);
                        continue;
                    }
                    _ => continue,
                };
                count += 1;
                list_if_asked(SKIP, &cmd);
                count_skips(SKIP, &cmd, &mut used);
                if let Err(e) = parse(&cmd.args) {
                    problems.push(format!("{}: {e}", cmd.at()));
                }
                // The bot programs of `referee --bot "ladderbot ..."` too.
                for (i, a) in cmd.args.iter().enumerate() {
                    if a == "--bot" {
                        if let Some(bot) = cmd.args.get(i + 1) {
                            let words: Vec<String> =
                                bot.split_whitespace().map(String::from).collect();
                            if let Some(inner) = ladderbot_args(&words) {
                                if let Err(e) = parse(&inner) {
                                    problems.push(format!("{}: --bot \"{bot}\": {e}", cmd.at()));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    problems.extend(stale_skips(SKIP, &used));
    assert!(
        count > 80,
        "only {count} ladderbot command lines found in README.md and docs/"
    );
    assert!(
        problems.is_empty(),
        "{} documented command line(s) do not parse:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Running.

/// A background command of a block.
struct Job {
    number: usize,
    cmd: Option<Cmd>,
    child: Option<Child>,
    server: bool,
    out: PathBuf,
    err: PathBuf,
    /// Sent SIGTERM by `kill %N`.
    killed: bool,
}

/// The servers a block started, for the lines after them.
#[derive(Default)]
struct Servers {
    /// `ws://127.0.0.1:PORT` of the last `serve`.
    ws: Option<String>,
    /// The two ports of the last `serve-gat`.
    gat: Option<[u16; 2]>,
}

/// A loopback address of the pages (`127.0.0.1:8765`, `...:PORT`,
/// `127.0.0.1:10000`...) pointed at the block's server.
fn readdress(value: &str, servers: &Servers) -> Result<String, String> {
    let mut v = value.to_string();
    for fixed in ["127.0.0.1:8765", "127.0.0.1:PORT", "localhost:8765"] {
        if v.contains(fixed) {
            let ws = servers.ws.as_deref().ok_or(format!(
                "names {fixed}, but no `ladderbot serve` runs in this block before it"
            ))?;
            let addr = ws.trim_start_matches("ws://");
            v = v.replace(fixed, addr);
        }
    }
    for (seat, fixed) in ["127.0.0.1:10000", "127.0.0.1:10001"].iter().enumerate() {
        if v == *fixed || v.ends_with(&format!("={fixed}")) {
            let ports = servers.gat.ok_or(format!(
                "names {fixed}, but no `ladderbot serve-gat` runs in this block before it"
            ))?;
            v = v.replace(fixed, &format!("127.0.0.1:{}", ports[seat]));
        }
    }
    Ok(v)
}

/// The bot profile a command plays with: `(server, games)` of its file in
/// bots/, if it names a shipped one.
fn profile_of(args: &[String], env: &[(String, String)]) -> Option<(Option<String>, Option<i64>)> {
    let name = flag(args, "--profile").map(String::from).or_else(|| {
        env.iter()
            .find(|(k, _)| k == "LADDERBOT_PROFILE")
            .map(|(_, v)| v.clone())
    })?;
    let text = fs::read_to_string(repo().join("bots").join(format!("{name}.toml"))).ok()?;
    let file: toml::Table = text.parse().ok()?;
    let client = file.get("client").and_then(|c| c.as_table());
    let server = client
        .and_then(|c| c.get("server"))
        .and_then(|s| s.as_str())
        .map(String::from);
    let games = client
        .and_then(|c| c.get("games"))
        .and_then(|g| g.as_integer());
    Some((server, games))
}

/// The command line and environment a documented command runs with: tiny
/// budgets, free ports, the block's servers, paths in `dir`.
fn rewrite(
    cmd_args: &[String],
    line_env: &[(String, String)],
    servers: &Servers,
    dir: &Path,
) -> Result<(Vec<String>, Env), String> {
    let sub = subcommand(cmd_args);
    let repo = repo();
    let mut args = small_args(
        cmd_args,
        &sub,
        dir,
        &mut |name, value| match name {
            "--bot" => bot_command(value, servers, dir).map(Some),
            _ => Ok(None),
        },
        &mut |w| Ok(local_path(&repo, &readdress(w, servers)?, dir)),
    )?;
    let added: &[(&str, &str, &str)] = &[
        ("serve", "--bind", "127.0.0.1:0"),
        ("serve-gat", "--ports", "0,0"),
        ("bench", "--seconds", "0.1"),
        ("bench", "--samples", "1"),
        ("referee", "--max-rounds", "10"),
    ];
    for (command, name, value) in added {
        if sub == *command && flag(&args, name).is_none() {
            args.extend([name.to_string(), value.to_string()]);
        }
    }
    // The environment: small budgets for every command (a profile's too),
    // then the line's own assignments, made small as well.
    let mut env = with_line_env(engine_env(), line_env, &sub, &mut |v| readdress(v, servers))?;
    // A profile's own server and games.
    if sub == "play" && flag(&args, "--server").is_none() {
        if let Some((server, games)) = profile_of(&args, line_env) {
            if let Some(s) = server {
                if !line_env
                    .iter()
                    .any(|(k, _)| k == "LADDERBOT_CLIENT__SERVER")
                {
                    let s = s.trim_start_matches("ws://");
                    let moved = readdress(s, servers)?;
                    let url = if server_is_ws(&args, line_env) {
                        format!("ws://{moved}")
                    } else {
                        moved
                    };
                    env.push(("LADDERBOT_CLIENT__SERVER".into(), url));
                }
            }
            if games.unwrap_or(1) > 2 && flag(&args, "--games").is_none() {
                env.push(("LADDERBOT_CLIENT__GAMES".into(), "2".into()));
            }
        }
    }
    Ok((args, env))
}

/// Whether the profile's server is a `ws://` one.
fn server_is_ws(args: &[String], env: &[(String, String)]) -> bool {
    profile_of(args, env)
        .and_then(|(s, _)| s)
        .is_some_and(|s| s.starts_with("ws"))
}

/// A `--bot` program: a ladderbot one runs this binary with small budgets.
fn bot_command(value: &str, servers: &Servers, dir: &Path) -> Result<String, String> {
    let words: Vec<String> = value.split_whitespace().map(String::from).collect();
    match ladderbot_args(&words) {
        Some(inner) => {
            let (args, _) = rewrite(&inner, &[], servers, dir)?;
            let mut all = vec![env!("CARGO_BIN_EXE_ladderbot").to_string()];
            all.extend(args);
            Ok(all.join(" "))
        }
        None => Ok(value.to_string()),
    }
}

/// Waits for the `listening on` line of a server started with its stdout in
/// `out`.
/// `out`.
fn listening(child: &mut Child, out: &Path) -> Result<String, String> {
    let start = Instant::now();
    loop {
        let text = fs::read_to_string(out).unwrap_or_default();
        if let Some(l) = text.lines().find_map(|l| l.strip_prefix("listening on ")) {
            return Ok(l.trim().to_string());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("exited ({status}) before it listened"));
        }
        if start.elapsed() > Duration::from_secs(20) {
            return Err("printed no `listening on` line within 20 s".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the commands of every block of `page` in one folder; the failures.
fn run_page(page: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let logs = dir.join(".doc-commands");
    fs::create_dir_all(&logs).unwrap();
    let mut failures = Vec::new();
    let mut serial = 0;
    for block in blocks(&repo(), page) {
        let mut jobs: Vec<Job> = Vec::new();
        let mut servers = Servers::default();
        for step in engine_steps(&block, dir) {
            match step {
                Step::Unreadable(p) => failures.push(p),
                Step::Wait(numbers) => {
                    for job in jobs.iter_mut() {
                        let wanted = if numbers.is_empty() {
                            !job.server
                        } else {
                            numbers.contains(&job.number)
                        };
                        if wanted {
                            finish(job, &mut failures);
                        }
                    }
                }
                Step::Kill(numbers) => {
                    for job in jobs.iter_mut() {
                        if numbers.contains(&job.number) {
                            if let Some(child) = &job.child {
                                common::signal(child, "-TERM");
                                job.killed = true;
                            }
                            finish(job, &mut failures);
                        }
                    }
                }
                Step::Run(cmd) => {
                    let number = if cmd.background { jobs.len() + 1 } else { 0 };
                    if skip_reason(SKIP, &cmd).is_some() {
                        if cmd.background {
                            jobs.push(Job {
                                number,
                                cmd: None,
                                child: None,
                                server: false,
                                out: PathBuf::new(),
                                err: PathBuf::new(),
                                killed: false,
                            });
                        }
                        continue;
                    }
                    serial += 1;
                    let (args, env) = match rewrite(&cmd.args, &cmd.env, &servers, dir) {
                        Ok(x) => x,
                        Err(e) => {
                            failures.push(format!("{}: {e}", cmd.at()));
                            continue;
                        }
                    };
                    let sub = subcommand(&args);
                    let server = sub == "serve" || sub == "serve-gat";
                    let mut c = common::bin();
                    c.args(&args).current_dir(dir);
                    c.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
                    let Started {
                        mut child,
                        out,
                        err,
                    } = match start(c, &cmd, &repo(), dir, &logs, serial, true) {
                        Ok(started) => started,
                        Err(e) => {
                            failures.push(e);
                            continue;
                        }
                    };
                    if server {
                        match listening(&mut child, &out) {
                            Ok(addr) if sub == "serve" => servers.ws = Some(addr),
                            Ok(addr) => {
                                servers.gat = addr
                                    .split_once(',')
                                    .and_then(|(a, b)| Some([a.parse().ok()?, b.parse().ok()?]))
                            }
                            Err(e) => {
                                let _ = child.kill();
                                let _ = child.wait();
                                failures.push(failure(&cmd, "ladderbot", &args, &e, &out, &err));
                                continue;
                            }
                        }
                    }
                    if cmd.background {
                        jobs.push(Job {
                            number,
                            cmd: Some(cmd),
                            child: Some(child),
                            server,
                            out,
                            err,
                            killed: false,
                        });
                        continue;
                    }
                    if server {
                        // A server in the foreground runs until stopped: it
                        // listened, now SIGTERM must end it with exit 0.
                        common::signal(&child, "-TERM");
                    }
                    let t = Instant::now();
                    let code = wait_code(&mut child, LIMIT);
                    if std::env::var_os("DOC_COMMANDS_LIST").is_some() {
                        eprintln!(
                            "{}:{}: {:?} in {:.2} s: ladderbot {}\n    {}",
                            cmd.file,
                            cmd.line,
                            code,
                            t.elapsed().as_secs_f64(),
                            args.join(" "),
                            tail(&out).replace('\n', "\n    ")
                        );
                    }
                    let result = code.and_then(|code| check_code(code, cmd.expect));
                    if let Err(e) = result {
                        failures.push(failure(&cmd, "ladderbot", &args, &e, &out, &err));
                    }
                }
            }
        }
        // The end of the block: the clients are waited for, then the
        // servers stopped.
        for job in jobs.iter_mut().filter(|j| !j.server) {
            finish(job, &mut failures);
        }
        for job in jobs.iter_mut().filter(|j| j.server) {
            if let Some(child) = &mut job.child {
                if child.try_wait().ok().flatten().is_none() {
                    common::signal(child, "-TERM");
                }
            }
            finish(job, &mut failures);
        }
    }
    failures
}

/// Waits for a background job and checks its exit code (0; a `play` that
/// `kill %N` stopped may also end with 143).
fn finish(job: &mut Job, failures: &mut Vec<String>) {
    let (Some(mut child), Some(cmd)) = (job.child.take(), job.cmd.as_ref()) else {
        return;
    };
    let limit = if job.server {
        Duration::from_secs(15)
    } else {
        LIMIT
    };
    let code = wait_code(&mut child, limit);
    let result = code.and_then(|code| {
        if job.killed && !job.server && code == Some(143) {
            Ok(())
        } else {
            check_code(code, cmd.expect)
        }
    });
    if let Err(e) = result {
        failures.push(failure(cmd, "ladderbot", &cmd.args, &e, &job.out, &job.err));
    }
}

#[test]
fn every_doc_command_runs() {
    run_pages(pages(&repo()), THREADS, run_page);
}
