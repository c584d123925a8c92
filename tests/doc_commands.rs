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
//! cannot rely on the lab's binary): lab/tests/doc_commands.rs parses and
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

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use ladderbot::cli::Cli;

/// Lines that are not run, each with its reason: (page, a piece of the
/// line's text, why). They are still parsed. An entry that matches no line
/// fails the test (it is stale).
const SKIP: &[(&str, &str, &str)] = &[
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

/// Programs whose output a documented line may pipe into ladderbot
/// (`sed -n 's/^< //p' TRANSCRIPT | ladderbot play golad --stdio`): they only
/// read files. Any other pipe into ladderbot is a line the test cannot run.
const FEEDERS: &[&str] = &["sed", "cat", "head", "grep"];

/// The longest any one command may take.
const LIMIT: Duration = Duration::from_secs(60);
/// Pages run at once.
const THREADS: usize = 3;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every page of docs/, as paths relative to the repository.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(repo().join("docs"))
        .expect("docs/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A fenced code block: its page and its logical lines (continuations
/// joined, a `$ ` prompt removed) with the number of their first line.
struct Block {
    file: String,
    lines: Vec<(usize, String)>,
}

/// Numbered lines.
type Lines = Vec<(usize, String)>;

fn blocks(file: &str) -> Vec<Block> {
    let text = fs::read_to_string(repo().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    // The block being read: whether it is wanted, whether it is `console`
    // (commands only after `$ `), its lines.
    let mut current: Option<(bool, bool, Lines)> = None;
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.starts_with("```") {
            match current.take() {
                Some((wanted, _, lines)) => {
                    if wanted {
                        out.push(Block {
                            file: file.to_string(),
                            lines,
                        });
                    }
                    pending = None;
                }
                None => {
                    let info = trimmed.trim_start_matches('`').trim();
                    let lang = info.split_whitespace().next().unwrap_or("");
                    let wanted = matches!(lang, "" | "sh" | "bash" | "console");
                    current = Some((wanted, lang == "console", Vec::new()));
                }
            }
            continue;
        }
        let Some((_, console, lines)) = current.as_mut() else {
            continue;
        };
        let (start, mut line) = match pending.take() {
            Some((start, before)) => (start, before + " " + raw.trim_start()),
            None => {
                let prompted = raw.trim_start().strip_prefix("$ ");
                match prompted {
                    Some(command) => (i + 1, command.to_string()),
                    None if *console => continue,
                    None => (i + 1, raw.to_string()),
                }
            }
        };
        if line.ends_with('\\') {
            line.pop();
            pending = Some((start, line));
            continue;
        }
        lines.push((start, line));
    }
    out
}

// ---------------------------------------------------------------------------
// A small shell reader.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A word, and whether it holds an unquoted `*` or `?` (a glob).
    Word(String, bool),
    Op(&'static str),
}

/// The words and operators of one line, `$NAME` expanded from `vars`, and
/// the comment that ends it.
fn lex(line: &str, vars: &HashMap<String, String>) -> Result<(Vec<Tok>, String), String> {
    let chars: Vec<char> = line.chars().collect();
    let mut toks = Vec::new();
    let mut word: Option<(String, bool)> = None;
    let mut comment = String::new();
    let mut i = 0;
    fn finish(toks: &mut Vec<Tok>, word: &mut Option<(String, bool)>) {
        if let Some((w, g)) = word.take() {
            toks.push(Tok::Word(w, g));
        }
    }
    let name_at = |i: usize| -> Option<(String, usize)> {
        // `$NAME` or `${NAME}` at chars[i] == '$': the name and the index after it.
        if chars.get(i + 1) == Some(&'{') {
            let end = (i + 2..chars.len()).find(|&j| chars[j] == '}')?;
            return Some((chars[i + 2..end].iter().collect(), end + 1));
        }
        let mut j = i + 1;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
            j += 1;
        }
        (j > i + 1).then(|| (chars[i + 1..j].iter().collect(), j))
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => {
                finish(&mut toks, &mut word);
                i += 1;
            }
            '#' if word.is_none() => {
                comment = chars[i + 1..].iter().collect::<String>().trim().to_string();
                break;
            }
            '\'' => {
                let end = (i + 1..chars.len())
                    .find(|&j| chars[j] == '\'')
                    .ok_or("an unclosed '")?;
                let w = word.get_or_insert((String::new(), false));
                w.0.extend(&chars[i + 1..end]);
                i = end + 1;
            }
            '"' => {
                let w = word.get_or_insert((String::new(), false));
                i += 1;
                loop {
                    match chars.get(i) {
                        None => return Err("an unclosed \"".into()),
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                            w.0.push(chars[i + 1]);
                            i += 2;
                        }
                        Some('$') if chars.get(i + 1) == Some(&'(') => {
                            return Err("a command substitution".into())
                        }
                        Some('$') => match name_at(i) {
                            Some((name, next)) => {
                                w.0.push_str(vars.get(&name).map_or("", String::as_str));
                                i = next;
                            }
                            None => {
                                w.0.push('$');
                                i += 1;
                            }
                        },
                        Some(&c) => {
                            w.0.push(c);
                            i += 1;
                        }
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert((String::new(), false));
                if let Some(&n) = chars.get(i + 1) {
                    w.0.push(n);
                }
                i += 2;
            }
            '$' if chars.get(i + 1) == Some(&'(') => return Err("a command substitution".into()),
            '$' => match name_at(i) {
                Some((name, next)) => {
                    // Unquoted: split on white space.
                    let value = vars.get(&name).cloned().unwrap_or_default();
                    let mut parts = value.split_whitespace();
                    if value.starts_with(char::is_whitespace) {
                        finish(&mut toks, &mut word);
                    }
                    if let Some(first) = parts.next() {
                        word.get_or_insert((String::new(), false)).0.push_str(first);
                    }
                    for p in parts {
                        finish(&mut toks, &mut word);
                        word = Some((p.to_string(), false));
                    }
                    if value.ends_with(char::is_whitespace) {
                        finish(&mut toks, &mut word);
                    }
                    i = next;
                }
                None => {
                    word.get_or_insert((String::new(), false)).0.push('$');
                    i += 1;
                }
            },
            ';' | '&' | '|' | '<' | '>' => {
                let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                let op: &'static str = match two.as_str() {
                    "&&" => "&&",
                    "||" => "||",
                    ">>" => ">>",
                    "<<" => return Err("a here-document".into()),
                    "&>" => "&>",
                    _ => match c {
                        ';' => ";",
                        '&' => "&",
                        '|' => "|",
                        '<' => "<",
                        _ => ">",
                    },
                };
                // `2>` and `2>&1`: a redirection of stderr.
                if op == ">" && word.as_ref().map(|w| w.0 == "2") == Some(true) {
                    word = None;
                    let rest: String = chars[i..].iter().collect();
                    if rest.starts_with(">&1") {
                        i += 3;
                        continue;
                    }
                    toks.push(Tok::Op("2>"));
                    i += 1;
                    continue;
                }
                finish(&mut toks, &mut word);
                toks.push(Tok::Op(op));
                i += op.len();
            }
            '*' | '?' => {
                let w = word.get_or_insert((String::new(), false));
                w.0.push(c);
                w.1 = true;
                i += 1;
            }
            _ => {
                word.get_or_insert((String::new(), false)).0.push(c);
                i += 1;
            }
        }
    }
    finish(&mut toks, &mut word);
    Ok((toks, comment))
}

