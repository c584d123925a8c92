//! Bot mode on stdin/stdout for the Riddles.io GOLAD engine
//! (`ladderbot play golad --stdio`).
//!
//! A blocking tokio task reads stdin line by line and stamps each line with
//! the instant it was read. A request's clock starts when it was read, or
//! when the previous answer was written if it was read before that: an
//! engine sends a request only after reading the previous answer, so a
//! request already waiting in the pipe (a transcript piped at once, a slow
//! write of ours) is timed from the moment the engine could have sent it.
//! The bot folds the lines into a
//! [`BotView`](crate::platforms::riddles::codec::BotView); on `action move` it
//! rebuilds the [`GolState`], runs the agent on a [`SearchThread`] under
//! [`Limits::under_clock`] with allowance = min([`MAX_ANSWER_MS`], time
//! bank) less the margin, or under the `bank` time policy
//! ([`bank_limits`]), and writes exactly one line to stdout, flushed.
//! stdout carries nothing else; logs go to stderr.
//!
//! Nothing stops the bot but the end of stdin: a malformed or unknown line
//! is logged and skipped, and every `action move` gets an answer (`pass`
//! when the position is unknown, the search fails or overruns, or the
//! agent's move is illegal). A search that overruns its answer's limit
//! (a thread kept off its core on a loaded machine) is answered with the
//! best move it had ready ([`crate::search::Ready`]), `pass` only if it had
//! none. A line over [`lines::MAX_LINE`] is skipped with
//! a warning naming the limit (answered `pass` if it starts as a move
//! request), and a last line without its newline is ignored with a warning.

pub mod lines;

use std::io::Write;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::games::golad::{self, Field, GolState, Move};
use crate::games::AgentParams;
use crate::platforms::riddles::codec::{self as riddles, BotView, MoveRequest};
use crate::runtime::SearchThread;
use crate::search::deadline::bank_budget;
use crate::search::{Deadline, Limits};

/// Project rule: every answer within this many milliseconds of reading
/// `action move`, whatever the time bank says.
pub const MAX_ANSWER_MS: u64 = 100;

/// How every log line about a `pass` that the search did not choose (the
/// fallback: no position, a failed or overrun search, an illegal move)
/// begins, so that a check reading the bot's stderr can count them
/// (`check-answers --bot-log`).
pub const FORCED_PASS: &str = "forced pass";

pub use crate::search::LATE_SEARCH;

/// How the bot plays.
#[derive(Clone, Debug)]
pub struct StdioConfig {
    /// Agent name (see `golad::agents::NAMES`).
    pub agent: String,
    pub params: AgentParams,
    /// The bot's own budget per move (the clock still caps it).
    pub playouts: Option<u64>,
    pub time_ms: Option<u64>,
    /// Kept for I/O: the search stops this long before the allowance ends.
    pub margin_ms: u64,
    pub seed: u64,
    /// The longest an answer may take (normally [`MAX_ANSWER_MS`]).
    pub max_answer_ms: u64,
    /// Spend the time bank ([`bank_limits`]) instead of `max_answer_ms`.
    pub bank: bool,
    /// Think on the opponent's time, from each answer written to the next
    /// request ([`SearchThread::set_ponder`]).
    pub ponder: bool,
    /// When the process started ([`first_request_at`]); `None`: the first
    /// request is timed from when it was read.
    pub started: Option<Instant>,
}

/// How soon after the start a first request counts as written while the
/// process was starting.
pub const STARTUP_WINDOW: Duration = Duration::from_secs(1);

/// When the first request is timed from. An engine that writes it as soon
/// as it has started the bot (the Riddles.io engine and `referee golad`
/// send the settings and the first `action move` at once) has had its
/// clock running while the process started, which a loaded machine makes
/// tens of milliseconds (a campaign under two `yes` loads saw 40-60 ms,
/// and first answers of 107 and 120 ms on the referee's clock). So a first
/// request read within [`STARTUP_WINDOW`] of the start is timed from the
/// start, but from at most `shift` before it was read: one written later
/// than the start loses at most that much of its search.
pub fn first_request_at(read_at: Instant, started: Option<Instant>, shift: Duration) -> Instant {
    match started {
        Some(s) if read_at >= s && read_at - s < STARTUP_WINDOW => {
            read_at.checked_sub(shift).map_or(s, |m| m.max(s))
        }
        _ => read_at,
    }
}

