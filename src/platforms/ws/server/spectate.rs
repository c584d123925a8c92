//! What spectators see: every game in progress and the last finished ones,
//! position by position, as the live page (`GET /game/ID`) and the list
//! (`GET /`) ask for them over HTTP (see `http`).
//!
//! - While a game runs, a position is its [`PlayableGame::public_json`]
//!   (nothing a seat may not see: Geister's colours, Puyo's pairs to come)
//!   and a move what the mover's opponent is shown of it
//!   ([`PlayableGame::shown_move`]); once the game is over, its true states
//!   replace them.
//! - Read-only: spectators only read this; the game loop writes it. Each
//!   position and turn is serialized once, when it happens, so a poll is a
//!   copy of strings under a short lock: spectators cost the players
//!   nothing they could feel.
//!
//! [`PlayableGame::public_json`]: crate::games::PlayableGame::public_json
//! [`PlayableGame::shown_move`]: crate::games::PlayableGame::shown_move

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::sync::watch;

/// Finished games kept for spectators (the oldest are dropped).
pub(crate) const KEEP_FINISHED: usize = 32;

/// One game as spectators see it.
struct LiveGame {
    id: String,
    game: &'static str,
    players: [String; 2],
    number: u32,
    of: u32,
    started_ms: u64,
    /// Public positions: the start, then one per turn (JSON text).
    public: Vec<Arc<str>>,
    /// True positions, shown once the game is over.
    truth: Vec<Arc<str>>,
    /// One per turn: `{"movers", "first", "moves", "ms"}` (JSON text), the
    /// moves as spectators are shown them while the game runs.
    turns: Vec<Arc<str>>,
    /// The moves in full, for the turns once the game is over.
    true_turns: Vec<Arc<str>>,
    /// How it ended: `{"winner", "result", "reason", "detail", "ending"}`.
    end: Option<Value>,
}

impl LiveGame {
    fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "number": self.number,
            "of": self.of,
            "started_ms": self.started_ms,
            "turns": self.turns.len(),
            "over": self.end.is_some(),
            "end": self.end,
        })
    }
}

#[derive(Default)]
struct Board {
    /// By the server's game counter: the newest last.
    games: BTreeMap<u64, LiveGame>,
    finished: VecDeque<u64>,
    by_id: BTreeMap<String, u64>,
}

/// Every game spectators may watch, and a signal each time one changes.
pub(crate) struct Spectators {
    board: Mutex<Board>,
    changed: watch::Sender<u64>,
}

/// The start of a game, for [`Spectators::start`].
pub(crate) struct Started<'a> {
    pub n: u64,
    pub id: &'a str,
    pub game: &'static str,
    pub players: [String; 2],
    pub number: u32,
    pub of: u32,
    pub started_ms: u64,
    pub public: &'a Value,
    pub truth: &'a Value,
}

/// What a spectator asks of one game: the positions from `have` on.
#[derive(Debug, PartialEq)]
pub(crate) enum Poll {
    Unknown,
    /// The JSON answer.
    Answer(String),
}

impl Default for Spectators {
    fn default() -> Self {
        Spectators {
            board: Mutex::new(Board::default()),
            changed: watch::channel(0).0,
        }
    }
}

fn text(v: &Value) -> Arc<str> {
    Arc::from(v.to_string())
}

fn join(parts: &[Arc<str>]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum::<usize>() + 2);
    s.push('[');
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(p);
    }
    s.push(']');
    s
}

impl Spectators {
    fn lock(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// A receiver that wakes when any game changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    pub fn start(&self, s: Started<'_>) {
        {
            let mut b = self.lock();
            b.by_id.insert(s.id.to_string(), s.n);
            b.games.insert(
                s.n,
                LiveGame {
                    id: s.id.to_string(),
                    game: s.game,
                    players: s.players,
                    number: s.number,
                    of: s.of,
                    started_ms: s.started_ms,
                    public: vec![text(s.public)],
                    truth: vec![text(s.truth)],
                    turns: Vec::new(),
                    true_turns: Vec::new(),
                    end: None,
                },
            );
        }
        self.bump();
    }

    /// A turn was played: `shown` is the turn as spectators see it while
    /// the game runs, `full` with every move.
    pub fn turn(&self, n: u64, shown: &Value, full: &Value, public: &Value, truth: &Value) {
        {
            let mut b = self.lock();
            let Some(g) = b.games.get_mut(&n) else { return };
            g.turns.push(text(shown));
            g.true_turns.push(text(full));
            g.public.push(text(public));
            g.truth.push(text(truth));
        }
        self.bump();
    }

    /// The game is over (or aborted): its true states are shown from now on.
    pub fn end(&self, n: u64, end: Value) {
        {
            let mut b = self.lock();
            let Some(g) = b.games.get_mut(&n) else { return };
            g.end = Some(end);
            b.finished.push_back(n);
            while b.finished.len() > KEEP_FINISHED {
                if let Some(old) = b.finished.pop_front() {
                    if let Some(g) = b.games.remove(&old) {
                        b.by_id.remove(&g.id);
                    }
                }
            }
        }
        self.bump();
    }

    /// Every game kept, the newest first: `{"games": [...]}`.
    pub fn list(&self) -> String {
        let b = self.lock();
        let games: Vec<Value> = b.games.values().rev().map(LiveGame::summary).collect();
        json!({ "games": games }).to_string()
    }

