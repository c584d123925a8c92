//! `ladderbot report`: one self-contained HTML page for records files
//! (no network at view time: every script and style is inline).
//!
//! - Replaying is done here, in Rust ([`replay`]): each record is replayed
//!   from its `start` with its game's rules and the true state after every
//!   turn (`state_to_json`) is embedded in the page as JSON
//!   (`<script type="application/json" id="data">`).
//! - Each game draws its states with its own unit, `games/<game>/view.js`
//!   ([`PlayableGame::view_js`]), which registers
//!   `LB.views["<game id>"] = function (state, el, ctx) {...}`.
//! - The results ([`results`]: crosstable, Elo with its interval, endings,
//!   time per move) are rendered here as HTML and inline SVG.
//! - This module knows no particular game: the page's frame (`page.html`,
//!   `page.css`) and the generic replay and controls (`page.js`, with a
//!   fallback view that prints the state's JSON).

pub mod live;
pub mod replay;
pub mod results;

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::records::GameRecord;
pub use replay::{replay_record, Replayed, TurnData};

const PAGE_HTML: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_JS: &str = include_str!("page.js");

/// Where a line of input came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub file: String,
    /// From 1.
    pub line: usize,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One non-empty line of a records file: a record, or (a torn last line)
/// why it is none.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Game {
        source: Source,
        record: Box<GameRecord>,
    },
    Bad {
        source: Source,
        error: String,
    },
}

/// The entries of records read by the one reader
/// ([`crate::records::read_record_files`]): each record, and each torn last
/// line it skipped (listed in the page as a line that is no record).
pub fn entries_of(read: crate::records::RecordFiles) -> Vec<Entry> {
    let mut out: Vec<Entry> = read
        .records
        .into_iter()
        .map(|r| Entry::Game {
            source: Source {
                file: r.file.display().to_string(),
                line: r.line,
            },
            record: Box::new(r.record),
        })
        .collect();
    out.extend(read.torn.into_iter().map(|(file, t)| Entry::Bad {
        source: Source {
            file: file.display().to_string(),
            line: t.line,
        },
        error: format!("the last line is torn (skipped): {}", t.error),
    }));
    out
}

/// What the page shows besides the records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageOptions {
    pub title: String,
    /// The per-move limit, drawn on the time plots.
    pub limit_ms: Option<u64>,
    /// `analyze`'s summary of the games (decisive moves by phase and by
    /// player, the drops), as it prints it: shown under the results.
    pub summary: Option<String>,
}

/// The page, and what went into it.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub html: String,
    pub games: usize,
    /// Lines that are no record.
    pub bad_lines: usize,
    /// Records that did not replay to their end (shown with their error).
    pub not_replayed: usize,
}

/// HTML-escapes text for element content and quoted attributes.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// JSON for inside a `<script>` element: `</` and `<!--` cannot end or
/// upset it.
pub fn script_json(v: &Value) -> String {
    v.to_string()
        .replace("</", "<\\/")
        .replace("<!--", "<\\u0021--")
}

/// The drawing unit of the game named `game`, if it is a known game.
pub fn view_js(game: &str) -> Option<&'static str> {
    struct View;
    impl GameVisitor for View {
        type Output = &'static str;
        fn visit<G: PlayableGame>(self) -> &'static str {
            G::view_js()
        }
    }
    game.parse::<GameKind>().ok().map(|k| k.visit(View))
}