/// How far before its reading [`first_request_at`] may time a first
/// request: the margin, but at most half of what the allowance leaves the
/// search after it, so that the search keeps half its time (`golad-best`:
/// 30 ms, a search to 30 ms after the reading instead of 60).
pub fn startup_shift(margin: Duration, allowance: Duration) -> Duration {
    margin.min(allowance.saturating_sub(margin) / 2)
}

/// The `bank` time policy's limits for one move: the soft limit is this
/// move's fair share of the bank and of the per-move time still to come
/// (`time_ms`, when set, is a floor for it), the hard limit up to three
/// times that but at most a quarter of the bank; both less the margin. The
/// hard limit is the allowance: the bot answers by then whatever happens.
/// Also returns the soft limit before the margin, for the log.
pub fn bank_limits(
    cfg: &StdioConfig,
    req: &MoveRequest,
    at: Instant,
) -> (Limits, Duration, Duration) {
    let bank = Duration::from_millis(req.time_bank_ms);
    let per_move = Duration::from_millis(req.time_per_move_ms.unwrap_or(0));
    // Our moves still to make, this one included.
    let moves_left = req.max_rounds.saturating_sub(req.round) + 1;
    let (soft, hard) = bank_budget(bank, per_move, moves_left, 3, 0.25);
    let soft = cfg
        .time_ms
        .map_or(soft, |t| soft.max(Duration::from_millis(t)).min(hard));
    let margin = Duration::from_millis(cfg.margin_ms);
    let limits = Limits {
        playouts: cfg.playouts,
        deadline: Some(Deadline::new(at, soft, hard, margin)),
    };
    (limits, hard, soft)
}

/// What happened while the bot ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StdioSummary {
    /// `action move` lines answered.
    pub answered: u32,
    /// Answers that are `pass` because no search result could be used.
    pub forced_passes: u32,
    /// Lines logged and skipped.
    pub skipped_lines: u32,
    /// What thinking on the opponent's time did (`ponder`).
    pub pondered: crate::runtime::PonderStats,
}

/// Lines with the instant each was read; closed at the end of input.
pub type Lines = mpsc::UnboundedReceiver<(lines::Line, Instant)>;

/// Reads stdin on a blocking tokio task. The channel closes at the end of
/// input (or on a read error, which is logged). Must run inside a runtime.
pub fn stdin_lines() -> Lines {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::task::spawn_blocking(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            match lines::read_line_blocking(&mut input, lines::MAX_LINE) {
                Ok(Some(line)) => {
                    if tx.send((line, Instant::now())).is_err() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read stdin; stopping");
                    break;
                }
            }
        }
    });
    rx
}

/// Plays on `input` until it ends, writing one line to `out` per
/// `action move`. Errors only if the agent cannot be built or `out` fails.
pub async fn run_bot(
    cfg: &StdioConfig,
    input: Lines,
    out: &mut (dyn Write + Send),
) -> Result<StdioSummary, String> {
    StdioBot::new(cfg, out)?.run(input).await
}

/// The bot between lines: the agent's search thread, the game as the lines
/// told it, the counts, when the last answer was written and where answers
/// go. [`StdioBot::run`] hands each line to its handler.
struct StdioBot<'a> {
    cfg: &'a StdioConfig,
    search: SearchThread<GolState>,
    view: BotView,
    summary: StdioSummary,
    /// When the last answer was written: no request can have been sent
    /// before it.
    answered_at: Option<Instant>,
    out: &'a mut (dyn Write + Send),
}