    /// The game kind of game `id`, if it is kept.
    pub fn kind_of(&self, id: &str) -> Option<&'static str> {
        let b = self.lock();
        let n = b.by_id.get(id)?;
        b.games.get(n).map(|g| g.game)
    }

    /// How many positions game `id` has (None: not kept), and whether it
    /// is over.
    pub fn progress(&self, id: &str) -> Option<(usize, bool)> {
        let b = self.lock();
        let n = b.by_id.get(id)?;
        b.games.get(n).map(|g| (g.public.len(), g.end.is_some()))
    }

    /// Game `id` for a spectator that has its first `have` positions:
    /// while it runs, the public positions and turns from there on; once
    /// it is over, every true position and turn with how it ended
    /// (`"over": true`, the spectator replaces what it had).
    pub fn poll(&self, id: &str, have: usize) -> Poll {
        let b = self.lock();
        let Some(g) = b.by_id.get(id).and_then(|n| b.games.get(n)) else {
            return Poll::Unknown;
        };
        let head = format!(
            "{{\"id\":{},\"game\":{},\"players\":{},\"number\":{},\"of\":{},\"started_ms\":{}",
            Value::from(g.id.as_str()),
            Value::from(g.game),
            json!(g.players),
            g.number,
            g.of,
            g.started_ms
        );
        let body = match &g.end {
            Some(end) => format!(
                "{head},\"over\":true,\"from\":0,\"states\":{},\"turns\":{},\"end\":{end}}}",
                join(&g.truth),
                join(&g.true_turns)
            ),
            None => {
                let from = have.min(g.public.len());
                // Turn k leads to position k + 1.
                let turns_from = from.saturating_sub(1).min(g.turns.len());
                format!(
                    "{head},\"over\":false,\"from\":{from},\"states\":{},\"turns_from\":{turns_from},\"turns\":{}}}",
                    join(&g.public[from..]),
                    join(&g.turns[turns_from..])
                )
            }
        };
        Poll::Answer(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started<'a>(n: u64, id: &'a str, v: &'a Value) -> Started<'a> {
        Started {
            n,
            id,
            game: "four3d",
            players: ["a".into(), "b".into()],
            number: 1,
            of: 2,
            started_ms: 5,
            public: v,
            truth: v,
        }
    }

    fn answer(s: &Spectators, id: &str, have: usize) -> Value {
        match s.poll(id, have) {
            Poll::Answer(t) => serde_json::from_str(&t).unwrap(),
            Poll::Unknown => panic!("unknown"),
        }
    }

    #[test]
    fn a_running_game_shows_public_states_and_the_end_reveals_the_truth() {
        let s = Spectators::default();
        let mut rx = s.subscribe();
        let (public, truth) = (json!({"p": 0}), json!({"t": 0}));
        s.start(Started {
            truth: &truth,
            ..started(7, "g-7", &public)
        });
        assert!(rx.has_changed().unwrap());
        rx.mark_unchanged();
        s.turn(
            7,
            &json!({"moves": [null]}),
            &json!({"moves": ["secret"]}),
            &json!({"p": 1}),
            &json!({"t": 1}),
        );
        assert!(rx.has_changed().unwrap());
        let a = answer(&s, "g-7", 0);
        assert_eq!(a["over"], false);
        assert_eq!(a["states"], json!([{"p": 0}, {"p": 1}]));
        assert_eq!(a["turns"], json!([{"moves": [null]}]));
        assert!(!a.to_string().contains("secret") && !a.to_string().contains("\"t\""));
        // Only what is new.
        let a = answer(&s, "g-7", 2);
        assert_eq!(
            (a["from"].clone(), a["states"].clone()),
            (json!(2), json!([]))
        );
        assert_eq!(a["turns_from"], 1);
        assert_eq!(a["turns"], json!([]));
        let a = answer(&s, "g-7", 1);
        assert_eq!(a["states"], json!([{"p": 1}]));
        assert_eq!(a["turns"], json!([{"moves": [null]}]));
        // A have beyond the game is clamped.
        assert_eq!(answer(&s, "g-7", 99)["from"], 2);
        s.end(7, json!({"result": "1-0"}));
        let a = answer(&s, "g-7", 2);
        assert_eq!(a["over"], true);
        assert_eq!(a["states"], json!([{"t": 0}, {"t": 1}]));
        assert_eq!(a["turns"], json!([{"moves": ["secret"]}]));
        assert_eq!(a["end"]["result"], "1-0");
        assert_eq!(s.poll("nope", 0), Poll::Unknown);
        assert_eq!(s.kind_of("g-7"), Some("four3d"));
        assert_eq!(s.progress("g-7"), Some((2, true)));
    }

    #[test]
    fn only_the_last_finished_games_are_kept_and_running_ones_never_dropped() {
        let s = Spectators::default();
        let v = json!({});
        s.start(started(0, "running", &v));
        for n in 1..=(KEEP_FINISHED as u64 + 5) {
            let id = format!("g-{n}");
            s.start(started(n, &id, &v));
            s.end(n, json!({}));
        }
        let list: Value = serde_json::from_str(&s.list()).unwrap();
        let games = list["games"].as_array().unwrap();
        assert_eq!(games.len(), KEEP_FINISHED + 1);
        assert_eq!(games[0]["id"], format!("g-{}", KEEP_FINISHED + 5));
        assert_eq!(games.last().unwrap()["id"], "running");
        assert_eq!(s.poll("g-1", 0), Poll::Unknown);
        assert!(s.kind_of("g-5").is_none() && s.kind_of("g-6").is_some());
    }
}