/// Replaces each `{{KEY}}` of `template` once, in one pass (a value that
/// holds `{{...}}` is never read again).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find("}}").map(|end| (&after[..end], end)) {
            Some((key, end)) if values.iter().any(|(k, _)| *k == key) => {
                let v = values.iter().find(|(k, _)| *k == key).map(|v| v.1);
                out.push_str(v.unwrap_or_default());
                rest = &after[end + 2..];
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The JSON of one game for the page.
fn game_json(index: usize, source: &Source, r: &GameRecord, rep: &Replayed) -> Value {
    let turns: Vec<Value> = rep
        .turns
        .iter()
        .map(|t| json!({"movers": t.movers, "first": t.first, "moves": t.moves, "ms": t.ms}))
        .collect();
    json!({
        "index": index,
        "source": source.to_string(),
        "game": r.game,
        "id": r.id,
        "players": r.players,
        "winner": r.winner,
        "result": r.result,
        "reason": r.reason.key(),
        "ending": r.ending,
        "detail": r.detail,
        "opening": r.opening.as_ref().map_or(0, |o| o.moves.len()),
        "moves": r.moves.len(),
        "states": rep.states,
        "turns": turns,
        "over": rep.over,
        "error": rep.error,
        "analysis": r.analysis,
    })
}

/// One game's place in the page: its anchor `game-N`, its heading; the
/// replay is mounted in it by the page's script.
fn game_section(index: usize, source: &Source, r: &GameRecord, rep: &Replayed) -> String {
    let n = index + 1;
    let mut how = vec![r.reason.key().to_string()];
    if let Some(e) = r.ending.as_ref().filter(|e| e.as_str() != r.reason.key()) {
        how.push(e.clone());
    }
    let mut s = format!(
        "<section class=\"game\" id=\"game-{n}\" data-index=\"{index}\"><h3><a href=\"#game-{n}\">Game {n}</a> \
<span class=\"kind\">{game}</span> <span class=\"seat0\">{p0}</span> vs <span class=\"seat1\">{p1}</span> \
<span class=\"result\">{result}</span> <span class=\"how\">({how})</span> \
<span class=\"plies\">{turns} turns</span> <span class=\"src\">{src}</span></h3>",
        game = esc(&r.game),
        p0 = esc(&r.players[0]),
        p1 = esc(&r.players[1]),
        result = esc(&r.result),
        how = esc(&how.join(", ")),
        turns = rep.turns.len(),
        src = esc(&source.to_string()),
    );
    if let Some(d) = &r.detail {
        let _ = write!(s, "<p class=\"detail\">{}</p>", esc(d));
    }
    if let Some(e) = &rep.error {
        let _ = write!(s, "<p class=\"error\">Does not replay: {}</p>", esc(e));
    }
    s.push_str("<div class=\"replay\"></div></section>\n");
    s
}

/// Builds the page for `entries`.
pub fn build_page(entries: &[Entry], opts: &PageOptions) -> Page {
    let mut games: Vec<(&Source, &GameRecord, Replayed)> = Vec::new();
    let mut bad: Vec<(&Source, &str)> = Vec::new();
    for e in entries {
        match e {
            Entry::Game { source, record } => games.push((source, record, replay_record(record))),
            Entry::Bad { source, error } => bad.push((source, error)),
        }
    }
    let mut data_games = Vec::with_capacity(games.len());
    let mut sections = String::new();
    for (i, (src, r, rep)) in games.iter().enumerate() {
        data_games.push(game_json(i, src, r, rep));
        sections.push_str(&game_section(i, src, r, rep));
    }
    if !bad.is_empty() {
        sections
            .push_str("<section class=\"bad-lines\"><h3>Lines that are no game record</h3><ul>");
        for (src, e) in &bad {
            let _ = write!(
                sections,
                "<li><code>{}</code>: {}</li>",
                esc(&src.to_string()),
                esc(e)
            );
        }
        sections.push_str("</ul></section>");
    }
    // The drawing units of the games present, each in its own script.
    let mut kinds: Vec<&str> = games.iter().map(|(_, r, _)| r.game.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut views = String::new();
    for k in kinds {
        if let Some(js) = view_js(k) {
            let _ = write!(
                views,
                "<script data-view=\"{}\">\n{}\n</script>\n",
                esc(k),
                js.replace("</script", "<\\/script")
            );
        }
    }
    let data = json!({
        "title": opts.title,
        "limit_ms": opts.limit_ms,
        "games": data_games,
    });
    let scored: Vec<(&GameRecord, &Replayed)> = games.iter().map(|(_, r, rep)| (*r, rep)).collect();
    let mut results = results::render(&scored, opts.limit_ms);
    if let Some(summary) = opts.summary.as_ref().filter(|t| !t.trim().is_empty()) {
        let _ = write!(
            results,
            "<h3 id=\"analysis\">Analysis</h3>\n<pre class=\"analysis-summary\">{}</pre>\n",
            esc(summary)
        );
    }
    let not_replayed = games.iter().filter(|g| g.2.error.is_some()).count();
    let subtitle = format!(
        "{} game{}{}{}",
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        if bad.is_empty() {
            String::new()
        } else {
            format!(
                ", {} unreadable line{}",
                bad.len(),
                if bad.len() == 1 { "" } else { "s" }
            )
        },
        if not_replayed == 0 {
            String::new()
        } else {
            format!(", {not_replayed} not replayed")
        }
    );
    let html = fill(
        PAGE_HTML,
        &[
            ("TITLE", &esc(&opts.title)),
            ("SUBTITLE", &esc(&subtitle)),
            ("CSS", PAGE_CSS),
            ("RESULTS", &results),
            ("GAMES", &sections),
            ("DATA", &script_json(&data)),
            ("PAGE_JS", PAGE_JS),
            ("VIEWS", &views),
        ],
    );
    Page {
        html,
        games: games.len(),
        bad_lines: bad.len(),
        not_replayed,
    }
}

#[cfg(test)]
mod tests;
