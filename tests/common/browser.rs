//! A small Chrome DevTools Protocol client for tests that look at a page in
//! a real headless Chromium: open a page, evaluate JS, press keys, click,
//! take screenshots, and see every request, console error and uncaught
//! exception the page made.
//!
//! ```ignore
//! let Some(browser) = Browser::launch() else { return }; // no Chromium: skipped
//! let page = browser.new_page();
//! page.goto("file:///tmp/m.html");
//! page.wait_for("document.querySelector('.board svg') !== null", WAIT);
//! page.key("ArrowRight");
//! page.click(".controls [data-act=next]");
//! assert_eq!(page.eval("1 + 1"), serde_json::json!(2));
//! assert!(page.console_errors().is_empty());
//! ```
//!
//! Chromium is found with [`find_chromium`]: `LADDERBOT_CHROMIUM`, else
//! `/usr/bin/chromium`, `chromium` or `chromium-browser` on the PATH. When
//! there is none, [`Browser::launch`] returns `None` (the test is skipped with
//! a line on stderr), except under `CI` where it panics: CI installs it.
//!
//! The API is blocking (each call runs on the browser's own tokio runtime) and
//! every wait has a time limit: a test can fail, never hang.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::{broadcast, oneshot};
use tokio_tungstenite::tungstenite::Message;

/// How long one protocol command may take.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// How long Chromium may take to start and print its DevTools address.
pub const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);
/// How long [`Page::goto`] waits for the load event.
pub const LOAD_TIMEOUT: Duration = Duration::from_secs(30);

/// The Chromium binary to use, if any: `LADDERBOT_CHROMIUM` (a path or a
/// name on the PATH), else `/usr/bin/chromium`, `chromium`,
/// `chromium-browser` on the PATH.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LADDERBOT_CHROMIUM").filter(|p| !p.is_empty()) {
        let found = which(Path::new(&p));
        assert!(
            found.is_some(),
            "LADDERBOT_CHROMIUM={} names no executable file",
            p.to_string_lossy()
        );
        return found;
    }
    ["/usr/bin/chromium", "chromium", "chromium-browser"]
        .iter()
        .find_map(|c| which(Path::new(c)))
}

fn which(p: &Path) -> Option<PathBuf> {
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(p))
        .find(|c| c.is_file())
}

/// What the reader task keeps of one session's events.
#[derive(Default)]
struct SessionLog {
    requests: Vec<String>,
    errors: Vec<String>,
}

/// One event: its session (None for the browser's own), method and params.
#[derive(Clone, Debug)]
struct Event {
    session: Option<String>,
    method: String,
    params: Value,
}

type Reply = Result<Value, String>;

/// The connection to the browser, shared by the browser and its pages.
struct Conn {
    rt: tokio::runtime::Runtime,
    out: tokio::sync::mpsc::UnboundedSender<Message>,
    next_id: AtomicU64,
    pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Reply>>>>,
    logs: Arc<Mutex<HashMap<String, SessionLog>>>,
    events: broadcast::Sender<Event>,
}

impl Conn {
    fn connect(ws_url: &str) -> Result<Arc<Conn>, String> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        let ws = rt
            .block_on(async {
                tokio::time::timeout(LAUNCH_TIMEOUT, tokio_tungstenite::connect_async(ws_url)).await
            })
            .map_err(|_| format!("connecting to {ws_url} timed out"))?
            .map_err(|e| format!("connecting to {ws_url}: {e}"))?
            .0;
        let (mut sink, mut stream) = ws.split();
        let (out, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<Message>();
        rt.spawn(async move {
            while let Some(m) = out_rx.recv().await {
                if sink.send(m).await.is_err() {
                    break;
                }
            }
        });
        let pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Reply>>>> = Arc::default();
        let logs: Arc<Mutex<HashMap<String, SessionLog>>> = Arc::default();
        let (events, _) = broadcast::channel(4096);
        let (p, l, ev) = (pending.clone(), logs.clone(), events.clone());
        rt.spawn(async move {
            while let Some(Ok(m)) = stream.next().await {
                let Message::Text(text) = m else { continue };
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                if let Some(id) = v.get("id").and_then(Value::as_u64) {
                    let reply = match v.get("error") {
                        Some(e) => Err(e.to_string()),
                        None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
                    };
                    if let Some(tx) = p.lock().unwrap().remove(&id) {
                        let _ = tx.send(reply);
                    }
                    continue;
                }
                let event = Event {
                    session: v["sessionId"].as_str().map(str::to_string),
                    method: v["method"].as_str().unwrap_or_default().to_string(),
                    params: v.get("params").cloned().unwrap_or(Value::Null),
                };
                if let Some(s) = &event.session {
                    record(l.lock().unwrap().entry(s.clone()).or_default(), &event);
                }
                let _ = ev.send(event);
            }
            // The browser went away: every command still waiting fails now.
            p.lock().unwrap().clear();
        });
        Ok(Arc::new(Conn {
            rt,
            out,
            next_id: AtomicU64::new(1),
            pending,
            logs,
            events,
        }))
    }

