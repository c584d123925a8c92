//! The settings page (`docs/platforms.md`, where the README's reference
//! tables moved) and `.env.example` against the code, so that neither goes
//! stale again: every setting (`config::setting_keys`) with its default in
//! the page's configuration table and as a variable in `.env.example`;
//! every game and its default agent in the `game` and `agent` rows; every
//! profile of `bots/` in the page's profile table with its game, agent,
//! limits and platform; and no row or variable for something that is gone.
//! Also: every agent of every game in the `## Agents` section of its page
//! (`docs/GAME.md`, which the README's games table links), and every
//! relative link of the README and of `docs/` to a file that exists and a
//! heading it has (as GitHub makes anchors). The command lines of the same
//! pages are run by `tests/doc_commands.rs`.

use std::path::Path;

use ladderbot::config::{setting_keys, Settings};
use ladderbot::games::GameKind;
use serde_json::Value;

/// The page that holds the configuration and profile tables.
const PAGE: &str = "docs/platforms.md";

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows (cells, trimmed) of the Markdown table whose header line is
/// `header`, without the header and the separator.
fn table(text: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = text.lines().skip_while(|l| l.trim() != header);
    assert!(lines.next().is_some(), "no table headed `{header}`");
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let l = l.replace("\\|", "\u{0}");
            l.trim_matches('|')
                .split('|')
                .map(|c| c.replace('\u{0}', "|").trim().to_string())
                .collect()
        })
        .collect()
}

/// The `code` spans of a cell.
fn ticks(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The page's configuration table, and the row naming `key`.
fn config_table() -> Vec<Vec<String>> {
    table(&read(PAGE), "| key | default | meaning |")
}

fn row<'a>(rows: &'a [Vec<String>], key: &str) -> &'a [String] {
    rows.iter()
        .find(|r| ticks(&r[0]).contains(&key))
        .unwrap_or_else(|| {
            panic!("docs/platforms.md: no row for `{key}` in the configuration table")
        })
}

fn defaults() -> Value {
    serde_json::to_value(Settings::default()).unwrap()
}

fn default_of(key: &str) -> Value {
    let pointer = format!("/{}", key.replace('.', "/"));
    defaults().pointer(&pointer).cloned().unwrap()
}

fn env_name(key: &str) -> String {
    format!("LADDERBOT_{}", key.to_ascii_uppercase().replace('.', "__"))
}

/// `(name, value)` of every `LADDERBOT_*` assignment in `.env.example`,
/// commented out or not.
fn env_example() -> Vec<(String, String)> {
    read(".env.example")
        .lines()
        .map(|l| l.trim_start_matches('#').trim())
        .filter(|l| l.starts_with("LADDERBOT_"))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn every_setting_is_in_the_configuration_table_with_its_default() {
    let (keys, open) = setting_keys();
    assert!(keys.len() > 40 && open.len() == 3, "{keys:?} {open:?}");
    let rows = config_table();
    for key in &keys {
        let r = row(&rows, key);
        let cell = &r[1];
        let ok = match default_of(key) {
            Value::Null => cell.starts_with("none"),
            Value::String(s) if s.is_empty() => cell.contains("`\"\"`"),
            Value::String(s) => ticks(cell).contains(&s.as_str()),
            v => {
                let want = v.to_string();
                cell.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == want)
            }
        };
        assert!(
            ok,
            "docs/platforms.md: the default of `{key}` is {}, the table says '{cell}'",
            default_of(key)
        );
        assert!(
            !r[2].is_empty(),
            "docs/platforms.md: `{key}` has no meaning"
        );
    }
    for table in &open {
        assert!(
            rows.iter().any(|r| ticks(&r[0])
                .iter()
                .any(|t| t.starts_with(&format!("{table}.")))),
            "docs/platforms.md: no row for the table `{table}.KEY`"
        );
    }
    // And nothing that is no setting.
    for r in &rows {
        for name in ticks(&r[0]) {
            assert!(
                keys.iter().any(|k| k == name)
                    || open.iter().any(|t| name.starts_with(&format!("{t}."))),
                "docs/platforms.md: the configuration table names `{name}`, which is no setting"
            );
        }
    }
}