/// One ladderbot command of a page.
#[derive(Clone, Debug)]
struct Cmd {
    file: String,
    line: usize,
    /// The logical line it comes from, as written.
    text: String,
    /// `NAME=value` before the command.
    env: Vec<(String, String)>,
    /// The arguments after the program.
    args: Vec<String>,
    background: bool,
    stdin: Option<String>,
    /// A text tool whose output is piped in (`sed ... FILE | ladderbot ...`).
    feed: Option<Vec<String>>,
    stdout: Option<(String, bool)>,
    stderr: Option<String>,
    /// The exit code the page says it exits with (`# exits N`), else 0.
    expect: i32,
}

impl Cmd {
    fn at(&self) -> String {
        format!("{}:{}: `{}`", self.file, self.line, self.text.trim())
    }
}

/// What a block does, in order.
#[derive(Debug)]
enum Step {
    Run(Cmd),
    /// `wait` (every job) or `wait %N...`.
    Wait(Vec<usize>),
    /// `kill %N...`.
    Kill(Vec<usize>),
    /// A line the test cannot read although it runs ladderbot.
    Unreadable(String),
}

/// The arguments of a ladderbot invocation, or `None` for another program
/// (the lab, `ladderbot-lab ...`, among them: lab/tests/doc_commands.rs).
fn ladderbot_args(words: &[String]) -> Option<Vec<String>> {
    let mut w = words;
    while w.len() > 2 && w[0] == "flock" {
        w = &w[2..];
    }
    match w.first()?.as_str() {
        "ladderbot-lab" | "target/release/ladderbot-lab" | "./target/release/ladderbot-lab" => None,
        "ladderbot" | "target/release/ladderbot" | "./target/release/ladderbot" => {
            Some(w[1..].to_vec())
        }
        "cargo" if w.len() >= 4 && w[1..4] == ["run", "--release", "--"] => Some(w[4..].to_vec()),
        _ => None,
    }
}

