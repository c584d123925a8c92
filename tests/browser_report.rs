//! The report page in a real headless Chromium (tests/common/browser.rs):
//! records of every game played by the real binary, one page of them all,
//! and for each game, read from the DOM, the board drawn and stepped with the
//! keys, the buttons (real clicks), the slider and the move list, and
//! `#game-N` opening its game; no network use, no console error. Screenshots
//! of each board go to target/browser-artifacts/; with
//! LADDERBOT_DOCS_SCREENSHOTS=1, docs/report.png is written too.
//!
//! Without Chromium the tests are skipped (a line on stderr), except under
//! `CI`, where they fail.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use common::browser::{png_size, Browser, Page};
use common::*;

const LIMIT: Duration = Duration::from_secs(120);
const WAIT: Duration = Duration::from_secs(10);
const GAMES: [&str; 6] = ["four3d", "golad", "geister", "floodit", "puyo", "goofspiel"];

/// The report page of two random-vs-random games of each game, made once
/// for all the tests of this file (in the target's temporary folder).
fn report_page() -> &'static PathBuf {
    static PAGE: OnceLock<PathBuf> = OnceLock::new();
    PAGE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser_report");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let records: Vec<String> = std::thread::scope(|s| {
            let jobs: Vec<_> = GAMES
                .iter()
                .map(|game| {
                    // Relative names: the page shows each game's file and line.
                    let out = format!("{game}.jsonl");
                    let dir = &dir;
                    s.spawn(move || {
                        let o = run(
                            &[
                                "match",
                                game,
                                "--a",
                                "random",
                                "--b",
                                "random",
                                "--games",
                                "2",
                                "--jobs",
                                "1",
                                "--seed",
                                "7",
                                "--playouts",
                                "20",
                                "--out",
                                &out,
                            ],
                            &[],
                            Some(dir),
                            LIMIT,
                        );
                        assert!(o.status.success(), "match {game}: {}", stderr(&o));
                        out
                    })
                })
                .collect();
            jobs.into_iter().map(|j| j.join().unwrap()).collect()
        });
        let html = dir.join("report.html");
        let mut args = vec!["report"];
        args.extend(records.iter().map(String::as_str));
        args.extend(["--html", "report.html", "--limit-ms", "50"]);
        let o = run(&args, &[], Some(&dir), LIMIT);
        assert_eq!(o.status.code(), Some(0), "report: {}", stderr(&o));
        html
    })
}

fn file_url(p: &Path) -> String {
    format!("file://{}", p.canonicalize().unwrap().display())
}

fn artifacts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-artifacts")
}

/// A screenshot that is a real PNG of a plausible size.
fn check_png(path: &Path, min: (u32, u32)) {
    let (w, h) = png_size(path).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        w >= min.0 && h >= min.1 && w <= 5000 && h <= 5000,
        "{}: {w}x{h}",
        path.display()
    );
    let len = std::fs::metadata(path).unwrap().len();
    assert!(len > 1000, "{}: only {len} bytes", path.display());
}

/// Game N's position text ("turn i / last") and board markup, read from the DOM.
fn pos(page: &Page, n: usize) -> String {
    page.eval_str(&format!(
        "document.querySelector('#game-{n} .replay .pos').textContent"
    ))
}
fn board(page: &Page, n: usize) -> String {
    page.eval_str(&format!(
        "document.querySelector('#game-{n} .replay .board').innerHTML"
    ))
}