#[test]
fn every_setting_is_a_variable_of_env_example_with_its_default() {
    let (keys, open) = setting_keys();
    let vars = env_example();
    for key in &keys {
        let name = env_name(key);
        let (_, value) = vars
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!(".env.example: no variable {name} (`{key}`)"));
        let want = match default_of(key) {
            Value::Null => continue,
            Value::String(s) => s,
            v => v.to_string(),
        };
        assert_eq!(*value, want, ".env.example: {name} is not the default");
    }
    for table in &open {
        let prefix = format!("{}__", env_name(table));
        assert!(
            vars.iter().any(|(n, _)| n.starts_with(&prefix)),
            ".env.example: no variable {prefix}*"
        );
    }
    for (name, _) in &vars {
        assert!(
            keys.iter().any(|k| env_name(k) == *name)
                || open
                    .iter()
                    .any(|t| name.starts_with(&format!("{}__", env_name(t)))),
            ".env.example: {name} is no setting"
        );
    }
}

#[test]
fn every_game_and_its_default_agent_are_documented() {
    let rows = config_table();
    let (game, agent, house) = (
        &row(&rows, "game")[2],
        &row(&rows, "agent")[2],
        &row(&rows, "server.house_agent")[2],
    );
    let env = read(".env.example");
    let comment = |var: &str| -> String {
        // The comment lines right above the variable.
        let lines: Vec<&str> = env.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("#{var}=")))
            .unwrap_or_else(|| panic!(".env.example: no {var}"));
        let mut above: Vec<&str> = lines[..at]
            .iter()
            .rev()
            .take_while(|l| l.starts_with("# "))
            .copied()
            .collect();
        above.reverse();
        above.join(" ")
    };
    let (env_game, env_agent, env_house) = (
        comment("LADDERBOT_GAME"),
        comment("LADDERBOT_AGENT"),
        comment("LADDERBOT_SERVER__HOUSE_AGENT"),
    );
    for &g in GameKind::ALL {
        let default = g.check_agent("default", &Default::default()).unwrap();
        assert!(
            ticks(game).contains(&g.to_string().as_str()),
            "docs/platforms.md: `game` does not list `{g}`"
        );
        assert!(
            agent.contains(&format!("{g}: `{default}`")),
            "docs/platforms.md: `agent` does not give {g}'s default `{default}`"
        );
        assert!(
            env_game.contains(&g.to_string()),
            ".env.example: LADDERBOT_GAME misses {g}"
        );
        assert!(
            env_agent.contains(&format!("{g}: {default},"))
                || env_agent.contains(&format!("{g}: {default}.")),
            ".env.example: LADDERBOT_AGENT does not give {g}'s default {default}"
        );
        // The house bot told `default` plays the game's house agent, which
        // may itself be `default`.
        let house_default = g
            .check_agent(&g.house_agent("default"), &Default::default())
            .unwrap();
        if house_default != default {
            assert!(
                house.contains(&format!("{g}: `{house_default}`")),
                "docs/platforms.md: `server.house_agent` does not give {g}'s house agent `{house_default}`"
            );
            assert!(
                env_house.contains(&format!("{g}: {house_default}")),
                ".env.example: LADDERBOT_SERVER__HOUSE_AGENT does not give {g}'s {house_default}"
            );
        }
    }
}

