//! The Riddles.io engine protocol for GOLAD, as a pure codec: one text line
//! in, one typed [`Event`] out (and back: `Display` writes the exact line the
//! engine sends). [`BotView`] folds the events into what a bot knows and says
//! when it must answer. No I/O happens here.
//!
//! The written specification is `protocol/riddles-golad/README.md`; the
//! recorded transcripts beside it are the reference for every line.

use std::fmt;

use crate::games::golad::moves::Move;
use crate::search::Seat;

/// Players in a GOLAD game.
pub const PLAYERS: usize = 2;
/// Field size the engine announces.
pub const FIELD_WIDTH: usize = 18;
pub const FIELD_HEIGHT: usize = 16;
/// Rounds when the engine does not say.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;
/// The engine's default time bank and increment per move, in milliseconds.
pub const DEFAULT_TIMEBANK_MS: u64 = 10_000;
pub const DEFAULT_TIME_PER_MOVE_MS: u64 = 100;

/// One `settings KEY VALUE` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `player_names player0,player1`
    PlayerNames(Vec<String>),
    /// `your_bot playerK`
    YourBot(String),
    /// `timebank MS`: the maximum (and initial) time bank.
    Timebank(u64),
    /// `time_per_move MS`: added to the bank after each answer.
    TimePerMove(u64),
    /// `your_botid K`
    YourBotId(Seat),
    FieldWidth(usize),
    FieldHeight(usize),
    MaxRounds(u32),
}

/// One line from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Settings(Setting),
    /// `update game round R` (1-based; the same number for both players).
    Round(u32),
    /// `update game field CELLS` (comma-separated `.`, `0`, `1`, row-major).
    Field(String),
    /// `update playerK living_cells N`
    LivingCells {
        player: Seat,
        n: u32,
    },
    /// `update playerK move M` (underscore form; `null` = none or invalid).
    OpponentMove {
        player: Seat,
        mv: Option<Move>,
    },
    /// `action move T`: answer now; T = this bot's time bank in ms.
    ActionMove {
        time_bank_ms: u64,
    },
}

/// Why a line is not a protocol line (the bot logs it and skips it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineError(pub String);

fn err<T>(line: &str, why: impl fmt::Display) -> Result<T, LineError> {
    Err(LineError(format!("{why}: '{}'", shorten(line))))
}

/// A line cut to a length fit for a log.
fn shorten(line: &str) -> String {
    const MAX: usize = 120;
    if line.chars().count() <= MAX {
        line.to_string()
    } else {
        let mut s: String = line.chars().take(MAX).collect();
        s.push_str("...");
        s
    }
}

fn number<T: std::str::FromStr>(line: &str, what: &str, s: &str) -> Result<T, LineError> {
    match s.parse() {
        Ok(v) => Ok(v),
        Err(_) => err(
            line,
            format!("{what} '{}' is not a valid number", shorten(s)),
        ),
    }
}

/// `playerK` -> K (0 or 1).
fn player(line: &str, s: &str) -> Result<Seat, LineError> {
    match s {
        "player0" => Ok(0),
        "player1" => Ok(1),
        _ => err(line, format!("unknown player '{}'", shorten(s))),
    }
}

/// Checks the cells of a field string: `.`, `0` or `1`, comma-separated.
fn check_field(line: &str, cells: &str) -> Result<(), LineError> {
    for (i, c) in cells.split(',').enumerate() {
        if !matches!(c, "." | "0" | "1") {
            return err(
                line,
                format!("field cell {i} is '{}', not '.', '0' or '1'", shorten(c)),
            );
        }
    }
    Ok(())
}