    /// Sends one command (to a page's session when given) and waits for its
    /// result.
    fn call(&self, session: Option<&str>, method: &str, params: Value) -> Reply {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let (tx, rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, tx);
        if self.out.send(Message::Text(msg.to_string())).is_err() {
            return Err(format!("{method}: the connection is closed"));
        }
        let r = self
            .rt
            .block_on(async { tokio::time::timeout(COMMAND_TIMEOUT, rx).await });
        self.pending.lock().unwrap().remove(&id);
        match r {
            Err(_) => Err(format!("{method}: no answer within {COMMAND_TIMEOUT:?}")),
            Ok(Err(_)) => Err(format!("{method}: the browser closed the connection")),
            Ok(Ok(reply)) => reply.map_err(|e| format!("{method}: {e}")),
        }
    }

    fn must(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.call(session, method, params)
            .unwrap_or_else(|e| panic!("DevTools command failed: {e}"))
    }
}

/// Keeps what a test asserts on: requested URLs, console errors, uncaught
/// exceptions and failed loads.
fn record(log: &mut SessionLog, e: &Event) {
    let p = &e.params;
    match e.method.as_str() {
        "Network.requestWillBeSent" => {
            if let Some(u) = p["request"]["url"].as_str() {
                log.requests.push(u.to_string());
            }
        }
        "Runtime.exceptionThrown" => {
            let d = &p["exceptionDetails"];
            let msg = d["exception"]["description"]
                .as_str()
                .or_else(|| d["text"].as_str())
                .unwrap_or("exception");
            log.errors.push(format!(
                "uncaught exception at {}:{}: {msg}",
                d["url"].as_str().unwrap_or("?"),
                d["lineNumber"]
            ));
        }
        "Runtime.consoleAPICalled" if matches!(p["type"].as_str(), Some("error" | "assert")) => {
            let args: Vec<String> = p["args"]
                .as_array()
                .map(|a| a.iter().map(remote_text).collect())
                .unwrap_or_default();
            log.errors.push(format!(
                "console.{}: {}",
                p["type"].as_str().unwrap_or("?"),
                args.join(" ")
            ));
        }
        "Log.entryAdded" if p["entry"]["level"] == "error" => {
            log.errors.push(format!(
                "log ({}): {} {}",
                p["entry"]["source"].as_str().unwrap_or("?"),
                p["entry"]["text"].as_str().unwrap_or(""),
                p["entry"]["url"].as_str().unwrap_or("")
            ));
        }
        _ => {}
    }
}

/// A `Runtime.RemoteObject` as text.
fn remote_text(o: &Value) -> String {
    match (&o["value"], o["description"].as_str()) {
        (Value::String(s), _) => s.clone(),
        (Value::Null, Some(d)) => d.to_string(),
        (v, _) => v.to_string(),
    }
}

/// A headless Chromium with its DevTools connection; killed, and its profile
/// removed, on drop.
pub struct Browser {
    conn: Arc<Conn>,
    child: Child,
    profile: Option<tempfile::TempDir>,
    stderr_tail: Arc<Mutex<Vec<String>>>,
}

impl Browser {
    /// Starts Chromium, or returns None (after a "skipped" line on stderr)
    /// when there is none and `CI` is not set. Under `CI` a missing
    /// Chromium panics.
    pub fn launch() -> Option<Browser> {
        Browser::launch_with(&[])
    }

    /// [`Browser::launch`] with more command-line flags (`--window-size=W,H`...).
    pub fn launch_with(extra: &[&str]) -> Option<Browser> {
        let Some(bin) = find_chromium() else {
            if std::env::var_os("CI").is_some() {
                panic!(
                    "no Chromium found (LADDERBOT_CHROMIUM, /usr/bin/chromium, chromium, \
                     chromium-browser); CI must install it (.ci/run: apt-get install chromium)"
                );
            }
            eprintln!("skipped: no chromium (install it, or set LADDERBOT_CHROMIUM)");
            return None;
        };
        Some(Browser::start(&bin, extra))
    }