#[test]
fn every_shipped_profile_is_in_the_profile_table_as_its_file_says() {
    let rows = table(
        &read(PAGE),
        "| profile | game | agent | limits | platform |",
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".toml"))
        else {
            continue;
        };
        names.push(name.to_string());
        let file: toml::Table = read(&format!("bots/{name}.toml")).parse().unwrap();
        let get = |table: &str, key: &str| -> Option<toml::Value> {
            file.get(table)?.as_table()?.get(key).cloned()
        };
        let int = |table: &str, key: &str| get(table, key).and_then(|v| v.as_integer());
        let text =
            |table: &str, key: &str| get(table, key).and_then(|v| v.as_str().map(String::from));
        let r = rows
            .iter()
            .find(|r| ticks(&r[0]) == [name])
            .unwrap_or_else(|| panic!("docs/platforms.md: no row for the profile `{name}`"));
        let (game, agent, limits, platform) = (&r[1], &r[2], &r[3], &r[4]);
        let want_game = file["game"].as_str().unwrap();
        assert_eq!(ticks(game), [want_game], "docs/platforms.md: {name}'s game");
        let want_agent = file["agent"].as_str().unwrap();
        assert_eq!(
            ticks(agent).first(),
            Some(&want_agent),
            "docs/platforms.md: {name}'s agent"
        );
        let (playouts, time_ms) = (int("search", "playouts"), int("search", "time_ms"));
        if let Some(n) = playouts {
            assert!(
                limits.contains(&format!("{n} playouts")),
                "docs/platforms.md: {name} plays {n} playouts, the table says '{limits}'"
            );
        }
        if let Some(t) = time_ms {
            assert!(
                limits.contains(&format!("{t} ms")),
                "docs/platforms.md: {name} takes {t} ms, the table says '{limits}'"
            );
        }
        if let Some(m) = int("search", "margin_ms") {
            let default = default_of("search.margin_ms").as_i64();
            assert!(
                limits.contains(&format!("margin {m}"))
                    || (Some(m) == default && !limits.contains("margin")),
                "docs/platforms.md: {name}'s margin is {m}, the table says '{limits}'"
            );
        }
        let ponders = get("search", "ponder").and_then(|v| v.as_bool()) == Some(true);
        assert_eq!(
            ponders,
            limits.contains("pondering"),
            "docs/platforms.md: {name} ponders: {ponders}, the table says '{limits}'"
        );
        let bank = text("search", "time_policy").as_deref() == Some("bank");
        assert_eq!(
            bank,
            limits.contains("bank"),
            "docs/platforms.md: {name}'s time policy"
        );
        if playouts.is_none() && time_ms.is_none() && !bank && !limits.contains("the seed's") {
            assert!(
                limits.starts_with("none"),
                "docs/platforms.md: {name} has no limits"
            );
        }
        let stdio = get("client", "stdio").and_then(|v| v.as_bool()) == Some(true);
        match (stdio, text("client", "server")) {
            (true, _) => assert!(
                platform.contains("stdin/stdout"),
                "docs/platforms.md: {name}"
            ),
            (false, Some(server)) => assert!(
                ticks(platform).contains(&server.as_str()),
                "docs/platforms.md: {name} plays on {server}, the table says '{platform}'"
            ),
            (false, None) => assert!(platform.contains("in-process"), "docs/platforms.md: {name}"),
        }
        let games = int("client", "games").unwrap_or(1);
        assert!(
            games == 1 || platform.contains(&format!("{games} games")),
            "docs/platforms.md: {name} plays {games} games, the table says '{platform}'"
        );
    }
    assert_eq!(names.len(), 32, "bots/ holds 32 profiles: {names:?}");
    for r in &rows {
        assert!(
            ticks(&r[0]).iter().all(|n| names.iter().any(|m| m == n)),
            "docs/platforms.md: the profile table names {}, which is not in bots/",
            r[0]
        );
    }
}

/// The `## Agents` section of a game's page (up to the next `## ` heading).
fn agents_section(page: &str) -> String {
    let text = read(page);
    let start = text
        .find("\n## Agents\n")
        .unwrap_or_else(|| panic!("{page}: no `## Agents` section"));
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    rest[..end].to_string()
}

#[test]
fn every_agent_of_every_game_is_on_its_game_page_and_the_readme_links_it() {
    let readme = read("README.md");
    for &g in GameKind::ALL {
        let page = format!("docs/{g}.md");
        assert!(
            readme.contains(&format!("]({page})")),
            "README.md: the games table does not link {page}"
        );
        let section = agents_section(&page);
        for name in g.agent_names() {
            if *name == ladderbot::games::DEFAULT_AGENT {
                continue;
            }
            assert!(
                section.contains(&format!("`{name}`")),
                "{page}: the agent `{name}` is not in its `## Agents` section"
            );
        }
        let default = g.check_agent("default", &Default::default()).unwrap();
        assert!(
            section.contains(&format!("`{default}` (default)"))
                || text_says_default(&read(&page), &default),
            "{page}: does not say that `{default}` is the default agent"
        );
    }
}

