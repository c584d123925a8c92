//! The report page's tests: records of every game played in-process.

use std::sync::OnceLock;

use serde_json::Value;

use super::*;
use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::records::read_records;
use crate::runner::test_support::{config, quiet};
use crate::runner::{run_match, SideConfig};

/// Two random-vs-random games of every game, played once for all tests.
fn every_game_records() -> &'static [GameRecord] {
    static RECORDS: OnceLock<Vec<GameRecord>> = OnceLock::new();
    RECORDS.get_or_init(|| {
        struct Play<'a>(&'a std::path::Path);
        impl GameVisitor for Play<'_> {
            type Output = ();
            fn visit<G: PlayableGame>(self) {
                let mut c = config(
                    SideConfig::new("random"),
                    SideConfig::new("random"),
                    2,
                    1,
                    11,
                );
                c.out = Some(self.0.to_path_buf());
                run_match::<G>(&c, &quiet).unwrap();
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let mut out = Vec::new();
        for kind in GameKind::ALL {
            let path = dir.path().join(format!("{kind}.jsonl"));
            kind.visit(Play(&path));
            out.extend(read_records(&path).unwrap());
        }
        out
    })
}

fn entries(records: &[GameRecord]) -> Vec<Entry> {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| Entry::Game {
            source: Source {
                file: "t.jsonl".into(),
                line: i + 1,
            },
            record: Box::new(r.clone()),
        })
        .collect()
}

fn options() -> PageOptions {
    PageOptions {
        title: "test".into(),
        limit_ms: Some(100),
        summary: None,
    }
}

/// The page's embedded data, parsed back.
pub(crate) fn page_data(html: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = html.find(open).expect("no data script") + open.len();
    let len = html[start..].find("</script>").expect("data not closed");
    serde_json::from_str(&html[start..start + len]).expect("data is JSON")
}

#[test]
fn every_game_replays_into_the_page_with_one_state_per_turn_and_one_more() {
    let records = every_game_records();
    assert_eq!(records.len(), 2 * GameKind::ALL.len());
    let page = build_page(&entries(records), &options());
    assert_eq!((page.games, page.bad_lines, page.not_replayed), (12, 0, 0));
    let data = page_data(&page.html);
    assert_eq!(data["limit_ms"], 100);
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), records.len());
    for (g, r) in games.iter().zip(records) {
        assert_eq!(g["game"], r.game.as_str());
        assert!(g["error"].is_null(), "{}: {}", r.game, g["error"]);
        assert_eq!(g["over"], true, "{}", r.game);
        let turns = g["turns"].as_array().unwrap();
        let states = g["states"].as_array().unwrap();
        assert_eq!(states.len(), turns.len() + 1, "{}", r.game);
        let moves: usize = turns
            .iter()
            .map(|t| t["moves"].as_array().unwrap().len())
            .sum();
        assert_eq!(moves, r.moves.len(), "{}", r.game);
        assert_eq!(states[0], r.start, "{}", r.game);
        // The last state is the replayed game's true state.
        let kind: GameKind = r.game.parse().unwrap();
        struct Last<'a>(&'a GameRecord);
        impl GameVisitor for Last<'_> {
            type Output = Value;
            fn visit<G: PlayableGame>(self) -> Value {
                crate::games::replay::<G>(&self.0.start, &self.0.moves)
                    .unwrap()
                    .state_to_json()
            }
        }
        assert_eq!(states.last().unwrap(), &kind.visit(Last(r)));
    }
    // A simultaneous game's turn holds both seats' moves.
    let goof = games.iter().find(|g| g["game"] == "goofspiel").unwrap();
    assert_eq!(goof["turns"][0]["movers"], serde_json::json!([0, 1]));
}