fn is_assignment(w: &str) -> bool {
    match w.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// `N` from a comment that says `exits N`.
fn expected_code(comment: &str) -> i32 {
    let words: Vec<&str> = comment.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "exits")
        .and_then(|w| {
            w[1].trim_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// The steps of a block, with `$PWD` the folder it runs in.
fn steps(block: &Block, pwd: &Path) -> Vec<Step> {
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("PWD".into(), pwd.display().to_string());
    let mut out = Vec::new();
    let lines = &block.lines;
    let mut i = 0;
    while i < lines.len() {
        let (n, text) = &lines[i];
        let t = text.trim_start();
        if let Some(header) = t.strip_prefix("for ") {
            // for NAME in WORDS; do [BODY]
            let (head, first) = match header.split_once("; do") {
                Some((h, rest)) => (h, rest.trim().to_string()),
                None => (header, String::new()),
            };
            let mut body: Vec<(usize, String)> = Vec::new();
            if !first.is_empty() {
                body.push((*n, first));
            }
            let mut after = None;
            i += 1;
            while i < lines.len() {
                let (m, l) = &lines[i];
                let lt = l.trim_start();
                if let Some(rest) = lt.strip_prefix("done") {
                    let rest = rest.trim_start_matches([';', ' ']).to_string();
                    if !rest.is_empty() {
                        after = Some((*m, rest));
                    }
                    break;
                }
                if lt != "do" {
                    body.push((*m, l.clone()));
                }
                i += 1;
            }
            i += 1;
            let mut parts = head.split_whitespace();
            let var = parts.next().unwrap_or_default().to_string();
            let values: Vec<String> = parts.skip(1).map(String::from).collect();
            for v in values {
                vars.insert(var.clone(), v);
                for (m, l) in &body {
                    line_steps(block, *m, l, &mut vars, &mut out);
                }
            }
            if let Some((m, l)) = after {
                line_steps(block, m, &l, &mut vars, &mut out);
            }
            continue;
        }
        line_steps(block, *n, text, &mut vars, &mut out);
        i += 1;
    }
    out
}

/// A simple command: its words (with whether each is a glob), its
/// redirections, and the operator after it (`;`, `&&`, `&`, `|`, or none).
type Simple = (
    Vec<(String, bool)>,
    Vec<(&'static str, String)>,
    &'static str,
);

/// The simple commands of a line, and its comment.
fn simple_commands(
    text: &str,
    vars: &HashMap<String, String>,
) -> Result<(Vec<Simple>, String), String> {
    let (toks, comment) = lex(text, vars)?;
    let mut cmds: Vec<Simple> = Vec::new();
    let mut words = Vec::new();
    let mut redirs = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        match &toks[k] {
            Tok::Word(w, g) => words.push((w.clone(), *g)),
            Tok::Op(op @ (">" | ">>" | "<" | "2>" | "&>")) => {
                if let Some(Tok::Word(target, _)) = toks.get(k + 1) {
                    redirs.push((*op, target.clone()));
                    k += 1;
                }
            }
            Tok::Op(op) => {
                cmds.push((std::mem::take(&mut words), std::mem::take(&mut redirs), op));
            }
        }
        k += 1;
    }
    if !words.is_empty() {
        cmds.push((words, redirs, ""));
    }
    Ok((cmds, comment))
}

fn line_steps(
    block: &Block,
    n: usize,
    text: &str,
    vars: &mut HashMap<String, String>,
    out: &mut Vec<Step>,
) {
    // Commands are read again after an assignment (`B=...; $B ...`), as the
    // shell expands each command when it comes to it.
    let mut done = 0;
    'read: loop {
        let (cmds, comment) = match simple_commands(text, vars) {
            Ok(x) => x,
            Err(e) => {
                let first = text
                    .split_whitespace()
                    .find(|w| !is_assignment(w))
                    .unwrap_or("");
                if first.ends_with("ladderbot") || first == "cargo" {
                    out.push(Step::Unreadable(format!(
                        "{}:{n}: `{}`: cannot read {e}",
                        block.file,
                        text.trim()
                    )));
                }
                return;
            }
        };
        let expect = expected_code(&comment);
        for (index, (words, redirs, end)) in cmds.iter().enumerate().skip(done) {
            done = index + 1;
            // A pipe into this command, from a text tool: its words.
            let before = index
                .checked_sub(1)
                .map(|i| &cmds[i])
                .filter(|c| c.2 == "|");
            let feed: Option<Vec<String>> = before
                .map(|c| c.0.iter().map(|(w, _)| w.clone()).collect::<Vec<_>>())
                .filter(|w| w.first().is_some_and(|p| FEEDERS.contains(&p.as_str())));
            let this_piped = (before.is_some() && feed.is_none()) || *end == "|";
            let mut w: Vec<String> = words.iter().map(|(w, _)| w.clone()).collect();
            if w.first().map(String::as_str) == Some("export") {
                w.remove(0);
            }
            let assigned = w.iter().take_while(|x| is_assignment(x)).count();
            let env: Vec<(String, String)> = w[..assigned]
                .iter()
                .map(|a| {
                    let (k, v) = a.split_once('=').unwrap();
                    (k.to_string(), v.to_string())
                })
                .collect();
            let rest = &w[assigned..];
            if rest.is_empty() {
                vars.extend(env);
                continue 'read;
            }
            let jobs = |args: &[String]| -> Option<Vec<usize>> {
                args.iter()
                    .map(|a| a.strip_prefix('%').and_then(|n| n.parse().ok()))
                    .collect()
            };
            match rest[0].as_str() {
                "wait" => {
                    if let Some(j) = jobs(&rest[1..]) {
                        out.push(Step::Wait(j));
                    }
                    continue;
                }
                "kill" => {
                    if let Some(j) = jobs(&rest[1..]) {
                        if !j.is_empty() {
                            out.push(Step::Kill(j));
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let Some(args) = ladderbot_args(rest) else {
                continue;
            };
            if this_piped {
                out.push(Step::Unreadable(format!(
                    "{}:{n}: `{}`: a pipe",
                    block.file,
                    text.trim()
                )));
                continue;
            }
            let mut cmd = Cmd {
                file: block.file.clone(),
                line: n,
                text: text.to_string(),
                env,
                args,
                background: *end == "&",
                stdin: None,
                feed,
                stdout: None,
                stderr: None,
                expect,
            };
            for (op, target) in redirs {
                match *op {
                    "<" => cmd.stdin = Some(target.clone()),
                    ">" => cmd.stdout = Some((target.clone(), false)),
                    ">>" => cmd.stdout = Some((target.clone(), true)),
                    "2>" => cmd.stderr = Some(target.clone()),
                    _ => {}
                }
            }
            // Globs are expanded when the command runs (in its folder): mark them.
            let offset = words.len() - cmd.args.len();
            for (a, (_, glob)) in cmd.args.iter_mut().zip(&words[offset..]) {
                if *glob {
                    *a = format!("\u{0}glob:{a}");
                }
            }
            out.push(Step::Run(cmd));
        }
        break;
    }
}

/// The argument as written (a glob without its mark).
fn plain(a: &str) -> &str {
    a.strip_prefix("\u{0}glob:").unwrap_or(a)
}

fn skip_reason(cmd: &Cmd) -> Option<&'static str> {
    SKIP.iter()
        .find(|(file, piece, _)| *file == cmd.file && cmd.text.contains(piece))
        .map(|(_, _, why)| *why)
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

/// The value of `--flag` (as `--flag V` or `--flag=V`).
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let eq = format!("{name}=");
    args.iter().enumerate().find_map(|(i, a)| {
        if a == name {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix(&eq)
        }
    })
}

/// The command (`play`, `match`, ...), after the global flags; `play` when
/// there is none.
fn subcommand(args: &[String]) -> String {
    let mut i = 0;
    while i < args.len() {
        let a = plain(&args[i]);
        if a == "--profile" || a == "--log-format" {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return a.to_string();
        }
    }
    "play".into()
}

#[test]
fn every_doc_command_parses() {
    let mut problems = Vec::new();
    let mut count = 0;
    let mut used = vec![0; SKIP.len()];
    let dir = Path::new("/nonexistent");
    for page in pages() {
        for block in blocks(&page) {
            for step in steps(&block, dir) {
                let cmd = match step {
                    Step::Run(cmd) => cmd,
                    Step::Unreadable(p) => {
                        problems.push(p);
                        continue;
                    }
                    _ => continue,
                };
                count += 1;
                if std::env::var_os("DOC_COMMANDS_LIST").is_some() {
                    let skip = skip_reason(&cmd).map_or(String::new(), |r| format!(" [skip: {r}]"));
                    eprintln!("{}:{}: {}{skip}", cmd.file, cmd.line, cmd.args.join(" "));
                }
                for (k, (file, piece, _)) in SKIP.iter().enumerate() {
                    if *file == cmd.file && cmd.text.contains(piece) {
                        used[k] += 1;
                    }
                }
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
    for (k, (file, piece, _)) in SKIP.iter().enumerate() {
        if used[k] == 0 {
            problems.push(format!(
                "SKIP names `{piece}` in {file}, which no command line has any more: remove it"
            ));
        }
    }
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

/// Small budgets for `--flag value`; `None`: keep it.
fn small(name: &str, value: &str, sub: &str, shards: Option<u64>) -> Option<String> {
    let n = value.parse::<u64>().ok();
    let x = value.parse::<f64>().ok();
    let at_most = |k: u64| n.filter(|&n| n > k).map(|_| k.to_string());
    match name {
        "--games" => match (sub, n, shards) {
            ("serve-gat", Some(0), _) => None,
            (_, Some(_), Some(s)) => Some((2 * s).to_string()),
            _ => at_most(2),
        },
        "--playouts" | "--a-playouts" | "--b-playouts" | "--house-playouts" => at_most(50),
        "--judge-playouts" => at_most(20),
        "--time-ms" | "--a-time-ms" | "--b-time-ms" | "--house-time-ms" => at_most(10),
        "--sequences" | "--count" | "--judge-games" => at_most(2),
        "--seconds" => x.filter(|&x| x > 0.1).map(|_| "0.1".into()),
        "--samples" | "--per-depth" => at_most(1),
        "--time-limit-s" => at_most(30),
        "--nodes" | "--deep-nodes" | "--lost-nodes" => at_most(2000),
        "--max-nodes" => at_most(100_000),
        "--max-rounds" => at_most(10),
        // `ladderbot-lab golad candidates` (lab/tests/doc_commands.rs, which
        // copies this): one position in 64 (a wide scoring is
        // about 45 ms).
        "--every" => n.filter(|&n| n < 64).map(|_| "64".into()),
        "--bind" => Some("127.0.0.1:0".into()),
        "--ports" => Some("0,0".into()),
        "--host" => Some("127.0.0.1".into()),
        _ => None,
    }
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

/// A path of the pages made to work in `dir`: `/tmp/X` and `/data/X` become
/// `dir/tmp/X`...; a repository file or folder it names is copied in; the
/// folder an output goes to is made. In `NAME=PATH` (`serve --openings
/// four3d=openings/four3d.txt`) the path is the part after the `=`.
fn local_path(value: &str, dir: &Path) -> String {
    if let Some((name, path)) = value.split_once('=') {
        let named = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if named && path.contains('/') {
            return format!("{name}={}", local_path(path, dir));
        }
    }
    for root in ["/tmp/", "/data/"] {
        if let Some(rest) = value.strip_prefix(root) {
            let p = dir.join(root.trim_matches('/')).join(rest);
            if let Some(parent) = p.parent() {
                let _ = fs::create_dir_all(parent);
            }
            return p.display().to_string();
        }
    }
    if value.starts_with('-') || value.starts_with('/') || value.is_empty() || value.contains("://")
    {
        return value.to_string();
    }
    let src = repo().join(value);
    let dst = dir.join(value);
    if src.is_file() && !dst.exists() {
        if let Some(parent) = dst.parent() {
            let _ = fs::create_dir_all(parent);
        }
        let _ = fs::copy(&src, &dst);
    } else if src.is_dir() && !dst.exists() && value != "." && dir_size(&src) < 4_000_000 {
        copy_dir(&src, &dst);
    } else if value.contains('/') && !dst.exists() {
        if let Some(parent) = Path::new(value).parent() {
            if repo().join(parent).is_dir() {
                let _ = fs::create_dir_all(dir.join(parent));
            }
        }
    }
    value.to_string()
}

fn dir_size(p: &Path) -> u64 {
    fs::read_dir(p)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| {
                    let path = e.path();
                    if path.is_dir() {
                        dir_size(&path)
                    } else {
                        e.metadata().map(|m| m.len()).unwrap_or(0)
                    }
                })
                .sum()
        })
        .unwrap_or(u64::MAX)
}

fn copy_dir(src: &Path, dst: &Path) {
    let _ = fs::create_dir_all(dst);
    for e in fs::read_dir(src).into_iter().flatten().flatten() {
        let to = dst.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            let _ = fs::copy(e.path(), &to);
        }
    }
}

/// `pattern` (one `*`/`?` glob, in its last part) matched in `dir`, sorted;
/// the pattern itself when nothing matches (as the shell does).
fn glob(pattern: &str, dir: &Path) -> Vec<String> {
    let (folder, name) = match pattern.rsplit_once('/') {
        Some((f, n)) => (Some(f), n),
        None => (None, pattern),
    };
    fn matches(p: &[char], s: &[char]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some('*') => (0..=s.len()).any(|k| matches(&p[1..], &s[k..])),
            Some('?') => !s.is_empty() && matches(&p[1..], &s[1..]),
            Some(c) => s.first() == Some(c) && matches(&p[1..], &s[1..]),
        }
    }
    let p: Vec<char> = name.chars().collect();
    let base = folder.map_or(dir.to_path_buf(), |f| dir.join(f));
    let mut found: Vec<String> = fs::read_dir(&base)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| matches(&p, &n.chars().collect::<Vec<_>>()))
        .map(|n| folder.map_or(n.clone(), |f| format!("{f}/{n}")))
        .collect();
    found.sort();
    if found.is_empty() {
        vec![pattern.to_string()]
    } else {
        found
    }
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

/// Environment variables.
type Env = Vec<(String, String)>;

/// The command line and environment a documented command runs with: tiny
/// budgets, free ports, the block's servers, paths in `dir`.
fn rewrite(
    cmd_args: &[String],
    line_env: &[(String, String)],
    servers: &Servers,
    dir: &Path,
) -> Result<(Vec<String>, Env), String> {
    let sub = subcommand(cmd_args);
    let shards = flag(cmd_args, "--shard")
        .and_then(|s| s.split_once('/'))
        .and_then(|(_, n)| n.parse().ok());
    let mut args = Vec::new();
    let mut i = 0;
    while i < cmd_args.len() {
        let a = &cmd_args[i];
        if let Some(pattern) = a.strip_prefix("\u{0}glob:") {
            args.extend(glob(pattern, dir));
            i += 1;
            continue;
        }
        let (name, value, joined) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string()), true),
            _ if a.starts_with("--") => (a.clone(), cmd_args.get(i + 1).cloned(), false),
            _ => {
                args.push(local_path(&readdress(a, servers)?, dir));
                i += 1;
                continue;
            }
        };
        let takes_value = value
            .as_deref()
            .map(|v| joined || !v.starts_with("--"))
            .unwrap_or(false);
        if !takes_value {
            args.push(a.clone());
            i += 1;
            continue;
        }
        let value = value.unwrap();
        let new = if name == "--bot" {
            bot_command(&value, servers, dir)?
        } else if sub == "tune" && name == "--games" {
            // A tune run is at least ten iterations, of a pair of games
            // (two pairs with `--vs`).
            let vs = cmd_args
                .iter()
                .any(|a| a == "--vs" || a.starts_with("--vs="));
            let least: u64 = if vs { 40 } else { 20 };
            value
                .parse::<u64>()
                .map_or(value.clone(), |n| n.min(least).to_string())
        } else if let Some(v) = small(&name, &value, &sub, shards) {
            v
        } else {
            local_path(&readdress(&value, servers)?, dir)
        };
        if joined {
            args.push(format!("{name}={new}"));
            i += 1;
        } else {
            args.push(name);
            args.push(new);
            i += 2;
        }
    }
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
    let mut env: Vec<(String, String)> = vec![
        ("LADDERBOT_SEARCH__PLAYOUTS".into(), "50".into()),
        ("LADDERBOT_SEARCH__TIME_MS".into(), "10".into()),
        ("LADDERBOT_SERVER__HOUSE_PLAYOUTS".into(), "50".into()),
    ];
    for (k, v) in line_env {
        let v = if k.ends_with("PLAYOUTS") {
            small("--playouts", v, &sub, None).unwrap_or(v.clone())
        } else if k.ends_with("TIME_MS") {
            small("--time-ms", v, &sub, None).unwrap_or(v.clone())
        } else {
            readdress(v, servers)?
        };
        env.retain(|(e, _)| e != k);
        env.push((k.clone(), v));
    }
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

/// Waits for `child` to exit within `limit`; its exit code (`None` after a
/// signal), or `Err` after the limit (the child is killed).
fn wait_code(child: &mut Child, limit: Duration) -> Result<Option<i32>, String> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(status.code());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("did not finish within {limit:?} (killed)"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The last lines of a log file, for a failure's message.
fn tail(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(12)..].join("\n    ")
}

fn failure(cmd: &Cmd, run: &[String], what: &str, out: &Path, err: &Path) -> String {
    format!(
        "{}\n  ran: ladderbot {}\n  {what}\n  stdout:\n    {}\n  stderr:\n    {}",
        cmd.at(),
        run.join(" "),
        tail(out),
        tail(err)
    )
}

fn check_code(code: Option<i32>, want: i32) -> Result<(), String> {
    match code {
        Some(c) if c == want => Ok(()),
        Some(c) => Err(format!("exit code {c}, not {want}")),
        None => Err("ended by a signal".into()),
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
    for block in blocks(page) {
        let mut jobs: Vec<Job> = Vec::new();
        let mut servers = Servers::default();
        for step in steps(&block, dir) {
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
                    if skip_reason(&cmd).is_some() {
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
                    let out = logs.join(format!("{serial}.out"));
                    let err = logs.join(format!("{serial}.err"));
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
                    let fed = match &cmd.feed {
                        Some(words) => {
                            let input = logs.join(format!("{serial}.in"));
                            let args: Vec<String> =
                                words[1..].iter().map(|a| local_path(a, dir)).collect();
                            let ok = std::process::Command::new(&words[0])
                                .args(&args)
                                .current_dir(dir)
                                .stdin(Stdio::null())
                                .stdout(fs::File::create(&input).expect("a feed file"))
                                .status()
                                .is_ok_and(|s| s.success());
                            if !ok {
                                failures.push(format!(
                                    "{}: `{}` failed",
                                    cmd.at(),
                                    words.join(" ")
                                ));
                                continue;
                            }
                            Some(input)
                        }
                        None => cmd.stdin.as_ref().map(|f| dir.join(f)),
                    };
                    c.stdin(match &fed {
                        Some(f) => match fs::File::open(f) {
                            Ok(f) => Stdio::from(f),
                            Err(e) => {
                                failures.push(format!("{}: stdin {}: {e}", cmd.at(), f.display()));
                                continue;
                            }
                        },
                        None => Stdio::null(),
                    });
                    let stdout = match &cmd.stdout {
                        Some((f, append)) => fs::OpenOptions::new()
                            .create(true)
                            .write(true)
                            .append(*append)
                            .truncate(!*append)
                            .open(dir.join(f)),
                        None => fs::File::create(&out),
                    };
                    c.stdout(stdout.expect("stdout file"));
                    let err = match &cmd.stderr {
                        Some(f) => dir.join(f),
                        None => err,
                    };
                    c.stderr(fs::File::create(&err).expect("stderr file"));
                    let mut child = match c.spawn() {
                        Ok(child) => child,
                        Err(e) => {
                            failures.push(format!("{}: cannot start: {e}", cmd.at()));
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
                                failures.push(failure(&cmd, &args, &e, &out, &err));
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
                        failures.push(failure(&cmd, &args, &e, &out, &err));
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
        failures.push(failure(cmd, &cmd.args, &e, &job.out, &job.err));
    }
}

#[test]
fn every_doc_command_runs() {
    let start = Instant::now();
    let queue = Arc::new(Mutex::new(pages()));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let failures = Arc::clone(&failures);
            std::thread::spawn(move || loop {
                let Some(page) = queue.lock().unwrap().pop() else {
                    break;
                };
                let t = Instant::now();
                let f = run_page(&page);
                eprintln!(
                    "{page}: {:.1} s, {} failure(s)",
                    t.elapsed().as_secs_f64(),
                    f.len()
                );
                failures.lock().unwrap().extend(f);
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a worker panicked");
    }
    let failures = failures.lock().unwrap();
    eprintln!("all pages: {:.1} s", start.elapsed().as_secs_f64());
    assert!(
        failures.is_empty(),
        "{} documented command(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