impl<'a> StdioBot<'a> {
    /// Builds the agent and starts its search thread.
    fn new(cfg: &'a StdioConfig, out: &'a mut (dyn Write + Send)) -> Result<Self, String> {
        let agent = golad::agents::build(&cfg.agent, &cfg.params, cfg.seed)?;
        let search = SearchThread::<GolState>::spawn(agent);
        search.set_ponder(cfg.ponder);
        tracing::info!(agent = %cfg.agent, playouts = ?cfg.playouts, time_ms = ?cfg.time_ms,
            margin_ms = cfg.margin_ms, ponder = cfg.ponder, "golad bot on stdin/stdout");
        Ok(StdioBot {
            cfg,
            search,
            view: BotView::new(),
            summary: StdioSummary::default(),
            answered_at: None,
            out,
        })
    }

    /// Reads `input` to its end, one handler per kind of line.
    async fn run(mut self, mut input: Lines) -> Result<StdioSummary, String> {
        while let Some((line, read_at)) = input.recv().await {
            match line {
                lines::Line::Full(l) => self.on_line(&l, read_at).await?,
                lines::Line::TooLong { start, bytes } => {
                    self.on_too_long(&start, bytes, read_at).await?
                }
                lines::Line::Unterminated(l) => self.on_unterminated(&l),
            }
        }
        Ok(self.on_end_of_input())
    }

    /// A whole line: folded into the view; a move request is answered, and
    /// a line that cannot be read skipped.
    async fn on_line(&mut self, line: &str, read_at: Instant) -> Result<(), String> {
        let request = match riddles::parse_line(line) {
            Ok(ev) => match self.view.apply(ev) {
                Some(r) => r,
                None => return Ok(()),
            },
            Err(e) if riddles::is_move_request(line) => {
                Err(format!("unreadable move request ({e})"))
            }
            Err(e) => {
                self.summary.skipped_lines += 1;
                tracing::warn!(error = %e, "skipping a line");
                return Ok(());
            }
        };
        self.on_request(request, read_at).await
    }

    /// A line over the limit: skipped, unless it starts as a move request
    /// (then answered, with `pass`).
    async fn on_too_long(
        &mut self,
        start: &str,
        bytes: usize,
        read_at: Instant,
    ) -> Result<(), String> {
        tracing::warn!(
            bytes,
            limit = lines::MAX_LINE,
            "a line over the limit of {} bytes; skipping it",
            lines::MAX_LINE
        );
        if !riddles::is_move_request(start) {
            self.summary.skipped_lines += 1;
            return Ok(());
        }
        // Still a request: answered, with `pass`.
        self.on_line(start, read_at).await
    }

    /// A last line without its newline: ignored.
    fn on_unterminated(&mut self, l: &str) {
        tracing::warn!(
            bytes = l.len(),
            "the input ended in the middle of a line; ignoring it"
        );
        self.summary.skipped_lines += 1;
    }

    /// A move request (or why it cannot be played: then `pass`), timed
    /// from when it was read or, if later, from our previous answer; its
    /// answer is written.
    async fn on_request(
        &mut self,
        request: Result<MoveRequest, String>,
        read_at: Instant,
    ) -> Result<(), String> {
        let at = match self.answered_at {
            Some(a) => read_at.max(a),
            None => first_request_at(
                read_at,
                self.cfg.started,
                startup_shift(
                    Duration::from_millis(self.cfg.margin_ms),
                    Duration::from_millis(self.cfg.max_answer_ms),
                ),
            ),
        };
        if at < read_at {
            tracing::debug!(
                waited_ms = (read_at - at).as_secs_f64() * 1e3,
                "the first request, read soon after the start: timed from the start"
            );
        }
        if at > read_at {
            tracing::debug!(
                queued_ms = (at - read_at).as_secs_f64() * 1e3,
                "a request read before our previous answer: timed from that answer"
            );
        }
        let (mv, forced) = match request {
            Ok(req) => self.on_move_request(&req, at).await,
            Err(why) => {
                tracing::warn!(%why, "{FORCED_PASS}: answering pass");
                (Move::Pass, true)
            }
        };
        self.send(mv, forced, at)
    }