#[test]
fn the_page_is_self_contained_with_an_anchor_per_game_and_each_games_view() {
    let records = every_game_records();
    let page = build_page(&entries(records), &options());
    let html = &page.html;
    for bad in ["http://", "https://", "<link", "src=\"", "@import", "url("] {
        assert!(!html.contains(bad), "the page refers to {bad}");
    }
    for n in 1..=records.len() {
        assert!(html.contains(&format!("id=\"game-{n}\"")), "no #game-{n}");
        assert!(
            html.contains(&format!("href=\"#game-{n}\"")),
            "no link to #game-{n}"
        );
    }
    assert!(!html.contains(&format!("id=\"game-{}\"", records.len() + 1)));
    for kind in GameKind::ALL {
        let js = view_js(kind.id()).unwrap();
        assert!(html.contains(js.trim()), "{kind}'s view is not in the page");
        assert!(
            js.contains(&format!("LB.views[\"{}\"] = function", kind.id())),
            "{kind}'s view does not register itself"
        );
        assert!(html.contains(&format!("<script data-view=\"{kind}\">")));
    }
    assert!(html.contains(PAGE_JS.trim()) && html.contains(PAGE_CSS.trim()));
    assert!(html.starts_with("<!DOCTYPE html>"));
    // The page's own code never ends its script element early.
    for js in GameKind::ALL
        .iter()
        .filter_map(|k| view_js(k.id()))
        .chain([PAGE_JS])
    {
        assert!(!js.contains("</script") && !js.contains("<!--"));
    }
}

#[test]
fn a_torn_line_and_records_that_do_not_replay_are_shown_not_panicked() {
    let good = every_game_records()[0].clone();
    let mut illegal = good.clone();
    illegal.moves.push(serde_json::json!(99));
    let mut unknown = good.clone();
    unknown.game = "chess".into();
    let mut no_start = good.clone();
    no_start.start = Value::Null;
    let mut text = String::new();
    for r in [&good, &illegal, &unknown, &no_start] {
        text.push_str(&serde_json::to_string(r).unwrap());
        text.push('\n');
    }
    // A torn last line, after a blank one: skipped by the reader, listed.
    text.push('\n');
    text.push_str("{\"game\": \"four3d\", \"id\": \"g");
    let path = std::path::PathBuf::from("x.jsonl");
    let read =
        crate::records::parse_json_lines::<GameRecord>(&path, text.as_bytes(), "game record")
            .unwrap();
    let entries = entries_of(crate::records::RecordFiles {
        records: read
            .values
            .into_iter()
            .map(|(line, record)| crate::records::ReadRecord {
                file: path.clone(),
                line,
                record,
            })
            .collect(),
        torn: read.torn.map(|t| (path.clone(), t)).into_iter().collect(),
    });
    assert_eq!(entries.len(), 5);
    let page = build_page(&entries, &options());
    assert_eq!((page.games, page.bad_lines, page.not_replayed), (4, 1, 3));
    assert!(
        page.html.contains("x.jsonl:6"),
        "the torn line is named, after a blank one"
    );
    let data = page_data(&page.html);
    let g = &data["games"];
    assert!(g[0]["error"].is_null());
    // The illegal move: every turn before it replayed, then its error.
    let err = g[1]["error"].as_str().unwrap();
    assert!(err.contains(&format!("move {}", good.moves.len())), "{err}");
    assert_eq!(g[1]["states"], g[0]["states"]);
    assert!(g[2]["error"].as_str().unwrap().contains("chess"));
    assert!(g[3]["error"].as_str().unwrap().starts_with("start:"));
    assert_eq!(g[3]["states"], serde_json::json!([]));
    assert!(page.html.contains("Does not replay"));
}

#[test]
fn the_analysis_summary_is_shown_escaped_under_the_results() {
    let mut opts = options();
    let page = build_page(&entries(&every_game_records()[..1]), &opts);
    assert!(!page.html.contains("analysis-summary"));
    opts.summary = Some("four3d: 1 games analysed; <b> opening 1;\ndrops".into());
    let page = build_page(&entries(&every_game_records()[..1]), &opts);
    assert!(page
        .html
        .contains("<pre class=\"analysis-summary\">four3d: 1 games analysed; &lt;b&gt; opening 1;\ndrops</pre>"));
}