/// Whether the page names `agent` as the default agent in so many words.
fn text_says_default(text: &str, agent: &str) -> bool {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    words.contains(&format!("default agent is `{agent}`"))
}

/// The anchors of a Markdown file's headings, as GitHub makes them:
/// lower case, punctuation dropped, spaces to `-`, `-1`, `-2`... for
/// repeats. Headings inside code blocks do not count.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            code = !code;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if code || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let mut title = line[hashes..].trim().to_string();
        // A link in a heading counts by its text.
        while let (Some(a), Some(b)) = (title.find("]("), title.find(')')) {
            if b < a {
                break;
            }
            title.replace_range(a + 1..=b, "");
        }
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.iter().filter(|s| **s == slug).count();
        out.push(if n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        seen.push(slug);
    }
    out
}

/// The README and every page of docs/.
fn pages() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    pages
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages = pages();
    let mut bad = Vec::new();
    let mut count = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let mut code = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                code = !code;
            }
            if code {
                continue;
            }
            for (i, _) in line.match_indices("](") {
                let rest = &line[i + 2..];
                let Some(end) = rest.find(')') else { continue };
                let target = &rest[..end];
                if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                    continue;
                }
                count += 1;
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(path)
                };
                let name = page.strip_prefix(root).unwrap().display();
                if !file.exists() {
                    bad.push(format!("{name}: ({target}): no such file"));
                } else if !anchor.is_empty()
                    && file.extension().is_some_and(|x| x == "md")
                    && !anchors(&std::fs::read_to_string(&file).unwrap())
                        .iter()
                        .any(|a| a == anchor)
                {
                    bad.push(format!("{name}: ({target}): no such heading"));
                }
            }
        }
    }
    assert!(count > 100, "only {count} links found");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

/// Issue 57: docs/puyo.md named its template files as
/// `src/games/puyo/templates/{stairs,sandwich,domino}.txt`, a pattern no
/// reader can open or copy. Every path of the repository that the README
/// and docs name in code spans exists; a placeholder is written as one
/// (`<game>`, `NAME`, `*`), never as a brace pattern.
#[test]
fn every_path_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages = pages();
    let tops = [
        "src/",
        "docs/",
        "bots/",
        "protocol/",
        "tests/",
        "openings/",
        "scripts/",
        "deploy/",
        "benches/",
        "fuzz/",
        "examples/",
        ".ci/",
    ];
    let (mut bad, mut count) = (Vec::new(), 0);
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(root).unwrap().display().to_string();
        for span in text.split('`').skip(1).step_by(2) {
            if !tops.iter().any(|t| span.starts_with(t)) || span.contains(' ') {
                continue;
            }
            let path = span.split_once(':').map_or(span, |(p, _)| p);
            if path.contains('{') {
                bad.push(format!("{name}: `{span}`: a brace pattern; name each file"));
                continue;
            }
            let placeholder = path.contains('*')
                || path.contains('<')
                || path
                    .split(['/', '.', '-'])
                    .any(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase()));
            if placeholder {
                continue;
            }
            count += 1;
            if !root.join(path).exists() {
                bad.push(format!("{name}: `{span}`: no such file"));
            }
        }
    }
    assert!(count > 50, "only {count} paths found");
    assert!(bad.is_empty(), "paths the docs name:\n{}", bad.join("\n"));
}

/// The output of `ladderbot ARGS... --help`.
fn help(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladderbot"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ladderbot {} --help failed",
        args.join(" ")
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a `--help` lists under `Commands:`, `help` left out.
fn help_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// The long flags (`--xyz`) a `--help` lists: the first long flag of every
/// option line (indented less than a description), `--help` and
/// `--version` left out.
fn help_flags(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for line in help.lines() {
        let body = line.trim_start();
        if !body.starts_with('-') || line.len() - body.len() > 6 {
            continue;
        }
        let Some(at) = body.find("--") else { continue };
        let flag: String = body[at..]
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_alphanumeric())
            .collect();
        if flag != "--help" && flag != "--version" && !flags.contains(&flag) {
            flags.push(flag);
        }
    }
    flags
}

