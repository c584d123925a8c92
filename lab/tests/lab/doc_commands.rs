//! The `ladderbot-lab` command lines of the README and of `docs/*.md`
//! against the real lab, so that no example goes stale. The engine's lines
//! are tests/doc_commands.rs's, which reads the pages by the same rules
//! (copied from it here) and leaves the lab's lines to this test.
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

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines that are not run, each with its reason: (page, a piece of the
/// line's text, why). They are still parsed (the lab's). An entry that
/// matches no line fails the test (it is stale).
const SKIP: &[(&str, &str, &str)] = &[(
    "docs/geister-results.md",
    "--train tr_rule_nao.jsonl",
    "records of games against Naotti-2020, which nothing here builds",
)];

/// Programs whose output a documented line may pipe into the lab (`sed
/// ... FILE | ladderbot-lab ...`): they only read files. Any other pipe
/// into or out of the lab is a line the test cannot run.
const FEEDERS: &[&str] = &["sed", "cat", "head", "grep"];

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

/// The program a documented command runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Program {
    /// `ladderbot-lab`: the lines this test is for.
    Lab,
    /// `ladderbot`: run only to make what a lab line reads.
    Engine,
}

/// One command of a page, of the lab or of the engine.
#[derive(Clone, Debug)]
struct Cmd {
    program: Program,
    file: String,
    line: usize,
    /// The logical line it comes from, as written.
    text: String,
    /// `NAME=value` before the command.
    env: Vec<(String, String)>,
    /// The arguments after the program.
    args: Vec<String>,
    stdin: Option<String>,
    /// A text tool whose output is piped in (`sed ... FILE | ladderbot-lab ...`).
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
    /// A line the test cannot read although it runs the lab.
    Unreadable(String),
}

