//! The command lines of the README's and of `docs/*.md`'s code blocks, and
//! the pieces that run them: one copy for the engine's test
//! (tests/doc_commands.rs, its `ladderbot ...` lines) and the lab's
//! (lab/tests/lab/doc_commands.rs, its `ladderbot-lab ...` lines), which
//! include this file with `#[path]`. It names no program's binary: each
//! test passes its `Command`s and the repository's folder.
//!
//! Every fenced code block whose info string is `sh`, `bash`, `console` or
//! empty is read like a small shell script: `\` continuations joined,
//! comments, quotes, `NAME=value` variables (`$NAME` expanded), `for ...;
//! do ... done` loops, `;`, `&&` and `&`, `wait` and `kill %N`. Every simple
//! command that runs the engine (`ladderbot ...`, `target/release/ladderbot
//! ...`, `cargo run --release -- ...`) or the lab (`ladderbot-lab ...`,
//! `cargo run --release -p ladderbot-lab -- ...`), also behind `flock FILE`,
//! after an optional `$ ` prompt and leading `NAME=value` assignments, is a
//! [`Cmd`].
// Each test uses its part: the lab's runs every line in the foreground (no
// jobs to wait for or kill).
#![allow(dead_code)]

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Programs whose output a documented line may pipe into ladderbot or the
/// lab (`sed -n 's/^< //p' TRANSCRIPT | ladderbot play golad --stdio`): they
/// only read files. Any other pipe into or out of them is a line the tests
/// cannot run.
pub const FEEDERS: &[&str] = &["sed", "cat", "head", "grep"];

/// README.md and every page of `repo`/docs/, as paths relative to `repo`.
pub fn pages(repo: &Path) -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(repo.join("docs"))
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
pub struct Block {
    pub file: String,
    pub lines: Vec<(usize, String)>,
}

/// Numbered lines.
type Lines = Vec<(usize, String)>;

/// The wanted code blocks (`sh`, `bash`, `console` or no info string) of
/// `file`, a page of `repo`.
pub fn blocks(repo: &Path, file: &str) -> Vec<Block> {
    let text = fs::read_to_string(repo.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
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

/// The program a documented command runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Program {
    /// `ladderbot ...`, `target/release/ladderbot ...`, `cargo run --release
    /// -- ...`: tests/doc_commands.rs's lines.
    Engine,
    /// `ladderbot-lab ...`, `cargo run --release -p ladderbot-lab -- ...`:
    /// lab/tests/lab/doc_commands.rs's lines.
    Lab,
}

/// One command of a page, of the engine or of the lab.
#[derive(Clone, Debug)]
pub struct Cmd {
    pub program: Program,
    pub file: String,
    pub line: usize,
    /// The logical line it comes from, as written.
    pub text: String,
    /// `NAME=value` before the command.
    pub env: Vec<(String, String)>,
    /// The arguments after the program.
    pub args: Vec<String>,
    /// Whether the line runs it in the background (`&`).
    pub background: bool,
    pub stdin: Option<String>,
    /// A text tool whose output is piped in (`sed ... FILE | ladderbot ...`).
    pub feed: Option<Vec<String>>,
    pub stdout: Option<(String, bool)>,
    pub stderr: Option<String>,
    /// The exit code the page says it exits with (`# exits N`), else 0.
    pub expect: i32,
}

impl Cmd {
    pub fn at(&self) -> String {
        format!("{}:{}: `{}`", self.file, self.line, self.text.trim())
    }
}

/// What a block does, in order.
#[derive(Debug)]
pub enum Step {
    Run(Cmd),
    /// `wait` (every job) or `wait %N...`.
    Wait(Vec<usize>),
    /// `kill %N...`.
    Kill(Vec<usize>),
    /// A line the test cannot read although it runs the test's program.
    Unreadable(String),
}

/// The program and the arguments of an engine or lab invocation, or `None`
/// for another program.
pub fn program_args(words: &[String]) -> Option<(Program, Vec<String>)> {
    let mut w = words;
    while w.len() > 2 && w[0] == "flock" {
        w = &w[2..];
    }
    match w.first()?.as_str() {
        "ladderbot-lab" | "target/release/ladderbot-lab" | "./target/release/ladderbot-lab" => {
            Some((Program::Lab, w[1..].to_vec()))
        }
        "cargo" if w.len() >= 6 && w[1..6] == ["run", "--release", "-p", "ladderbot-lab", "--"] => {
            Some((Program::Lab, w[6..].to_vec()))
        }
        "ladderbot" | "target/release/ladderbot" | "./target/release/ladderbot" => {
            Some((Program::Engine, w[1..].to_vec()))
        }
        "cargo" if w.len() >= 4 && w[1..4] == ["run", "--release", "--"] => {
            Some((Program::Engine, w[4..].to_vec()))
        }
        _ => None,
    }
}

/// Whether `w` is a shell assignment (`NAME=value`).
pub fn is_assignment(w: &str) -> bool {
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

/// The steps of a block, with `$PWD` the folder it runs in, for the test of
/// `own`'s lines: a line of `own` that cannot be read, or that is piped
/// into or out of something else than a text tool ([`FEEDERS`]), is a
/// [`Step::Unreadable`]; such a line of the other program is left to the
/// other test. The other program's lines that can be read are steps too.
pub fn steps(block: &Block, pwd: &Path, own: Program) -> Vec<Step> {
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
                    line_steps(block, *m, l, own, &mut vars, &mut out);
                }
            }
            if let Some((m, l)) = after {
                line_steps(block, m, &l, own, &mut vars, &mut out);
            }
            continue;
        }
        line_steps(block, *n, text, own, &mut vars, &mut out);
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