/// Whether `text` names `flag` as a whole word (`--games` is not named by
/// `--games-per-pair`).
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| {
        !text[i + flag.len()..].starts_with(|c: char| c == '-' || c.is_ascii_alphanumeric())
    })
}

/// Every long flag of `text`, as [`help_flags`] spells them.
fn named_flags(text: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for (i, _) in text.match_indices("--") {
        if text[..i].ends_with(|c: char| c == '-' || c.is_ascii_alphanumeric()) {
            continue;
        }
        let flag: String = text[i..]
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_alphanumeric())
            .collect();
        if flag.len() > 2 && !flags.contains(&flag) {
            flags.push(flag);
        }
    }
    flags
}

/// docs/commands.md's table rows of a command (`path`: `["play"]`,
/// `["referee", "golad"]`): the rows whose first cell's command line
/// starts `ladderbot PATH...` (a cell may name alternatives,
/// `ladderbot serve|serve-gat`), as (command line, whole row).
fn command_rows(path: &[&str]) -> Vec<(String, String)> {
    let text = read("docs/commands.md");
    table(&text, "| command | what it does |")
        .into_iter()
        .filter_map(|r| {
            let line = ticks(&r[0]).first()?.to_string();
            let words: Vec<&str> = line.split_whitespace().collect();
            let ok = words.first() == Some(&"ladderbot")
                && path.iter().enumerate().all(|(i, p)| {
                    words
                        .get(i + 1)
                        .is_some_and(|w| w.split('|').any(|w| w == *p))
                });
            ok.then(|| (line, r.join(" | ")))
        })
        .collect()
}

/// Issue 83: `play --bank-plan`, `merge --prior`, `tune --game-option` and
/// others were in `--help` but not in docs/commands.md. Every subcommand of
/// `ladderbot --help` (and every subcommand of those that have some) has a
/// row in docs/commands.md's table, and every long flag of its `--help` is
/// named in its rows; the global flags are named above the table; and a
/// row's command line names no flag its command does not have.
#[test]
fn every_flag_of_every_command_is_in_commands_md() {
    let top = help(&[]);
    let globals = help_flags(&top);
    assert!(
        globals.contains(&"--profile".to_string()),
        "ladderbot --help: {globals:?}"
    );
    let text = read("docs/commands.md");
    let intro = &text[..text.find("| command |").unwrap()];
    let mut missing = Vec::new();
    for g in &globals {
        if !names_flag(intro, g) {
            missing.push(format!("(global) {g}"));
        }
    }
    let mut paths: Vec<Vec<String>> = Vec::new();
    for sub in help_commands(&top) {
        let subs = help_commands(&help(&[&sub]));
        if subs.is_empty() {
            paths.push(vec![sub]);
            continue;
        }
        for s in subs {
            paths.push(vec![sub.clone(), s]);
        }
    }
    assert!(paths.len() > 12, "only {} commands: {paths:?}", paths.len());
    let mut stale = Vec::new();
    for path in &paths {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        let name = path.join(" ");
        let rows = command_rows(&path);
        if rows.is_empty() {
            missing.push(format!("{name}: no row"));
            continue;
        }
        let flags = help_flags(&help(&path));
        let all = rows
            .iter()
            .map(|r| r.1.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        for f in flags.iter().filter(|f| !globals.contains(f)) {
            if !names_flag(&all, f) {
                missing.push(format!("{name} {f}"));
            }
        }
        for (line, _) in &rows {
            for f in named_flags(line) {
                if !flags.contains(&f) {
                    stale.push(format!("{name}: `{line}` names {f}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/commands.md misses these flags of --help:\n{}",
        missing.join("\n")
    );
    assert!(
        stale.is_empty(),
        "docs/commands.md names flags the commands do not have:\n{}",
        stale.join("\n")
    );
}