    fn start(bin: &Path, extra: &[&str]) -> Browser {
        let profile = tempfile::Builder::new()
            .prefix("ladderbot-chromium-")
            .tempdir()
            .expect("a temporary profile directory");
        let mut c = Command::new(bin);
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--mute-audio",
            "--hide-scrollbars",
            "--remote-debugging-port=0",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        let mut child = c
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", bin.display()));
        // Chromium prints its address on stderr; the rest of stderr is kept
        // (the last lines) for the messages of a failure.
        let stderr = child.stderr.take().expect("stderr");
        let tail: Arc<Mutex<Vec<String>>> = Arc::default();
        let (tx, rx) = mpsc::channel();
        let t = tail.clone();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    if let Some(tx) = tx.take() {
                        let _ = tx.send(url.trim().to_string());
                    }
                }
                let mut t = t.lock().unwrap();
                t.push(line);
                if t.len() > 50 {
                    t.remove(0);
                }
            }
        });
        let url = match rx.recv_timeout(LAUNCH_TIMEOUT) {
            Ok(u) => u,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{} printed no DevTools address within {LAUNCH_TIMEOUT:?}; stderr:\n{}",
                    bin.display(),
                    tail.lock().unwrap().join("\n")
                );
            }
        };
        let conn = match Conn::connect(&url) {
            Ok(c) => c,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{e}");
            }
        };
        Browser {
            conn,
            child,
            profile: Some(profile),
            stderr_tail: tail,
        }
    }

    /// The last lines Chromium wrote on stderr (for a failure's message).
    pub fn stderr_tail(&self) -> String {
        self.stderr_tail.lock().unwrap().join("\n")
    }

    /// A new tab on about:blank, attached, with the page, runtime, log and
    /// network domains enabled (so every request and error from now on is seen).
    pub fn new_page(&self) -> Page {
        let c = &self.conn;
        let target = c.must(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let target_id = target["targetId"].as_str().expect("targetId").to_string();
        let attached = c.must(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
        );
        let session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        c.logs.lock().unwrap().entry(session.clone()).or_default();
        for domain in ["Page", "Runtime", "Network", "Log"] {
            c.must(Some(&session), &format!("{domain}.enable"), json!({}));
        }
        Page {
            conn: c.clone(),
            session,
            target_id,
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Closing lets Chromium end its own helper processes; the kill is for
        // a browser that does not answer.
        let _ = self.conn.out.send(Message::Text(
            json!({ "id": 0, "method": "Browser.close" }).to_string(),
        ));
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(p) = self.profile.take() {
            let _ = p.close();
        }
    }
}

/// One tab of a [`Browser`].
pub struct Page {
    conn: Arc<Conn>,
    session: String,
    target_id: String,
}

/// The `key`, `code` and Windows virtual key code of a key name as
/// `KeyboardEvent.key` spells it, and the text it types.
fn key_def(key: &str) -> (String, u32, Option<String>) {
    let named = |code: &str, vk| (code.to_string(), vk, None);
    match key {
        "ArrowLeft" => named("ArrowLeft", 37),
        "ArrowUp" => named("ArrowUp", 38),
        "ArrowRight" => named("ArrowRight", 39),
        "ArrowDown" => named("ArrowDown", 40),
        "Home" => named("Home", 36),
        "End" => named("End", 35),
        "PageUp" => named("PageUp", 33),
        "PageDown" => named("PageDown", 34),
        "Escape" => named("Escape", 27),
        "Backspace" => named("Backspace", 8),
        "Delete" => named("Delete", 46),
        "Tab" => named("Tab", 9),
        "Enter" => ("Enter".into(), 13, Some("\r".into())),
        " " => ("Space".into(), 32, Some(" ".into())),
        k if k.chars().count() == 1 => {
            let ch = k.chars().next().unwrap();
            let up = ch.to_ascii_uppercase();
            let code = if ch.is_ascii_alphabetic() {
                format!("Key{up}")
            } else if ch.is_ascii_digit() {
                format!("Digit{ch}")
            } else {
                String::new()
            };
            let vk = if up.is_ascii_alphanumeric() {
                up as u32
            } else {
                0
            };
            (code, vk, Some(k.to_string()))
        }
        other => panic!("Page::key: no definition for the key {other:?}"),
    }
}

impl Page {
    /// Sends one DevTools command to this page's session.
    pub fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        self.conn.call(Some(&self.session), method, params)
    }

    fn must(&self, method: &str, params: Value) -> Value {
        self.conn.must(Some(&self.session), method, params)
    }

    /// This page's target id.
    pub fn target_id(&self) -> &str {
        &self.target_id
    }

    /// Navigates to `url` and waits for its load event.
    pub fn goto(&self, url: &str) {
        let mut events = self.conn.events.subscribe();
        let r = self.must("Page.navigate", json!({ "url": url }));
        if let Some(e) = r["errorText"].as_str().filter(|e| !e.is_empty()) {
            panic!("navigating to {url}: {e}");
        }
        let session = self.session.clone();
        let loaded = self.conn.rt.block_on(async {
            tokio::time::timeout(LOAD_TIMEOUT, async {
                loop {
                    match events.recv().await {
                        Ok(e) => {
                            if e.session.as_deref() == Some(&session)
                                && e.method == "Page.loadEventFired"
                            {
                                return true;
                            }
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(_) => return false,
                    }
                }
            })
            .await
        });
        assert!(
            matches!(loaded, Ok(true)),
            "{url} did not load within {LOAD_TIMEOUT:?}"
        );
    }

    /// Evaluates `js` (an expression; a promise is awaited) and returns its
    /// value as JSON; a thrown exception is the error, with its message.
    pub fn try_eval(&self, js: &str) -> Result<Value, String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({
                "expression": js,
                "returnByValue": true,
                "awaitPromise": true,
                "userGesture": true,
            }),
        )?;
        if let Some(d) = r.get("exceptionDetails") {
            let msg = d["exception"]["description"]
                .as_str()
                .or_else(|| d["text"].as_str())
                .unwrap_or("exception");
            return Err(format!("{msg}\n  in: {js}"));
        }
        Ok(r["result"]["value"].clone())
    }

    /// [`Page::try_eval`] that panics on an exception.
    pub fn eval(&self, js: &str) -> Value {
        self.try_eval(js)
            .unwrap_or_else(|e| panic!("JS exception: {e}"))
    }

    /// `eval` of an expression that must give a string.
    pub fn eval_str(&self, js: &str) -> String {
        match self.eval(js) {
            Value::String(s) => s,
            other => panic!("{js} gave {other}, not a string"),
        }
    }

    /// Waits until `js_condition` is truthy, polling; panics after `timeout`
    /// (an exception while polling counts as false, the last one is reported).
    pub fn wait_for(&self, js_condition: &str, timeout: Duration) {
        let start = Instant::now();
        let mut last = String::new();
        loop {
            match self.try_eval(&format!("!!({js_condition})")) {
                Ok(Value::Bool(true)) => return,
                Ok(_) => {}
                Err(e) => last = e,
            }
            if start.elapsed() > timeout {
                panic!(
                    "waited {timeout:?} for {js_condition}; last exception: {last}; \
                     console errors: {:?}",
                    self.console_errors()
                );
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Presses and releases one key (`"ArrowRight"`, `"End"`, `"a"`...) as
    /// real input on the focused element.
    pub fn key(&self, key: &str) {
        let (code, vk, text) = key_def(key);
        let mut down = json!({
            "type": if text.is_some() { "keyDown" } else { "rawKeyDown" },
            "key": key,
            "code": code,
            "windowsVirtualKeyCode": vk,
            "nativeVirtualKeyCode": vk,
        });
        if let Some(t) = &text {
            down["text"] = json!(t);
            down["unmodifiedText"] = json!(t);
        }
        self.must("Input.dispatchKeyEvent", down);
        self.must(
            "Input.dispatchKeyEvent",
            json!({
                "type": "keyUp",
                "key": key,
                "code": code,
                "windowsVirtualKeyCode": vk,
                "nativeVirtualKeyCode": vk,
            }),
        );
    }

    /// The centre of the first element matching `selector`, in viewport
    /// CSS pixels, after scrolling it into view. Panics when there is no
    /// such element, it has no size, or another element covers its centre.
    pub fn centre_of(&self, selector: &str) -> (f64, f64) {
        let sel = serde_json::to_string(selector).unwrap();
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return 'missing';
               e.scrollIntoView({{block: 'center', inline: 'center'}});
               const r = e.getBoundingClientRect();
               if (r.width <= 0 || r.height <= 0) return 'no size';
               const x = r.left + r.width / 2, y = r.top + r.height / 2;
               const at = document.elementFromPoint(x, y);
               if (!at || !(at === e || e.contains(at))) return 'covered by ' + (at ? at.outerHTML.slice(0, 80) : 'nothing');
               return [x, y]; }})()"
        ));
        match r {
            Value::Array(a) => (a[0].as_f64().unwrap(), a[1].as_f64().unwrap()),
            other => panic!("cannot click {selector}: {other}"),
        }
    }

    /// A real left click (mouse move, press, release) at the centre of the
    /// first element matching `selector`, scrolled into view.
    pub fn click(&self, selector: &str) {
        let (x, y) = self.centre_of(selector);
        self.click_at(x, y);
    }

    /// A real left click at viewport CSS pixels (x, y).
    pub fn click_at(&self, x: f64, y: f64) {
        self.must(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": x, "y": y }),
        );
        for t in ["mousePressed", "mouseReleased"] {
            self.must(
                "Input.dispatchMouseEvent",
                json!({ "type": t, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1 }),
            );
        }
    }

    /// One raw mouse event at viewport CSS pixels: `kind` is `mouseMoved`,
    /// `mousePressed` or `mouseReleased`; `held` says the left button is down
    /// (a press or release is always of the left button). For drags.
    pub fn mouse(&self, kind: &str, x: f64, y: f64, held: bool) {
        let mut e = json!({ "type": kind, "x": x, "y": y, "buttons": if held { 1 } else { 0 } });
        if kind != "mouseMoved" || held {
            e["button"] = json!("left");
            e["clickCount"] = json!(1);
        }
        self.must("Input.dispatchMouseEvent", e);
    }

    /// The bounding box `(left, top, width, height)` of the first element
    /// matching `selector` in viewport CSS pixels, after scrolling it into view.
    pub fn rect(&self, selector: &str) -> (f64, f64, f64, f64) {
        let sel = serde_json::to_string(selector).unwrap();
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null;
               e.scrollIntoView({{block: 'center', inline: 'center'}});
               const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }})()"
        ));
        let a = r
            .as_array()
            .unwrap_or_else(|| panic!("no element {selector}"));
        let f = |i: usize| a[i].as_f64().unwrap();
        (f(0), f(1), f(2), f(3))
    }

    /// Sets the viewport to `width` x `height` CSS pixels, scale 1.
    pub fn set_viewport(&self, width: u32, height: u32) {
        self.must(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        );
    }

    /// A PNG of the viewport, written to `path` (its folder is made).
    pub fn screenshot(&self, path: &Path) {
        let r = self.must("Page.captureScreenshot", json!({ "format": "png" }));
        write_png(r, path);
    }

    /// A PNG of the first element matching `selector` (scrolled into view).
    pub fn screenshot_element(&self, selector: &str, path: &Path) {
        let sel = serde_json::to_string(selector).unwrap();
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null;
               e.scrollIntoView({{block: 'center'}});
               const r = e.getBoundingClientRect();
               return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; }})()"
        ));
        let a = r
            .as_array()
            .unwrap_or_else(|| panic!("no element {selector} to screenshot"));
        let f = |i: usize| a[i].as_f64().unwrap();
        assert!(f(2) > 0.0 && f(3) > 0.0, "{selector} has no size");
        let r = self.must(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "clip": { "x": f(0), "y": f(1), "width": f(2), "height": f(3), "scale": 1 },
            }),
        );
        write_png(r, path);
    }

    /// Every URL requested since the page was created, in order.
    pub fn requests(&self) -> Vec<String> {
        self.conn.logs.lock().unwrap()[&self.session]
            .requests
            .clone()
    }

    /// The console errors (`console.error`, `console.assert`), uncaught
    /// exceptions and error log entries (failed loads...) since the page was
    /// created.
    pub fn console_errors(&self) -> Vec<String> {
        self.conn.logs.lock().unwrap()[&self.session].errors.clone()
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.conn.out.send(Message::Text(
            json!({
                "id": 0,
                "method": "Target.closeTarget",
                "params": { "targetId": self.target_id },
            })
            .to_string(),
        ));
    }
}

fn write_png(r: Value, path: &Path) {
    let data = r["data"].as_str().expect("screenshot data");
    let bytes = base64_decode(data).expect("screenshot data is base64");
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Standard base64 (with padding), as DevTools sends binary data.
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let s = s.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        match chunk.len() {
            4 => out.extend_from_slice(&bytes),
            3 => out.extend_from_slice(&bytes[..2]),
            2 => out.push(bytes[0]),
            _ => return None,
        }
    }
    Some(out)
}

/// The width and height of a PNG file's image, checking its signature and
/// IHDR chunk; an error says what is wrong.
pub fn png_size(path: &Path) -> Result<(u32, u32), String> {
    let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if b.len() < 24 || b[..8] != *b"\x89PNG\r\n\x1a\n" {
        return Err(format!("{} is not a PNG", path.display()));
    }
    if &b[12..16] != b"IHDR" {
        return Err(format!("{} has no IHDR first", path.display()));
    }
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    Ok((be(16), be(20)))
}