/// Waits until game N shows position `i` of `last` (after `what`), and
/// returns its board's markup.
fn at(page: &Page, n: usize, i: usize, last: usize, what: &str) -> String {
    let want = format!("turn {i} / {last}");
    let start = std::time::Instant::now();
    loop {
        let now = pos(page, n);
        if now == want {
            return board(page, n);
        }
        if start.elapsed() > Duration::from_secs(3) {
            panic!("#game-{n} after {what}: {now:?}, not {want:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Panics unless game N's board is a real drawing: an SVG with content and a
/// size, no view error and no JSON fallback.
fn check_board(page: &Page, n: usize, game: &str, i: usize) {
    let r = page.eval(&format!(
        "(() => {{ const b = document.querySelector('#game-{n} .replay .board');
           const svg = b.querySelector('svg'); const r = svg ? svg.getBoundingClientRect() : null;
           return {{ svg: !!svg, shapes: svg ? svg.querySelectorAll('rect,circle,path,polygon,line,text,ellipse,polyline,use,g').length : 0,
             w: r ? r.width : 0, h: r ? r.height : 0,
             error: b.querySelector('p.error') ? b.querySelector('p.error').textContent : null,
             fallback: !!b.querySelector('pre.state') }}; }})()"
    ));
    let ctx = format!("{game} (#game-{n}) at turn {i}: {r}");
    assert_eq!(r["svg"], true, "no svg board: {ctx}");
    assert!(r["shapes"].as_u64().unwrap() >= 5, "an empty board: {ctx}");
    assert!(
        r["w"].as_f64().unwrap() >= 50.0 && r["h"].as_f64().unwrap() >= 50.0,
        "a board of no size: {ctx}"
    );
    assert!(r["error"].is_null(), "a view error: {ctx}");
    assert_eq!(r["fallback"], false, "the JSON fallback is shown: {ctx}");
}

/// The page's network use: only its own file (and data: URLs).
fn check_requests(page: &Page, url: &str) {
    let own = url.split('#').next().unwrap();
    let other: Vec<String> = page
        .requests()
        .into_iter()
        .filter(|r| r.split('#').next().unwrap() != own && !r.starts_with("data:"))
        .collect();
    assert!(other.is_empty(), "the page requested {other:?}");
    assert!(
        page.requests().iter().any(|r| r.starts_with(own)),
        "its own load was not seen: {:?}",
        page.requests()
    );
}

#[test]
fn report_page_replays_every_game_in_chromium() {
    let html = report_page();
    let Some(browser) = Browser::launch() else {
        return;
    };
    let page = browser.new_page();
    page.set_viewport(1200, 900);
    let url = file_url(html);
    page.goto(&url);
    page.wait_for("window.LB && LB.viewer", WAIT);

    // The page's games, in its order, and the first of each game with a few turns.
    let games: Vec<(String, usize)> =
        serde_json::from_value(page.eval("LB.data.games.map(g => [g.game, g.states.length - 1])"))
            .unwrap();
    assert_eq!(games.len(), 12, "{games:?}");
    let sections = page.eval("document.querySelectorAll('section.game').length");
    assert_eq!(sections, 12);
    // With no address, the first game is open.
    assert_eq!(
        page.eval("document.querySelectorAll('section.game.open').length"),
        1
    );
    page.wait_for(
        "document.querySelector('#game-1.open .board svg') !== null",
        WAIT,
    );

    for game in GAMES {
        let (k, last) = games
            .iter()
            .enumerate()
            .filter(|(_, (g, _))| g == game)
            .map(|(k, (_, l))| (k, *l))
            .max_by_key(|(_, l)| *l)
            .unwrap_or_else(|| panic!("no {game} game in the page: {games:?}"));
        assert!(
            last >= 3,
            "{game}: a game of {last} turns is too short to step"
        );
        let n = k + 1;

        // #game-N in the address opens it (and only it).
        page.eval(&format!("location.hash = '#game-{n}'"));
        page.wait_for(
            &format!("document.querySelector('#game-{n}').classList.contains('open')"),
            WAIT,
        );
        assert_eq!(
            page.eval("document.querySelectorAll('section.game.open').length"),
            1,
            "{game}: one game open"
        );
        assert_eq!(
            page.eval("document.querySelectorAll('section.game .replay .viewer').length"),
            1,
            "{game}: one viewer"
        );
        let b0 = at(&page, n, 0, last, "opened");
        check_board(&page, n, game, 0);
        // The four buttons show their icons.
        let icons = page.eval(&format!(
            "[...document.querySelectorAll('#game-{n} .controls button')].map(b => {{
               const s = b.querySelector('svg'); return s ? s.getBoundingClientRect().width : 0; }})"
        ));
        assert!(
            icons.as_array().is_some_and(|a| a.len() == 4
                && a.iter().all(|w| w.as_f64().unwrap_or(0.0) >= 8.0)),
            "{game}: the buttons' icons: {icons}"
        );
        page.eval("document.activeElement && document.activeElement.blur && document.activeElement.blur()");

        // The keys.
        page.key("ArrowRight");
        let b1 = at(&page, n, 1, last, "ArrowRight");
        assert_ne!(b1, b0, "{game}: ArrowRight left the board as it was");
        check_board(&page, n, game, 1);
        page.key("ArrowRight");
        let b2 = at(&page, n, 2, last, "ArrowRight twice");
        page.key("ArrowLeft");
        assert_eq!(at(&page, n, 1, last, "ArrowLeft"), b1, "{game}: ArrowLeft");
        page.key("ArrowLeft");
        assert_eq!(
            at(&page, n, 0, last, "ArrowLeft"),
            b0,
            "{game}: back at the start"
        );
        page.key("ArrowLeft");
        assert_eq!(
            at(&page, n, 0, last, "ArrowLeft at 0"),
            b0,
            "{game}: before the start"
        );
        page.key("End");
        let bl = at(&page, n, last, last, "End");
        check_board(&page, n, game, last);
        assert_ne!(bl, b0, "{game}: the last position looks like the first");
        let info = page.eval(&format!(
            "(() => {{ const i = document.querySelector('#game-{n} .info');
               return {{ result: i.querySelector('b') ? i.querySelector('b').textContent : null,
                         text: i.textContent }}; }})()"
        ));
        let result = info["result"].as_str().unwrap_or_default();
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&result),
            "{game}: no result line at the end: {info}"
        );
        let text = info["text"].as_str().unwrap();
        assert!(
            text.contains(" wins") || text.contains("draw"),
            "{game}: the result line says who won: {text}"
        );
        page.key("ArrowRight");
        assert_eq!(at(&page, n, last, last, "ArrowRight at the end"), bl);
        page.key("Home");
        assert_eq!(at(&page, n, 0, last, "Home"), b0, "{game}: Home");
        let no_result = page.eval(&format!(
            "document.querySelector('#game-{n} .info b') === null"
        ));
        assert_eq!(
            no_result, true,
            "{game}: the result line stays at the start"
        );

        // The buttons, clicked for real.
        let btn = |act: &str| format!("#game-{n} .controls button[data-act={act}]");
        page.click(&btn("next"));
        assert_eq!(at(&page, n, 1, last, "next"), b1, "{game}: the next button");
        page.click(&btn("next"));
        assert_eq!(
            at(&page, n, 2, last, "next twice"),
            b2,
            "{game}: next twice"
        );
        page.click(&btn("prev"));
        assert_eq!(at(&page, n, 1, last, "prev"), b1, "{game}: the prev button");
        page.click(&btn("last"));
        assert_eq!(
            at(&page, n, last, last, "last"),
            bl,
            "{game}: the last button"
        );
        page.click(&btn("first"));
        assert_eq!(
            at(&page, n, 0, last, "first"),
            b0,
            "{game}: the first button"
        );

        // The slider: a click on its middle jumps there, then its own arrow keys step.
        let slider = format!("#game-{n} .controls input[type=range]");
        page.click(&slider);
        let v: usize = page
            .eval_str(&format!("document.querySelector('{slider}').value"))
            .parse()
            .unwrap();
        assert!(
            v > 0 && v < last && v.abs_diff(last / 2) <= last / 4 + 1,
            "{game}: a click on the middle of the slider gave {v} of {last}"
        );
        let bv = at(&page, n, v, last, "slider click");
        assert_ne!(bv, b0, "{game}: the slider moved, not the board");
        assert_eq!(
            page.eval("document.activeElement && document.activeElement.type"),
            "range"
        );
        // Focused on the slider, ← is the slider's own: one step, not two.
        page.key("ArrowLeft");
        at(&page, n, v - 1, last, "ArrowLeft on the slider");
        page.key("Home");
        assert_eq!(at(&page, n, 0, last, "Home on the slider"), b0);
        page.key("ArrowRight");
        assert_eq!(at(&page, n, 1, last, "ArrowRight on the slider"), b1);

        // Dragging the slider's thumb steps the board while the button is held.
        let (x, y, w, h) = page.rect(&slider);
        let thumb = |i: usize| x + h / 2.0 + (w - h) * i as f64 / last as f64;
        page.mouse("mouseMoved", thumb(1), y + h / 2.0, false);
        page.mouse("mousePressed", thumb(1), y + h / 2.0, true);
        let to = last * 3 / 4;
        for step in 1..=4 {
            let i = 1.0 + (to as f64 - 1.0) * step as f64 / 4.0;
            let px = x + h / 2.0 + (w - h) * i / last as f64;
            page.mouse("mouseMoved", px, y + h / 2.0, true);
        }
        let dragged: usize = pos(&page, n)
            .split(' ')
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap();
        page.mouse("mouseReleased", thumb(to), y + h / 2.0, true);
        assert!(
            dragged.abs_diff(to) <= 1 + last / 40,
            "{game}: dragging the slider to {to} of {last} showed turn {dragged} before the release"
        );
        page.key("Home");
        at(&page, n, 0, last, "Home after the drag");

        // A move in the list.
        page.click(&format!("#game-{n} ol.moves li:nth-child(2)"));
        assert_eq!(
            at(&page, n, 2, last, "a move clicked"),
            b2,
            "{game}: the move list"
        );
        assert_eq!(
            page.eval(&format!(
                "document.querySelector('#game-{n} ol.moves li.current').getAttribute('data-i')"
            )),
            "2"
        );

        // A screenshot of the board in the middle of the game.
        page.eval(&format!("LB.viewer.go({})", last / 2));
        at(&page, n, last / 2, last, "the middle");
        check_board(&page, n, game, last / 2);
        let png = artifacts().join(format!("report-{game}.png"));
        page.screenshot_element(&format!("#game-{n} .board"), &png);
        check_png(&png, (50, 50));
    }

    if std::env::var("LADDERBOT_DOCS_SCREENSHOTS").as_deref() == Ok("1") {
        docs_screenshot(&page, &games);
    }

    check_requests(&page, &url);
    let errors = page.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// docs/report.png: a Geister game in its middle, the page at 1200x900.