/// Parses one engine line. Tokens are separated by spaces; a trailing `\r`
/// is ignored. Unknown or malformed lines are errors.
pub fn parse_line(line: &str) -> Result<Event, LineError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let t: Vec<&str> = line.split_whitespace().collect();
    match t.as_slice() {
        [] => err(line, "empty line"),
        ["settings", key, value] => parse_setting(line, key, value).map(Event::Settings),
        ["update", "game", "round", r] => Ok(Event::Round(number(line, "round", r)?)),
        ["update", "game", "field", f] => {
            check_field(line, f)?;
            Ok(Event::Field(f.to_string()))
        }
        ["update", p, "living_cells", n] => Ok(Event::LivingCells {
            player: player(line, p)?,
            n: number(line, "living_cells", n)?,
        }),
        ["update", p, "move", m] => {
            let player = player(line, p)?;
            let mv = match *m {
                "null" => None,
                m => match Move::parse_with(m, '_') {
                    Ok(mv) => Some(mv),
                    Err(e) => return err(line, format!("bad move ({})", shorten(&e.0))),
                },
            };
            Ok(Event::OpponentMove { player, mv })
        }
        ["action", "move", t] => {
            // A negative bank is read as an empty one.
            let bank: i64 = number(line, "time bank", t)?;
            Ok(Event::ActionMove {
                time_bank_ms: bank.max(0) as u64,
            })
        }
        ["settings", ..] => err(line, "a settings line needs exactly a key and a value"),
        ["update", ..] => err(line, "unknown update line"),
        ["action", ..] => err(line, "unknown action line"),
        _ => err(line, "unknown line"),
    }
}

fn parse_setting(line: &str, key: &str, value: &str) -> Result<Setting, LineError> {
    Ok(match key {
        "player_names" => Setting::PlayerNames(value.split(',').map(str::to_string).collect()),
        "your_bot" => Setting::YourBot(value.to_string()),
        "timebank" => Setting::Timebank(number(line, "timebank", value)?),
        "time_per_move" => Setting::TimePerMove(number(line, "time_per_move", value)?),
        "your_botid" => match number::<usize>(line, "your_botid", value)? {
            id if id < PLAYERS => Setting::YourBotId(id),
            id => return err(line, format!("your_botid {id} is not 0 or 1")),
        },
        "field_width" => Setting::FieldWidth(number(line, "field_width", value)?),
        "field_height" => Setting::FieldHeight(number(line, "field_height", value)?),
        "max_rounds" => Setting::MaxRounds(number(line, "max_rounds", value)?),
        _ => return err(line, format!("unknown setting '{}'", shorten(key))),
    })
}

/// True if `line` asks for a move, even when it cannot be parsed (a bot
/// answers such a line rather than leave the engine waiting).
pub fn is_move_request(line: &str) -> bool {
    let mut t = line.split_whitespace();
    t.next() == Some("action") && t.next() == Some("move")
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::PlayerNames(names) => write!(f, "player_names {}", names.join(",")),
            Setting::YourBot(name) => write!(f, "your_bot {name}"),
            Setting::Timebank(ms) => write!(f, "timebank {ms}"),
            Setting::TimePerMove(ms) => write!(f, "time_per_move {ms}"),
            Setting::YourBotId(id) => write!(f, "your_botid {id}"),
            Setting::FieldWidth(w) => write!(f, "field_width {w}"),
            Setting::FieldHeight(h) => write!(f, "field_height {h}"),
            Setting::MaxRounds(n) => write!(f, "max_rounds {n}"),
        }
    }
}

impl fmt::Display for Event {
    /// The line exactly as the engine writes it (without the newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Settings(s) => write!(f, "settings {s}"),
            Event::Round(r) => write!(f, "update game round {r}"),
            Event::Field(cells) => write!(f, "update game field {cells}"),
            Event::LivingCells { player, n } => write!(f, "update player{player} living_cells {n}"),
            Event::OpponentMove { player, mv } => match mv {
                Some(m) => write!(f, "update player{player} move {}", m.to_engine_string()),
                None => write!(f, "update player{player} move null"),
            },
            Event::ActionMove { time_bank_ms } => write!(f, "action move {time_bank_ms}"),
        }
    }
}