    /// A readable move request becomes a search submitted to the agent
    /// (hook: where a request becomes a search): its move, and whether it
    /// is a forced pass ([`answer`]).
    async fn on_move_request(&mut self, req: &MoveRequest, at: Instant) -> (Move, bool) {
        answer(self.cfg, &self.search, req, at).await
    }

    /// Writes the answer to `mv`'s request, flushed, and books it
    /// ([`StdioBot::on_answer_written`]).
    fn send(&mut self, mv: Move, forced: bool, at: Instant) -> Result<(), String> {
        let written = writeln!(self.out, "{mv}").and_then(|_| self.out.flush());
        if let Err(e) = written {
            return Err(format!("cannot write the answer to stdout: {e}"));
        }
        self.on_answer_written(mv, forced, at);
        Ok(())
    }

    /// Our answer has been written (hook: the search is free until the
    /// next request): the next request is timed from now, and the answer
    /// counted.
    fn on_answer_written(&mut self, mv: Move, forced: bool, at: Instant) {
        self.answered_at = Some(Instant::now());
        self.summary.answered += 1;
        self.summary.forced_passes += u32::from(forced);
        tracing::debug!(answer = %mv, elapsed_ms = at.elapsed().as_secs_f64() * 1e3, "written");
    }

    /// The end of input: the counts.
    fn on_end_of_input(self) -> StdioSummary {
        self.search.stop_pondering();
        let mut summary = self.summary;
        summary.pondered = self.search.ponder_stats();
        tracing::info!(
            answered = summary.answered,
            forced_passes = summary.forced_passes,
            skipped_lines = summary.skipped_lines,
            ponders = summary.pondered.runs,
            pondered_evaluations = summary.pondered.work,
            pondered_s = summary.pondered.time.as_secs_f64(),
            "end of input"
        );
        summary
    }
}

/// The move for `req`, and whether it is a forced pass.
async fn answer(
    cfg: &StdioConfig,
    search: &SearchThread<GolState>,
    req: &MoveRequest,
    at: Instant,
) -> (Move, bool) {
    let field = match Field::from_riddles(&req.field) {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(error = %e, "{FORCED_PASS}: bad field; answering pass");
            return (Move::Pass, true);
        }
    };
    let counts = [field.count(0), field.count(1)];
    for (seat, told) in req.living_cells.iter().enumerate() {
        if let Some(n) = *told {
            if n != counts[seat] {
                tracing::warn!(
                    seat,
                    told = n,
                    field = counts[seat],
                    "living_cells disagrees with the field"
                );
            }
        }
    }
    let state = GolState::from_protocol(field, req.round, req.me, req.max_rounds);
    let margin = Duration::from_millis(cfg.margin_ms);
    let (limits, allowance, planned) = if cfg.bank {
        let (limits, allowance, soft) = bank_limits(cfg, req, at);
        (limits, allowance, Some(soft))
    } else {
        let allowance = Duration::from_millis(cfg.max_answer_ms.min(req.time_bank_ms));
        let limits = Limits::under_clock(cfg.playouts, cfg.time_ms, at, allowance, margin);
        (limits, allowance, None)
    };
    tracing::info!(round = req.round, me = req.me, cells0 = counts[0], cells1 = counts[1],
        living0 = ?req.living_cells[0], living1 = ?req.living_cells[1],
        opponent = %req.opponent_move.map_or("null".to_string(), |m| m.to_engine_string()),
        bank_ms = req.time_bank_ms, planned_ms = ?planned.map(|d| d.as_millis() as u64),
        "move request");
    if state.outcome().is_some() {
        tracing::warn!("{FORCED_PASS}: the game is already over on this field; answering pass");
        return (Move::Pass, true);
    }
    // The search stops at its hard limit; one kept off its core past it
    // (a loaded machine) is given up a quarter of the margin later, and the
    // move it had ready answered: the rest of the margin is for writing
    // the answer and for the engine's reading of it, which are late too on
    // such a machine.
    let hard = limits
        .deadline
        .map_or(at + allowance.saturating_sub(margin), |d| d.hard);
    let give_up = (hard + margin / 4).min(at + allowance.saturating_sub(margin / 2));
    let handle = search.submit(state, limits);
    searched(cfg, search, &state, handle, at, give_up, allowance).await
}