/// Whether a line that cannot be read is one of `own`'s: for the engine,
/// its first word after the assignments runs ladderbot (or cargo); for the
/// lab, it names `ladderbot-lab`.
fn names_program(text: &str, own: Program) -> bool {
    match own {
        Program::Engine => {
            let first = text
                .split_whitespace()
                .find(|w| !is_assignment(w))
                .unwrap_or("");
            first.ends_with("ladderbot") || first == "cargo"
        }
        Program::Lab => text.contains("ladderbot-lab"),
    }
}

fn line_steps(
    block: &Block,
    n: usize,
    text: &str,
    own: Program,
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
                if names_program(text, own) {
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
            let Some((program, args)) = program_args(rest) else {
                continue;
            };
            if this_piped && program != own {
                // The other program's test reads it.
                continue;
            }
            if this_piped {
                out.push(Step::Unreadable(format!(
                    "{}:{n}: `{}`: a pipe",
                    block.file,
                    text.trim()
                )));
                continue;
            }
            let mut cmd = Cmd {
                program,
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
pub fn plain(a: &str) -> &str {
    a.strip_prefix("\u{0}glob:").unwrap_or(a)
}

/// Lines a test does not run, each with its reason: (page, a piece of the
/// line's text, why).
pub type Skip = (&'static str, &'static str, &'static str);

/// Why `cmd` is not run, if `skip` names it.
pub fn skip_reason(skip: &[Skip], cmd: &Cmd) -> Option<&'static str> {
    skip.iter()
        .find(|(file, piece, _)| *file == cmd.file && cmd.text.contains(piece))
        .map(|(_, _, why)| *why)
}

/// Counts in `used` the entries of `skip` that name `cmd`.
pub fn count_skips(skip: &[Skip], cmd: &Cmd, used: &mut [usize]) {
    for (k, (file, piece, _)) in skip.iter().enumerate() {
        if *file == cmd.file && cmd.text.contains(piece) {
            used[k] += 1;
        }
    }
}

/// A problem for each entry of `skip` that named no line (`used` 0).
pub fn stale_skips(skip: &[Skip], used: &[usize]) -> Vec<String> {
    skip.iter()
        .zip(used)
        .filter(|(_, &n)| n == 0)
        .map(|((file, piece, _), _)| {
            format!("SKIP names `{piece}` in {file}, which no command line has any more: remove it")
        })
        .collect()
}

/// With `DOC_COMMANDS_LIST` set: `cmd`'s place and arguments on stderr (and
/// why it is skipped, if it is).
pub fn list_if_asked(skip: &[Skip], cmd: &Cmd) {
    if std::env::var_os("DOC_COMMANDS_LIST").is_some() {
        let skip = skip_reason(skip, cmd).map_or(String::new(), |r| format!(" [skip: {r}]"));
        eprintln!("{}:{}: {}{skip}", cmd.file, cmd.line, cmd.args.join(" "));
    }
}

/// The value of `--flag` (as `--flag V` or `--flag=V`).
pub fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
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
pub fn subcommand(args: &[String]) -> String {
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

// ---------------------------------------------------------------------------
// Running.

/// Small budgets for `--flag value`; `None`: keep it.
pub fn small(name: &str, value: &str, sub: &str, shards: Option<u64>) -> Option<String> {
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
        // `ladderbot-lab golad candidates`: one position in 64 (a wide
        // scoring is about 45 ms).
        "--every" => n.filter(|&n| n < 64).map(|_| "64".into()),
        // `ladderbot-lab golad convert`: the positions of one round near
        // the end, a few evaluations a move.
        "--evals" | "--vs-evals" => at_most(50),
        "--rounds" if sub.ends_with("convert") => Some("95".into()),
        "--bind" => Some("127.0.0.1:0".into()),
        "--ports" => Some("0,0".into()),
        "--host" => Some("127.0.0.1".into()),
        _ => None,
    }
}

/// Environment variables.
pub type Env = Vec<(String, String)>;

/// A rewriting of a flag's value (name, value) that comes before the
/// others: `Ok(Some(new))`, or `Ok(None)` to leave it to them.
pub type ValueOf<'a> = dyn FnMut(&str, &str) -> Result<Option<String>, String> + 'a;

/// The arguments of a documented command (`cmd_args`, of the command
/// `sub`) made to run in `dir`: globs matched there, budgets made small
/// ([`small`]; a `tune` keeps its ten iterations). `value` may first take
/// a flag's value on itself (`Ok(Some(new))`); every other value and word
/// goes through `place` (a path made local, an address pointed at a
/// server...).
pub fn small_args(
    cmd_args: &[String],
    sub: &str,
    dir: &Path,
    value_of: &mut ValueOf<'_>,
    place: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Vec<String>, String> {
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
                args.push(place(a)?);
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
        let new = if let Some(v) = value_of(&name, &value)? {
            v
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
        } else if let Some(v) = small(&name, &value, sub, shards) {
            v
        } else {
            place(&value)?
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
    Ok(args)
}

/// Small budgets for every run of the engine (a profile's too).
pub fn engine_env() -> Env {
    vec![
        ("LADDERBOT_SEARCH__PLAYOUTS".into(), "50".into()),
        ("LADDERBOT_SEARCH__TIME_MS".into(), "10".into()),
        ("LADDERBOT_SERVER__HOUSE_PLAYOUTS".into(), "50".into()),
    ]
}

/// `env`, then the line's own assignments (`line_env`, of the command
/// `sub`) made small as well; every other value goes through `place`.
pub fn with_line_env(
    mut env: Env,
    line_env: &[(String, String)],
    sub: &str,
    place: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Env, String> {
    for (k, v) in line_env {
        let v = if k.ends_with("PLAYOUTS") {
            small("--playouts", v, sub, None).unwrap_or(v.clone())
        } else if k.ends_with("TIME_MS") {
            small("--time-ms", v, sub, None).unwrap_or(v.clone())
        } else {
            place(v)?
        };
        env.retain(|(e, _)| e != k);
        env.push((k.clone(), v));
    }
    Ok(env)
}

/// A path of the pages made to work in `dir`: `/tmp/X` and `/data/X` become
/// `dir/tmp/X`...; a file or folder of `repo` it names is copied in; the
/// folder an output goes to is made. In `NAME=PATH` (`serve --openings
/// four3d=openings/four3d.txt`) the path is the part after the `=`.
pub fn local_path(repo: &Path, value: &str, dir: &Path) -> String {
    if let Some((name, path)) = value.split_once('=') {
        let named = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if named && path.contains('/') {
            return format!("{name}={}", local_path(repo, path, dir));
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
    let src = repo.join(value);
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
            if repo.join(parent).is_dir() {
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
pub fn glob(pattern: &str, dir: &Path) -> Vec<String> {
    let (folder, name) = match pattern.rsplit_once('/') {
        Some((f, n)) => (Some(f), n),
        None => (None, pattern),
    };
    let base = folder.map_or(dir.to_path_buf(), |f| dir.join(f));
    let mut found: Vec<String> = fs::read_dir(&base)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| matches(name, n))
        .map(|n| folder.map_or(n.clone(), |f| format!("{f}/{n}")))
        .collect();
    found.sort();
    if found.is_empty() {
        vec![pattern.to_string()]
    } else {
        found
    }
}

/// Whether `name` matches the glob `pattern` (`*` and `?`).
pub fn matches(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], s: &[char]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some('*') => (0..=s.len()).any(|k| go(&p[1..], &s[k..])),
            Some('?') => !s.is_empty() && go(&p[1..], &s[1..]),
            Some(c) => s.first() == Some(c) && go(&p[1..], &s[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = name.chars().collect();
    go(&p, &s)
}

/// A started command: its process and the files its stdout and stderr go
/// to (the log's, or the page's own).
pub struct Started {
    pub child: Child,
    /// `logs/SERIAL.out`.
    pub out: PathBuf,
    pub err: PathBuf,
}

/// Starts `c` (its arguments, folder and environment set) as `cmd` says, in
/// `dir` (with the files of `repo` it names copied in): its stdin a file of
/// the page, or the output of the text tool piped into it (run first, into
/// `logs/SERIAL.in`), else nothing; its stdout the page's file if
/// `stdout_to_page`, else `logs/SERIAL.out`; its stderr the page's file, else
/// `logs/SERIAL.err`. A failure's message if it cannot start.
pub fn start(
    mut c: Command,
    cmd: &Cmd,
    repo: &Path,
    dir: &Path,
    logs: &Path,
    serial: usize,
    stdout_to_page: bool,
) -> Result<Started, String> {
    let out = logs.join(format!("{serial}.out"));
    let err = logs.join(format!("{serial}.err"));
    let fed = match &cmd.feed {
        Some(words) => {
            let input = logs.join(format!("{serial}.in"));
            let args: Vec<String> = words[1..]
                .iter()
                .map(|a| local_path(repo, a, dir))
                .collect();
            let ok = Command::new(&words[0])
                .args(&args)
                .current_dir(dir)
                .stdin(Stdio::null())
                .stdout(fs::File::create(&input).expect("a feed file"))
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                return Err(format!("{}: `{}` failed", cmd.at(), words.join(" ")));
            }
            Some(input)
        }
        None => cmd.stdin.as_ref().map(|f| dir.join(f)),
    };
    c.stdin(match &fed {
        Some(f) => Stdio::from(
            fs::File::open(f).map_err(|e| format!("{}: stdin {}: {e}", cmd.at(), f.display()))?,
        ),
        None => Stdio::null(),
    });
    let stdout = match &cmd.stdout {
        Some((f, append)) if stdout_to_page => fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(*append)
            .truncate(!*append)
            .open(dir.join(f)),
        _ => fs::File::create(&out),
    };
    c.stdout(stdout.expect("stdout file"));
    let err = match &cmd.stderr {
        Some(f) => dir.join(f),
        None => err,
    };
    c.stderr(fs::File::create(&err).expect("stderr file"));
    let child = c
        .spawn()
        .map_err(|e| format!("{}: cannot start: {e}", cmd.at()))?;
    Ok(Started { child, out, err })
}

/// Waits for `child` to exit within `limit`; its exit code (`None` after a
/// signal), or `Err` after the limit (the child is killed).
pub fn wait_code(child: &mut Child, limit: Duration) -> Result<Option<i32>, String> {
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
pub fn tail(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(12)..].join("\n    ")
}

/// A failure's message: the line, what ran (`program` with `run`), what
/// went wrong, and the ends of its stdout and stderr.
pub fn failure(
    cmd: &Cmd,
    program: &str,
    run: &[String],
    what: &str,
    out: &Path,
    err: &Path,
) -> String {
    format!(
        "{}\n  ran: {program} {}\n  {what}\n  stdout:\n    {}\n  stderr:\n    {}",
        cmd.at(),
        run.join(" "),
        tail(out),
        tail(err)
    )
}

pub fn check_code(code: Option<i32>, want: i32) -> Result<(), String> {
    match code {
        Some(c) if c == want => Ok(()),
        Some(c) => Err(format!("exit code {c}, not {want}")),
        None => Err("ended by a signal".into()),
    }
}

/// Runs `run_page` on every page of `pages`, `threads` at a time; fails the
/// test with every failure at once.
pub fn run_pages(pages: Vec<String>, threads: usize, run_page: fn(&str) -> Vec<String>) {
    let start = Instant::now();
    let queue = Arc::new(Mutex::new(pages));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..threads)
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