/// What the engine tells both bots once, in its order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSettings {
    pub timebank_ms: u64,
    pub time_per_move_ms: u64,
    pub max_rounds: u32,
}

impl Default for MatchSettings {
    fn default() -> Self {
        MatchSettings {
            timebank_ms: DEFAULT_TIMEBANK_MS,
            time_per_move_ms: DEFAULT_TIME_PER_MOVE_MS,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

/// `playerK`
pub fn player_name(seat: Seat) -> String {
    format!("player{seat}")
}

/// The eight `settings` lines for the bot in `seat`, in the engine's order.
pub fn settings_events(seat: Seat, s: &MatchSettings) -> Vec<Event> {
    vec![
        Setting::PlayerNames((0..PLAYERS).map(player_name).collect()),
        Setting::YourBot(player_name(seat)),
        Setting::Timebank(s.timebank_ms),
        Setting::TimePerMove(s.time_per_move_ms),
        Setting::YourBotId(seat),
        Setting::FieldWidth(FIELD_WIDTH),
        Setting::FieldHeight(FIELD_HEIGHT),
        Setting::MaxRounds(s.max_rounds),
    ]
    .into_iter()
    .map(Event::Settings)
    .collect()
}

/// The lines sent to the bot in `mover` before it moves, ending with
/// `action move`: round, field, then for each player in seat order its
/// `living_cells` line, followed (for the other player only) by that
/// player's last move (`None` = `null`: no move yet, or it was invalid).
pub fn turn_events(
    mover: Seat,
    round: u32,
    field: &str,
    living_cells: [u32; PLAYERS],
    opponent_move: Option<Move>,
    time_bank_ms: u64,
) -> Vec<Event> {
    let mut v = vec![Event::Round(round), Event::Field(field.to_string())];
    for (player, &n) in living_cells.iter().enumerate() {
        v.push(Event::LivingCells { player, n });
        if player != mover {
            v.push(Event::OpponentMove {
                player,
                mv: opponent_move,
            });
        }
    }
    v.push(Event::ActionMove { time_bank_ms });
    v
}

/// The time bank after an answer that took `elapsed_ms`:
/// `min(max(bank - elapsed, 0) + time_per_move, timebank)`.
pub fn next_time_bank(
    bank_ms: u64,
    elapsed_ms: u64,
    time_per_move_ms: u64,
    timebank_ms: u64,
) -> u64 {
    bank_ms
        .saturating_sub(elapsed_ms)
        .saturating_add(time_per_move_ms)
        .min(timebank_ms)
}

/// What a bot needs to choose a move, taken from a [`BotView`] at `action move`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    /// Our seat (the player to move).
    pub me: Seat,
    pub round: u32,
    /// The field string as received.
    pub field: String,
    /// The `living_cells` lines of this turn (None if not received).
    pub living_cells: [Option<u32>; PLAYERS],
    /// The opponent's last move as told this turn (None: `null` or not told).
    pub opponent_move: Option<Move>,
    pub max_rounds: u32,
    pub time_bank_ms: u64,
    /// `time_per_move` from the settings, if given.
    pub time_per_move_ms: Option<u64>,
}

/// What a bot knows, folded from the engine's lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotView {
    pub player_names: Vec<String>,
    pub your_bot: Option<String>,
    pub your_botid: Option<Seat>,
    pub timebank_ms: Option<u64>,
    pub time_per_move_ms: Option<u64>,
    pub field_width: Option<usize>,
    pub field_height: Option<usize>,
    pub max_rounds: Option<u32>,
    /// The round of the current turn.
    pub round: Option<u32>,
    /// This turn's field (cleared by each `round` line).
    pub field: Option<String>,
    /// This turn's counts (cleared by each `round` line).
    pub living_cells: [Option<u32>; PLAYERS],
    /// This turn's opponent move (cleared by each `round` line).
    pub opponent_move: Option<Move>,
    /// `action move` lines seen.
    pub requests: u32,
}

impl BotView {
    pub fn new() -> Self {
        Self::default()
    }