/// The search's answer by `give_up`: its move, and whether it is a forced
/// pass.
async fn searched(
    cfg: &StdioConfig,
    search: &SearchThread<GolState>,
    state: &GolState,
    handle: crate::runtime::SearchHandle<Move>,
    at: Instant,
    give_up: Instant,
    allowance: Duration,
) -> (Move, bool) {
    let ticket = handle.ticket();
    match tokio::time::timeout_at(give_up.into(), handle).await {
        Ok(Ok(d)) if state.is_legal(&d.mv) => {
            tracing::info!(answer = %d.mv, playouts = d.playouts, value = ?d.value,
                search_ms = at.elapsed().as_secs_f64() * 1e3, "answer");
            (d.mv, false)
        }
        Ok(Ok(d)) => {
            tracing::error!(agent = %cfg.agent, answer = %d.mv, "{FORCED_PASS}: the agent chose an illegal move; answering pass");
            (Move::Pass, true)
        }
        Ok(Err(e)) => {
            tracing::error!(error = %e, "{FORCED_PASS}: the search failed; answering pass");
            (Move::Pass, true)
        }
        Err(_) => {
            // The move the search had ready (a thread kept off its core on
            // a loaded machine); a pass only if it had none.
            let ready = search.ready(ticket).filter(|m| state.is_legal(m));
            search.cancel();
            match ready {
                Some(mv) => {
                    tracing::warn!(
                        allowance_ms = allowance.as_millis() as u64,
                        answer = %mv,
                        "{LATE_SEARCH}: answering its best move so far"
                    );
                    (mv, false)
                }
                None => {
                    tracing::warn!(
                        allowance_ms = allowance.as_millis() as u64,
                        "{FORCED_PASS}: the search overran with no move ready; answering pass"
                    );
                    (Move::Pass, true)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platforms::riddles::codec::{settings_events, turn_events, MatchSettings};

    fn cfg(agent: &str) -> StdioConfig {
        StdioConfig {
            agent: agent.into(),
            params: AgentParams::new(),
            playouts: None,
            time_ms: None,
            margin_ms: 20,
            seed: 1,
            max_answer_ms: MAX_ANSWER_MS,
            bank: false,
            ponder: false,
            started: None,
        }
    }

    async fn play(cfg: &StdioConfig, lines: &[String]) -> (StdioSummary, Vec<String>) {
        let (tx, rx) = mpsc::unbounded_channel();
        for l in lines {
            tx.send((lines::Line::Full(l.clone()), Instant::now()))
                .unwrap();
        }
        drop(tx);
        let mut out = Vec::new();
        let s = run_bot(cfg, rx, &mut out).await.unwrap();
        let text = String::from_utf8(out).unwrap();
        (s, text.lines().map(str::to_string).collect())
    }

    fn game_lines(seat: usize) -> (GolState, Vec<String>) {
        let st = GolState::start(7, 100);
        let mut lines: Vec<String> = settings_events(seat, &MatchSettings::default())
            .iter()
            .map(|e| e.to_string())
            .collect();
        let mut s = st;
        if seat == 1 {
            s.apply(Move::Pass);
        }
        let living = [s.field.count(0), s.field.count(1)];
        let prev = (seat == 1).then_some(Move::Pass);
        lines.extend(
            turn_events(seat, s.round, &s.field.to_riddles(), living, prev, 10_000)
                .iter()
                .map(|e| e.to_string()),
        );
        (s, lines)
    }

    #[tokio::test]
    async fn answers_every_request_with_one_legal_line() {
        for seat in 0..2 {
            let (state, lines) = game_lines(seat);
            let (s, out) = play(&cfg("random"), &lines).await;
            assert_eq!(out.len(), 1);
            let mv = Move::parse_reply(&out[0]).unwrap();
            assert!(state.is_legal(&mv), "{mv}");
            assert_eq!(
                s,
                StdioSummary {
                    answered: 1,
                    forced_passes: 0,
                    skipped_lines: 0,
                    pondered: Default::default(),
                }
            );
        }
    }

    #[tokio::test]
    async fn garbage_is_skipped_and_requests_without_a_position_get_pass() {
        let (_, mut lines) = game_lines(0);
        lines.insert(3, "hello".into());
        lines.insert(9, "update game field 2,2".into());
        lines.insert(0, "action move 100".into());
        lines.push("action move soon".into());
        let (s, out) = play(&cfg("random"), &lines).await;
        assert_eq!(out.len(), 3);
        assert_eq!(out[0], "pass");
        assert_eq!(out[2], "pass");
        assert!(Move::parse_reply(&out[1]).is_ok());
        assert_eq!(s.skipped_lines, 2);
        assert_eq!(s.forced_passes, 2);
    }

    #[test]
    fn a_first_request_read_soon_after_the_start_is_timed_from_the_start_or_a_margin_before() {
        let s = Instant::now();
        let margin = Duration::from_millis(40);
        let ms = Duration::from_millis;
        // Read 30 ms after the start: it may have waited all that time.
        assert_eq!(first_request_at(s + ms(30), Some(s), margin), s);
        // Read 70 ms after: timed from at most the margin before.
        assert_eq!(first_request_at(s + ms(70), Some(s), margin), s + ms(30));
        // Read long after the start: it came while the bot waited for it.
        let late = s + STARTUP_WINDOW + ms(1);
        assert_eq!(first_request_at(late, Some(s), margin), late);
        // No start given: when it was read.
        assert_eq!(first_request_at(s + ms(30), None, margin), s + ms(30));
        // The shift leaves the search half of its time after the margin.
        assert_eq!(startup_shift(ms(40), ms(100)), ms(30));
        assert_eq!(startup_shift(ms(20), ms(100)), ms(20));
        assert_eq!(startup_shift(ms(60), ms(100)), ms(20));
        assert_eq!(startup_shift(ms(150), ms(100)), ms(0));
    }

    /// Through the bot: a first request read 50 ms after the start (the
    /// margin is 20 ms) is searched as if written 20 ms before it was read.
    #[tokio::test]
    async fn the_bot_times_its_first_request_from_the_start() {
        let mut c = cfg("best");
        c.time_ms = Some(100);
        let (tx, rx) = mpsc::unbounded_channel();
        let start = Instant::now();
        tokio::time::sleep(Duration::from_millis(50)).await;
        c.started = Some(start);
        let (_, lines) = game_lines(0);
        let read_at = Instant::now();
        for l in &lines {
            tx.send((lines::Line::Full(l.clone()), read_at)).unwrap();
        }
        drop(tx);
        let mut out = Vec::new();
        let s = run_bot(&c, rx, &mut out).await.unwrap();
        let took = read_at.elapsed();
        assert_eq!(s.answered, 1);
        assert_eq!(s.forced_passes, 0);
        // The search's hard limit is 100 - 20 ms after the start it was
        // timed from (read - 20 ms): 60 ms after it was read, where
        // timing it from its reading would stop at 80 ms.
        assert!(took < Duration::from_millis(75), "{took:?}");
        let reply = String::from_utf8(out).unwrap();
        assert!(Move::parse_reply(reply.trim()).is_ok(), "{reply}");
    }

    #[test]
    fn the_bank_policy_spends_a_share_of_the_bank_and_stops_by_its_hard_limit() {
        let req = |bank: u64, round: u32| MoveRequest {
            me: 0,
            round,
            field: String::new(),
            living_cells: [None, None],
            opponent_move: None,
            max_rounds: 100,
            time_bank_ms: bank,
            time_per_move_ms: Some(100),
        };
        let mut c = cfg("best");
        c.bank = true;
        let at = Instant::now();
        let (limits, allowance, soft) = bank_limits(&c, &req(10_000, 1), at);
        assert_eq!(soft, Duration::from_millis(199));
        let d = limits.deadline.unwrap();
        // Soft 199 ms and hard 597 ms, less the 20 ms margin: far more
        // than the fixed policy's 100 ms cap, well inside the bank.
        assert_eq!(d.soft - at, Duration::from_millis(179));
        assert_eq!(d.hard - at, Duration::from_millis(577));
        assert_eq!(allowance, Duration::from_millis(597));
        // Late with a small bank: a quarter of it at most.
        let (limits, allowance, _) = bank_limits(&c, &req(400, 100), at);
        assert_eq!(allowance, Duration::from_millis(100));
        assert_eq!(
            limits.deadline.unwrap().hard - at,
            Duration::from_millis(80)
        );
        // `time_ms` is a floor for the soft limit, never past the hard one.
        c.time_ms = Some(300);
        let (limits, _, _) = bank_limits(&c, &req(10_000, 1), at);
        assert_eq!(
            limits.deadline.unwrap().soft - at,
            Duration::from_millis(280)
        );
    }

    #[tokio::test]
    async fn the_bank_policy_answers_legally() {
        let mut c = cfg("best");
        c.bank = true;
        for seat in 0..2 {
            let (state, lines) = game_lines(seat);
            let (s, out) = play(&c, &lines).await;
            assert_eq!(out.len(), 1);
            assert!(state.is_legal(&Move::parse_reply(&out[0]).unwrap()));
            assert_eq!(s.forced_passes, 0);
        }
    }

    /// Offers a kill of the opponent's first cell (or nothing), then
    /// overruns: it holds its thread until stopped, as a search kept off
    /// its core would.
    struct Stalls {
        offer: bool,
        ready: Option<std::sync::Arc<crate::search::Ready<Move>>>,
    }

    impl crate::search::Agent<GolState> for Stalls {
        fn name(&self) -> &str {
            "stalls"
        }
        fn keep_ready(&mut self, ready: std::sync::Arc<crate::search::Ready<Move>>) {
            self.ready = Some(ready);
        }
        fn select(
            &mut self,
            s: &GolState,
            _limits: &Limits,
            stop: &std::sync::atomic::AtomicBool,
        ) -> crate::search::Decision<Move> {
            let them = 1 - s.to_move;
            let mv = Move::Kill(s.field.living(them).next().unwrap());
            if self.offer {
                self.ready.as_ref().unwrap().offer(mv);
            }
            let start = Instant::now();
            while !stop.load(std::sync::atomic::Ordering::SeqCst)
                && start.elapsed() < Duration::from_secs(5)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            crate::search::Decision {
                mv,
                playouts: 1,
                value: None,
            }
        }
    }

    #[tokio::test]
    async fn a_search_that_overruns_is_answered_with_the_move_it_had_ready() {
        let st = GolState::start(7, 100);
        let req = MoveRequest {
            me: 0,
            round: st.round,
            field: st.field.to_riddles(),
            living_cells: [None, None],
            opponent_move: None,
            max_rounds: 100,
            time_bank_ms: 10_000,
            time_per_move_ms: Some(100),
        };
        let c = cfg("stalls");
        for offer in [true, false] {
            let search = SearchThread::<GolState>::spawn(Box::new(Stalls { offer, ready: None }));
            let at = Instant::now();
            let (mv, forced) = answer(&c, &search, &req, at).await;
            // Given up at the allowance less half the margin, not when the
            // agent let go (5 s): the answer is never late.
            assert!(at.elapsed() < Duration::from_secs(2));
            if offer {
                assert!(matches!(mv, Move::Kill(_)) && st.is_legal(&mv), "{mv}");
                assert!(!forced, "a move that was ready is no forced pass");
            } else {
                assert_eq!((mv, forced), (Move::Pass, true), "nothing ready: pass");
            }
            // A later search on the same thread does not find this one's move.
            let next = search.submit(st, Limits::playouts(1));
            let ticket = next.ticket();
            search.cancel();
            let _ = next.await;
            assert_eq!(search.ready(ticket), None);
        }
    }

    #[tokio::test]
    async fn an_unknown_agent_is_an_error() {
        let (_tx, rx) = mpsc::unbounded_channel();
        let mut out = Vec::new();
        assert!(run_bot(&cfg("nope"), rx, &mut out).await.is_err());
    }
}
