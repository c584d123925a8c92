//! The README and `.env.example` against the code, so that neither goes
//! stale again: every setting (`config::setting_keys`) with its default in
//! the README's configuration table and as a variable in `.env.example`;
//! every game and its default agent in the `game` and `agent` rows; every
//! profile of `bots/` in the README's profile table with its game, agent,
//! limits and platform; and no row or variable for something that is gone.

use std::path::Path;

use ladderbot::config::{setting_keys, Settings};
use ladderbot::games::GameKind;
use serde_json::Value;

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

/// The README's configuration table, and the row naming `key`.
fn config_table() -> Vec<Vec<String>> {
    table(&read("README.md"), "| key | default | meaning |")
}

fn row<'a>(rows: &'a [Vec<String>], key: &str) -> &'a [String] {
    rows.iter()
        .find(|r| ticks(&r[0]).contains(&key))
        .unwrap_or_else(|| panic!("README: no row for `{key}` in the configuration table"))
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
fn every_setting_is_in_the_readme_table_with_its_default() {
    let (keys, open) = setting_keys();
    assert!(keys.len() > 40 && open.len() == 2, "{keys:?} {open:?}");
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
            "README: the default of `{key}` is {}, the table says '{cell}'",
            default_of(key)
        );
        assert!(!r[2].is_empty(), "README: `{key}` has no meaning");
    }
    for table in &open {
        assert!(
            rows.iter().any(|r| ticks(&r[0])
                .iter()
                .any(|t| t.starts_with(&format!("{table}.")))),
            "README: no row for the table `{table}.KEY`"
        );
    }
    // And nothing that is no setting.
    for r in &rows {
        for name in ticks(&r[0]) {
            assert!(
                keys.iter().any(|k| k == name)
                    || open.iter().any(|t| name.starts_with(&format!("{t}."))),
                "README: the configuration table names `{name}`, which is no setting"
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
            "README: `game` does not list `{g}`"
        );
        assert!(
            agent.contains(&format!("{g}: `{default}`")),
            "README: `agent` does not give {g}'s default `{default}`"
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
                "README: `server.house_agent` does not give {g}'s house agent `{house_default}`"
            );
            assert!(
                env_house.contains(&format!("{g}: {house_default}")),
                ".env.example: LADDERBOT_SERVER__HOUSE_AGENT does not give {g}'s {house_default}"
            );
        }
    }
}

#[test]
fn every_shipped_profile_is_in_the_readme_table_as_its_file_says() {
    let rows = table(
        &read("README.md"),
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
            .unwrap_or_else(|| panic!("README: no row for the profile `{name}`"));
        let (game, agent, limits, platform) = (&r[1], &r[2], &r[3], &r[4]);
        let want_game = file["game"].as_str().unwrap();
        assert_eq!(ticks(game), [want_game], "README: {name}'s game");
        let want_agent = file["agent"].as_str().unwrap();
        assert_eq!(
            ticks(agent).first(),
            Some(&want_agent),
            "README: {name}'s agent"
        );
        let (playouts, time_ms) = (int("search", "playouts"), int("search", "time_ms"));
        if let Some(n) = playouts {
            assert!(
                limits.contains(&format!("{n} playouts")),
                "README: {name} plays {n} playouts, the table says '{limits}'"
            );
        }
        if let Some(t) = time_ms {
            assert!(
                limits.contains(&format!("{t} ms")),
                "README: {name} takes {t} ms, the table says '{limits}'"
            );
        }
        if let Some(m) = int("search", "margin_ms") {
            let default = default_of("search.margin_ms").as_i64();
            assert!(
                limits.contains(&format!("margin {m}"))
                    || (Some(m) == default && !limits.contains("margin")),
                "README: {name}'s margin is {m}, the table says '{limits}'"
            );
        }
        let bank = text("search", "time_policy").as_deref() == Some("bank");
        assert_eq!(
            bank,
            limits.contains("bank"),
            "README: {name}'s time policy"
        );
        if playouts.is_none() && time_ms.is_none() && !bank && !limits.contains("the seed's") {
            assert!(limits.starts_with("none"), "README: {name} has no limits");
        }
        let stdio = get("client", "stdio").and_then(|v| v.as_bool()) == Some(true);
        match (stdio, text("client", "server")) {
            (true, _) => assert!(platform.contains("stdin/stdout"), "README: {name}"),
            (false, Some(server)) => assert!(
                ticks(platform).contains(&server.as_str()),
                "README: {name} plays on {server}, the table says '{platform}'"
            ),
            (false, None) => assert!(platform.contains("in-process"), "README: {name}"),
        }
        let games = int("client", "games").unwrap_or(1);
        assert!(
            games == 1 || platform.contains(&format!("{games} games")),
            "README: {name} plays {games} games, the table says '{platform}'"
        );
    }
    assert_eq!(names.len(), 30, "bots/ holds 30 profiles: {names:?}");
    for r in &rows {
        assert!(
            ticks(&r[0]).iter().all(|n| names.iter().any(|m| m == n)),
            "README: the profile table names {}, which is not in bots/",
            r[0]
        );
    }
}