    /// Our seat: `your_botid`, else the digit of `your_bot`.
    pub fn me(&self) -> Option<Seat> {
        let from_name = match self.your_bot.as_deref() {
            Some("player0") => Some(0),
            Some("player1") => Some(1),
            _ => None,
        };
        self.your_botid.or(from_name)
    }

    /// Folds one event in. On `action move` returns the request to answer,
    /// or why the view cannot describe the position (the bot then passes).
    pub fn apply(&mut self, ev: Event) -> Option<Result<MoveRequest, String>> {
        match ev {
            Event::Settings(s) => {
                match s {
                    Setting::PlayerNames(n) => self.player_names = n,
                    Setting::YourBot(b) => self.your_bot = Some(b),
                    Setting::Timebank(ms) => self.timebank_ms = Some(ms),
                    Setting::TimePerMove(ms) => self.time_per_move_ms = Some(ms),
                    Setting::YourBotId(id) => self.your_botid = Some(id),
                    Setting::FieldWidth(w) => self.field_width = Some(w),
                    Setting::FieldHeight(h) => self.field_height = Some(h),
                    Setting::MaxRounds(n) => self.max_rounds = Some(n),
                }
                None
            }
            Event::Round(r) => {
                self.round = Some(r);
                self.field = None;
                self.living_cells = [None; PLAYERS];
                self.opponent_move = None;
                None
            }
            Event::Field(f) => {
                self.field = Some(f);
                None
            }
            Event::LivingCells { player, n } => {
                if let Some(slot) = self.living_cells.get_mut(player) {
                    *slot = Some(n);
                }
                None
            }
            Event::OpponentMove { player, mv } => {
                if Some(player) != self.me() {
                    self.opponent_move = mv;
                }
                None
            }
            Event::ActionMove { time_bank_ms } => {
                self.requests += 1;
                Some(self.request(time_bank_ms))
            }
        }
    }