fn docs_screenshot(page: &Page, games: &[(String, usize)]) {
    let (k, last) = games
        .iter()
        .enumerate()
        .filter(|(_, (g, _))| g == "geister")
        .map(|(k, (_, l))| (k, *l))
        .max_by_key(|(_, l)| *l)
        .unwrap();
    let n = k + 1;
    page.eval(&format!("location.hash = '#game-{n}'"));
    page.wait_for(
        &format!("document.querySelector('#game-{n}.open .board svg')"),
        WAIT,
    );
    page.eval(&format!("LB.viewer.go({})", last * 2 / 3));
    page.eval(&format!(
        "document.querySelector('#game-{n}').scrollIntoView({{block: 'start'}}); window.scrollBy(0, -8)"
    ));
    page.wait_for(
        "new Promise(r => requestAnimationFrame(() => r(true)))",
        WAIT,
    );
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.png");
    page.screenshot(&png);
    check_png(&png, (1000, 700));
    eprintln!("wrote {}", png.display());
}

#[test]
fn report_page_opens_the_game_its_address_names() {
    let html = report_page();
    let Some(browser) = Browser::launch() else {
        return;
    };
    let page = browser.new_page();
    page.set_viewport(1200, 900);
    let url = format!("{}#game-9", file_url(html));
    page.goto(&url);
    page.wait_for("window.LB && LB.viewer", WAIT);
    page.wait_for(
        "document.querySelector('#game-9.open .board svg') !== null",
        WAIT,
    );
    assert_eq!(
        page.eval("document.querySelectorAll('section.game.open').length"),
        1
    );
    let game = page.eval_str("LB.data.games[8].game");
    check_board(&page, 9, &game, 0);
    // It was scrolled to: its section's top is in the window.
    let top = page.eval("document.querySelector('#game-9').getBoundingClientRect().top");
    let top = top.as_f64().unwrap();
    assert!(
        (-2.0..450.0).contains(&top),
        "#game-9 is at {top}px, not in view"
    );
    // Its heading's link opens it again after another game was opened by hand.
    page.eval("LB.open(0, false)");
    page.wait_for(
        "document.querySelector('#game-1.open .board svg') !== null",
        WAIT,
    );
    page.click("#game-9 h3 a");
    page.wait_for(
        "document.querySelector('#game-9.open .board svg') !== null",
        WAIT,
    );
    assert_eq!(pos(&page, 9).split(' ').nth(1), Some("0"));
    page.key("ArrowRight");
    page.wait_for(
        "document.querySelector('#game-9 .pos').textContent.startsWith('turn 1 /')",
        WAIT,
    );
    check_requests(&page, &url);
    let errors = page.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// `analyze --html`: under each replay the value curve of both seats and
/// the decisive move circled, with what was played and what the reference
/// preferred; the cursor line follows the replay.
#[test]
fn an_analysed_game_shows_its_value_curve_and_decisive_move_in_chromium() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser_analysis");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("g.jsonl");
    let html = dir.join("analysis.html");
    let o = run(
        &[
            "match",
            "four3d",
            "--a",
            "ab-v1",
            "--b",
            "pmc",
            "--games",
            "2",
            "--playouts",
            "2000",
            "--seed",
            "3",
            "--out",
            games.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(
        &[
            "analyze",
            games.to_str().unwrap(),
            "--playouts",
            "2000",
            "--html",
            html.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let Some(browser) = Browser::launch() else {
        return;
    };
    let page = browser.new_page();
    page.set_viewport(1200, 900);
    let url = file_url(&html);
    page.goto(&url);
    page.wait_for(
        "document.querySelector('#game-1.open .game-values') !== null",
        WAIT,
    );
    // One curve a seat, with a point for each of its moves.
    assert_eq!(
        page.eval("document.querySelectorAll('#game-1 .game-values polyline.values').length"),
        2
    );
    let points =
        page.eval("document.querySelectorAll('#game-1 .game-values circle:not(.decisive)').length");
    let moves = page.eval("LB.data.games[0].analysis.values.length");
    assert_eq!(points, moves);
    assert_eq!(
        page.eval("document.querySelectorAll('#game-1 .game-values circle.decisive').length"),
        1
    );
    let note = page.eval_str("document.querySelector('#game-1 .decisive-note').textContent");
    assert!(note.starts_with("Decisive move at ply "), "{note}");
    assert!(note.contains("the reference preferred"), "{note}");
    // The cursor line moves with the replay.
    let x0 =
        page.eval_str("document.querySelector('#game-1 .game-values .now').getAttribute('x1')");
    page.key("ArrowRight");
    page.wait_for(
        "document.querySelector('#game-1 .pos').textContent.startsWith('turn 1 /')",
        WAIT,
    );
    let x1 =
        page.eval_str("document.querySelector('#game-1 .game-values .now').getAttribute('x1')");
    assert_ne!(x0, x1);
    check_requests(&page, &url);
    let errors = page.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}