#[test]
fn names_cannot_break_out_of_the_page() {
    let mut r = every_game_records()[0].clone();
    r.players = ["</script><!-- a".into(), "<b>&\"{{DATA}}".into()];
    let page = build_page(&entries(&[r.clone()]), &options());
    assert!(!page.html.contains("</script><!--"));
    // The page's markup holds the names escaped (the data holds them as JSON).
    let markup = &page.html[..page.html.find("id=\"data\"").unwrap()];
    assert!(!markup.contains("<b>&"));
    assert!(markup.contains("&lt;b&gt;&amp;&quot;{{DATA}}"));
    let data = page_data(&page.html);
    assert_eq!(data["games"][0]["players"][0], r.players[0].as_str());
    assert_eq!(data["games"][0]["players"][1], r.players[1].as_str());
}

#[test]
fn the_template_is_filled_in_one_pass() {
    assert_eq!(
        fill("a {{X}} b {{Y}} {{Z}} {{", &[("X", "{{Y}}"), ("Y", "2")]),
        "a {{Y}} b 2 {{Z}} {{"
    );
}

#[test]
fn an_empty_input_gives_a_page() {
    let page = build_page(&[], &options());
    assert_eq!(page.games, 0);
    assert_eq!(page_data(&page.html)["games"], serde_json::json!([]));
}

#[test]
fn results_show_the_crosstable_elo_with_its_interval_endings_and_times() {
    // Four games of x against y, seats alternating: x wins three, one draw.
    let base = every_game_records()
        .iter()
        .find(|r| r.game == "geister")
        .unwrap();
    let mut rs = Vec::new();
    for (k, winner_is_x) in [Some(true), Some(true), None, Some(true)]
        .iter()
        .enumerate()
    {
        let mut r = base.clone();
        r.players = if k % 2 == 0 {
            ["x".into(), "y".into()]
        } else {
            ["y".into(), "x".into()]
        };
        let x_seat = k % 2;
        r.winner = winner_is_x.map(|_| x_seat);
        r.result = GameRecord::result_string(r.winner).into();
        r.ending = Some(if k == 2 { "draw" } else { "escape" }.into());
        rs.push(r);
    }
    let page = build_page(&entries(&rs), &options());
    let html = &page.html;
    let results = &html[html.find("id=\"results\"").unwrap()..html.find("id=\"games\"").unwrap()];
    assert!(results.contains("class=\"crosstable\""));
    assert!(
        results.contains("3-1-0<br><b>3.5</b>/4"),
        "x's row against y"
    );
    assert!(
        results.contains("0-1-3<br><b>0.5</b>/4"),
        "y's row against x"
    );
    assert!(results.contains("x vs y"));
    assert!(results.contains("+3 =1 −0"));
    // One start, seats swapped: two pairs, x scoring 2 and 1½ of them.
    assert!(
        results.contains("2 pairs: 0:0 ½:0 1:0 1½:1 2:1"),
        "{results}"
    );
    let e = results::Wdl {
        wins: 3,
        draws: 1,
        losses: 0,
    }
    .elo_with([0, 0, 0, 1, 1]);
    assert!(e.lo < e.elo && e.elo <= e.hi);
    assert!(results.contains(&format!(
        "[{}, {}]",
        results::fmt_elo(e.lo),
        results::fmt_elo(e.hi)
    )));
    assert!(results.contains("class=\"elo-bar\""));
    // Endings counted: three escapes and one draw, all by the rules.
    assert!(results.contains("<td>escape</td><td>3</td>"), "{results}");
    assert!(results.contains("<td>draw</td><td>1</td>"));
    assert!(results.contains("<td>rules</td><td>4</td>"));
    // Time per move with the limit.
    assert!(results.contains("class=\"times\"") && results.contains("over 100 ms"));
    assert!(results.contains("class=\"time-plot\"") && results.contains("class=\"limit\""));
}

#[test]
fn results_group_the_games_by_game() {
    let page = build_page(&entries(every_game_records()), &options());
    for kind in GameKind::ALL {
        assert!(
            page.html.contains(&format!(
                "<div class=\"result-group\" data-game=\"{kind}\">"
            )),
            "{kind}"
        );
    }
}