    fn request(&self, time_bank_ms: u64) -> Result<MoveRequest, String> {
        let me = self
            .me()
            .ok_or("no your_botid (nor your_bot) setting yet")?;
        let round = self.round.ok_or("no round line yet")?;
        let field = self.field.clone().ok_or("no field line this turn")?;
        let want = self
            .field_width
            .unwrap_or(FIELD_WIDTH)
            .saturating_mul(self.field_height.unwrap_or(FIELD_HEIGHT));
        let cells = field.split(',').count();
        if cells != want {
            return Err(format!("the field has {cells} cells, not {want}"));
        }
        Ok(MoveRequest {
            me,
            round,
            field,
            living_cells: self.living_cells,
            opponent_move: self.opponent_move,
            max_rounds: self.max_rounds.unwrap_or(DEFAULT_MAX_ROUNDS),
            time_bank_ms,
            time_per_move_ms: self.time_per_move_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::moves::Cell;

    fn field() -> String {
        let mut cells = vec!["."; FIELD_WIDTH * FIELD_HEIGHT];
        cells[0] = "0";
        cells[287] = "1";
        cells.join(",")
    }

    #[test]
    fn every_line_kind_parses_and_prints_back_exactly() {
        let f = format!("update game field {}", field());
        let lines = [
            "settings player_names player0,player1",
            "settings your_bot player1",
            "settings timebank 10000",
            "settings time_per_move 100",
            "settings your_botid 1",
            "settings field_width 18",
            "settings field_height 16",
            "settings max_rounds 100",
            "update game round 7",
            f.as_str(),
            "update player0 living_cells 48",
            "update player0 move birth_17,9_16,6_3,0",
            "update player1 move kill_3,8",
            "update player1 move pass",
            "update player0 move null",
            "update player1 living_cells 0",
            "action move 10000",
        ];
        for l in lines {
            let ev = parse_line(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            assert_eq!(ev.to_string(), l);
        }
        assert_eq!(
            parse_line("update player0 move birth_17,9_16,6_3,0\r").unwrap(),
            Event::OpponentMove {
                player: 0,
                mv: Some(Move::Birth {
                    at: Cell { x: 17, y: 9 },
                    sacrifice: [Cell { x: 16, y: 6 }, Cell { x: 3, y: 0 }]
                })
            }
        );
        assert_eq!(
            parse_line("action move -5").unwrap(),
            Event::ActionMove { time_bank_ms: 0 }
        );
    }

    #[test]
    fn malformed_and_unknown_lines_are_errors() {
        for bad in [
            "",
            "   ",
            "hello",
            "settings",
            "settings timebank",
            "settings timebank ten",
            "settings your_botid 2",
            "settings colour red",
            "update game round x",
            "update game round -1",
            "update game field .,0,2",
            "update game turn 3",
            "update player2 living_cells 3",
            "update player0 living_cells -3",
            "update player0 move kill_99,99",
            "update player0 move kill 3,4",
            "update player0 score 3",
            "action move",
            "action move soon",
            "action skip 100",
            "round 1",
        ] {
            assert!(parse_line(bad).is_err(), "{bad:?} parsed");
        }
        // Each error says what is wrong, before the line it quotes.
        for (bad, why) in [
            ("", "empty line: ''"),
            ("   ", "empty line: "),
            ("settings colour red", "unknown setting 'colour': "),
            (
                "settings timebank",
                "a settings line needs exactly a key and a value: ",
            ),
            (
                "settings a b c",
                "a settings line needs exactly a key and a value: ",
            ),
            ("update player0 score 3", "unknown update line: "),
            ("action skip 100", "unknown action line: "),
            ("round 1", "unknown line: 'round 1'"),
        ] {
            let e = parse_line(bad).unwrap_err();
            assert!(e.0.starts_with(why), "{bad:?}: {e}");
        }
        assert!(is_move_request("action move soon"));
        assert!(!is_move_request("action skip 100"));
    }

    #[test]
    fn errors_stay_short_whatever_the_line() {
        // Found by fuzz/ (riddles_engine_line): the move parser's error
        // quoted the whole move, however long.
        for bad in [
            format!("update player0 move kill_{}", "9".repeat(10_000)),
            format!("update player0 move birth_1,1_2,2_{}", "é".repeat(10_000)),
            format!("settings timebank {}", "1".repeat(10_000)),
            format!("update game field {}", ".,".repeat(10_000) + "x"),
        ] {
            let e = parse_line(&bad).unwrap_err();
            assert!(
                e.0.chars().count() < 400,
                "{} characters",
                e.0.chars().count()
            );
        }
    }

    #[test]
    fn engine_lines_follow_the_transcript_order() {
        let s: Vec<String> = settings_events(1, &MatchSettings::default())
            .iter()
            .map(Event::to_string)
            .collect();
        assert_eq!(
            s,
            [
                "settings player_names player0,player1",
                "settings your_bot player1",
                "settings timebank 10000",
                "settings time_per_move 100",
                "settings your_botid 1",
                "settings field_width 18",
                "settings field_height 16",
                "settings max_rounds 100",
            ]
        );
        let shape = |mover| -> Vec<String> {
            turn_events(mover, 3, "F", [40, 41], Some(Move::Pass), 9000)
                .iter()
                .map(Event::to_string)
                .collect()
        };
        assert_eq!(
            shape(0),
            [
                "update game round 3",
                "update game field F",
                "update player0 living_cells 40",
                "update player1 living_cells 41",
                "update player1 move pass",
                "action move 9000",
            ]
        );
        assert_eq!(
            shape(1),
            [
                "update game round 3",
                "update game field F",
                "update player0 living_cells 40",
                "update player0 move pass",
                "update player1 living_cells 41",
                "action move 9000",
            ]
        );
        let null = turn_events(0, 1, "F", [40, 40], None, 10_000);
        assert_eq!(null[4].to_string(), "update player1 move null");
    }

    #[test]
    fn time_bank_arithmetic() {
        assert_eq!(next_time_bank(10_000, 30, 100, 10_000), 10_000);
        assert_eq!(next_time_bank(10_000, 300, 100, 10_000), 9_800);
        assert_eq!(next_time_bank(1_000, 1_002, 100, 1_000), 100);
        assert_eq!(next_time_bank(500, 0, 100, 1_000), 600);
    }

    #[test]
    fn the_view_folds_a_turn_into_a_request() {
        let mut v = BotView::new();
        let mut feed = |l: &str| v.apply(parse_line(l).unwrap());
        for e in settings_events(
            1,
            &MatchSettings {
                max_rounds: 5,
                ..Default::default()
            },
        ) {
            assert!(feed(&e.to_string()).is_none());
        }
        // A request before any field cannot be answered from the view.
        assert!(feed("action move 10000").unwrap().is_err());
        let f = field();
        for e in turn_events(
            1,
            2,
            &f,
            [1, 1],
            Some(Move::Kill(Cell { x: 0, y: 0 })),
            10_000,
        ) {
            if let Some(r) = feed(&e.to_string()) {
                let r = r.unwrap();
                assert_eq!(
                    r,
                    MoveRequest {
                        me: 1,
                        round: 2,
                        field: f.clone(),
                        living_cells: [Some(1), Some(1)],
                        opponent_move: Some(Move::Kill(Cell { x: 0, y: 0 })),
                        max_rounds: 5,
                        time_bank_ms: 10_000,
                        time_per_move_ms: Some(100),
                    }
                );
            }
        }
        // The next round clears the turn's data.
        assert!(feed("update game round 3").is_none());
        assert!(feed("update game field .,0,1").is_none());
        let e = feed("action move 100").unwrap().unwrap_err();
        assert!(e.contains("3 cells"), "{e}");
        assert_eq!(v.requests, 3);
        assert_eq!(v.opponent_move, None);
    }

    #[test]
    fn every_recorded_engine_line_parses_and_prints_back_exactly() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("protocol/riddles-golad/transcripts");
        let mut files = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with(".txt") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let mut view = BotView::new();
            for l in text.lines().filter_map(|l| l.strip_prefix("< ")) {
                let ev = parse_line(l).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(ev.to_string(), l);
                if let Some(r) = view.apply(ev) {
                    let r = r.unwrap();
                    assert!(r.living_cells.iter().all(Option::is_some));
                }
            }
            assert!(view.requests > 0);
        }
        assert_eq!(files, 8);
    }

    #[test]
    fn a_huge_field_size_is_refused_not_overflowed() {
        // Found by fuzz/ (riddles_engine_line): field_width * field_height
        // overflowed (a panic with overflow checks).
        let mut v = BotView::new();
        for l in [
            "settings your_botid 0",
            "settings field_height 18446744073709551615",
            "update game round 1",
            "update game field .,0,1",
        ] {
            assert!(v.apply(parse_line(l).unwrap()).is_none());
        }
        let e = v
            .apply(parse_line("action move 100").unwrap())
            .unwrap()
            .unwrap_err();
        assert!(e.contains("3 cells"), "{e}");
    }

    #[test]
    fn the_seat_comes_from_your_bot_when_the_id_is_missing() {
        let mut v = BotView::new();
        v.apply(parse_line("settings your_bot player0").unwrap());
        assert_eq!(v.me(), Some(0));
        let mut v = BotView::new();
        v.apply(parse_line("settings your_bot somebody").unwrap());
        assert_eq!(v.me(), None);
        let mut v = BotView::new();
        v.apply(parse_line("settings your_bot player1").unwrap());
        assert_eq!(v.me(), Some(1));
        // Our own move line (not sent by the engine) is ignored.
        v.apply(parse_line("update player1 move pass").unwrap());
        assert_eq!(v.opponent_move, None);
    }
}