/// The program and the arguments of a lab or engine invocation, or `None`
/// for another program.
fn program_args(words: &[String]) -> Option<(Program, Vec<String>)> {
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
                if text.contains("ladderbot-lab") {
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
            let Some((program, args)) = program_args(rest) else {
                continue;
            };
            if this_piped && program == Program::Engine {
                // The engine's own test reads it; none of it is made here.
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

fn skip_reason(cmd: &Cmd) -> Option<&'static str> {
    SKIP.iter()
        .find(|(file, piece, _)| *file == cmd.file && cmd.text.contains(piece))
        .map(|(_, _, why)| *why)
}

/// Parses `args` with the real lab (`LADDERBOT_LAB_PARSE_ONLY=1`: the
/// command line read, nothing run); `Err` with the first line of clap's
/// message.
fn parse(args: &[String]) -> Result<(), String> {
    let o = crate::common::bin()
        .args(args.iter().map(|a| plain(a)))
        .env("LADDERBOT_LAB_PARSE_ONLY", "1")
        .stdin(Stdio::null())
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
    for block in blocks(page) {
        for step in steps(&block, dir) {
            match step {
                Step::Run(cmd) => cmds.push(cmd),
                Step::Unreadable(p) => unreadable.push(p),
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
    for page in pages() {
        let (cmds, unreadable) = commands_of_page(&page, Path::new("/nonexistent"));
        problems.extend(unreadable);
        for cmd in cmds {
            for (k, (file, piece, _)) in SKIP.iter().enumerate() {
                if *file == cmd.file && cmd.text.contains(piece) {
                    used[k] += 1;
                }
            }
            if cmd.program != Program::Lab {
                continue;
            }
            count += 1;
            if std::env::var_os("DOC_COMMANDS_LIST").is_some() {
                let skip = skip_reason(&cmd).map_or(String::new(), |r| format!(" [skip: {r}]"));
                eprintln!("{}:{}: {}{skip}", cmd.file, cmd.line, cmd.args.join(" "));
            }
            if let Err(e) = parse(&cmd.args) {
                problems.push(format!("{}: {e}", cmd.at()));
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
    // The pages may show no lab line yet; where a code block names the lab,
    // its lines must have been found.
    let named = pages().iter().any(|page| {
        blocks(page)
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
        // `golad candidates`: one position in 64 (a wide scoring is
        // about 45 ms).
        "--every" => n.filter(|&n| n < 64).map(|_| "64".into()),
        "--bind" => Some("127.0.0.1:0".into()),
        "--ports" => Some("0,0".into()),
        "--host" => Some("127.0.0.1".into()),
        _ => None,
    }
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

/// Whether `name` matches the glob `pattern` (`*` and `?`).
fn matches(pattern: &str, name: &str) -> bool {
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

/// Which commands of a page run (none in [`SKIP`]): every lab line; every
/// engine line that reads what the lab made (it names a file an earlier lab
/// line, or such an engine line, names: tests/doc_commands.rs leaves these
/// to this test); then every engine line that makes what those read (it
/// names a file a later line that runs names).
fn running(cmds: &[Cmd]) -> Vec<bool> {
    let names: Vec<Vec<String>> = cmds.iter().map(names).collect();
    let skipped: Vec<bool> = cmds.iter().map(|c| skip_reason(c).is_some()).collect();
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

/// Environment variables.
type Env = Vec<(String, String)>;

/// The command line and environment a documented command runs with: tiny
/// budgets, paths in `dir`.
fn rewrite(cmd: &Cmd, dir: &Path) -> (Vec<String>, Env) {
    let cmd_args = &cmd.args;
    let sub = match cmd.program {
        Program::Lab => task(cmd_args),
        Program::Engine => subcommand(cmd_args),
    };
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
                args.push(local_path(a, dir));
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
        let new = if sub == "tune" && name == "--games" {
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
            local_path(&value, dir)
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
    // The environment: small budgets for the engine, then the line's own
    // assignments, made small as well.
    let mut env: Env = match cmd.program {
        Program::Lab => Vec::new(),
        Program::Engine => vec![
            ("LADDERBOT_SEARCH__PLAYOUTS".into(), "50".into()),
            ("LADDERBOT_SEARCH__TIME_MS".into(), "10".into()),
            ("LADDERBOT_SERVER__HOUSE_PLAYOUTS".into(), "50".into()),
        ],
    };
    for (k, v) in &cmd.env {
        let v = if k.ends_with("PLAYOUTS") {
            small("--playouts", v, &sub, None).unwrap_or(v.clone())
        } else if k.ends_with("TIME_MS") {
            small("--time-ms", v, &sub, None).unwrap_or(v.clone())
        } else {
            v.clone()
        };
        env.retain(|(e, _)| e != k);
        env.push((k.clone(), v));
    }
    (args, env)
}

/// This test's binary started as the engine with `args`
/// ([`engine_for_doc_lines`]), in a clean environment.
fn engine_command(args: &[String]) -> Command {
    let mut c = Command::new(std::env::current_exe().expect("this test's binary"));
    for (k, _) in std::env::vars() {
        if k.starts_with("LADDERBOT_") || k == "RUST_LOG" {
            c.env_remove(k);
        }
    }
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
    let program = match cmd.program {
        Program::Lab => "ladderbot-lab",
        Program::Engine => "ladderbot (for a lab line after it)",
    };
    format!(
        "{}\n  ran: {program} {}\n  {what}\n  stdout:\n    {}\n  stderr:\n    {}",
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

/// Runs one command in `dir` (its logs in `logs`, numbered `serial`); a
/// failure's message.
fn run_one(cmd: &Cmd, dir: &Path, logs: &Path, serial: usize) -> Result<(), String> {
    let out = logs.join(format!("{serial}.out"));
    let err = logs.join(format!("{serial}.err"));
    let (args, env) = rewrite(cmd, dir);
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
    let fed = match &cmd.feed {
        Some(words) => {
            let input = logs.join(format!("{serial}.in"));
            let args: Vec<String> = words[1..].iter().map(|a| local_path(a, dir)).collect();
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
    // The engine's stdout starts with the test harness's header: it goes to
    // the log, and to the page's file without the header after the run.
    let stdout = match (&cmd.stdout, cmd.program) {
        (Some((f, append)), Program::Lab) => fs::OpenOptions::new()
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
    let mut child = c
        .spawn()
        .map_err(|e| format!("{}: cannot start: {e}", cmd.at()))?;
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
    code.and_then(|code| check_code(code, cmd.expect))
        .map_err(|e| failure(cmd, &args, &e, &out, &err))
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
    let start = Instant::now();
    // The pages with a lab line.
    let queue = Arc::new(Mutex::new(
        pages()
            .into_iter()
            .filter(|page| {
                let (cmds, unreadable) = commands_of_page(page, Path::new("/nonexistent"));
                !unreadable.is_empty() || cmds.iter().any(|c| c.program == Program::Lab)
            })
            .collect::<Vec<_>>(),
    ));
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
