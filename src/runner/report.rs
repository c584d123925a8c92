//! The report of a match: the running tally, the summary from A's side
//! (score, Elo with its interval, LOS, SPRT, pentanomial pairs, endings,
//! openings) and its human rendering.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::openings::{self, OpeningOrder};
use super::{stats, SprtConfig};
use crate::records::{Opening, SideTotals};
use crate::search::Outcome;

/// The SPRT state at the end of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    pub elo0: f64,
    pub elo1: f64,
    /// Log-likelihood ratio (the GSPRT of fishtest and fastchess, logistic
    /// Elo) of the counted games in the report's [`MatchReport::model`]
    /// (pentanomial: their complete pairs).
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// "H1" or "H0" when a bound was crossed (the first crossing, which
    /// stopped the match; games still running then are counted in `llr`);
    /// "undecided" when every game of the match was played without a
    /// crossing (it ran out of games); otherwise "continue" (a match cut
    /// short, or a shard: more games would go on testing).
    pub decision: String,
}

/// Progress so far, from A's side; passed to the progress callback after
/// every finished game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub done: u32,
    pub total: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// A's mean score so far (0.5 with no games).
    pub fn score(&self) -> f64 {
        stats::score(self.wins, self.draws, self.losses)
    }
}

impl std::fmt::Display for Tally {
    /// `+W =D -L`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// The summary of a match, from A's side. Every number is finite.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchReport {
    pub game: String,
    pub a: String,
    pub b: String,
    /// Games played (and counted).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// A's mean score in 0..=1.
    pub score: f64,
    /// Elo difference A - B from `score`, capped at ±[`stats::ELO_CAP`].
    pub elo: f64,
    /// The model of the interval and of the SPRT: `pentanomial` (the
    /// complete pairs) when the match has a complete pair, else `trinomial`
    /// (the games).
    pub model: stats::Model,
    /// 95% likelihood-ratio interval of A's mean score in `model`; 1 (or 0)
    /// exactly when every pair or game was won (or lost): no bound on Elo.
    pub score_lo: f64,
    pub score_hi: f64,
    /// The interval in Elo, capped at ±[`stats::ELO_CAP`] (as `elo`): an
    /// end at the cap may lie beyond it or be unbounded (`score_lo`,
    /// `score_hi` say which).
    pub elo_lo: f64,
    pub elo_hi: f64,
    /// Likelihood that A is stronger than B.
    pub los: f64,
    pub sprt: Option<SprtResult>,
    /// Each side's work per move, in its unit (`a_unit`, `b_unit`:
    /// `playouts`, `nodes` for alpha-beta agents, `evaluations`).
    pub a_playouts_per_move: f64,
    pub b_playouts_per_move: f64,
    pub a_unit: String,
    pub b_unit: String,
    pub a_ms_per_move: f64,
    pub b_ms_per_move: f64,
    /// Each side's longest decision, in milliseconds.
    pub a_max_ms: f64,
    pub b_max_ms: f64,
    pub seed: u64,
    pub jobs: usize,
    /// How the games ended, for games whose records say (Geister).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endings: Option<Endings>,
    /// How the games were played when not in-process: `gat-tcp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// A's results by pairs of games (2k and 2k+1: the same start with the
    /// seats swapped), over the pairs whose two games were both played: how
    /// many pairs scored 0, 1/2, 1, 3/2 and 2 (fastchess's `Ptnml(0-2)`;
    /// a win and a loss count as 1, as two draws do).
    pub pentanomial: [u32; 5],
    /// The openings played, with each one's games and results (a match
    /// with openings only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningsReport>,
    /// What sides A and B could spend (`100 ms a move, margin 40 ms,
    /// pondering`): a match's own report only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budgets: Option<[String; 2]>,
}

/// The openings of a match: where they came from and how each fared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningsReport {
    /// The suite's file.
    pub source: String,
    /// Openings in the suite.
    pub count: usize,
    pub order: openings::OpeningOrder,
    /// One entry per opening played, in suite order.
    pub played: Vec<OpeningResult>,
}

/// How one opening fared, from A's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningResult {
    /// Its place in the suite, from 0.
    pub index: usize,
    /// Its line in the file, from 1.
    pub line: usize,
    /// Its moves as written in the suite (`5 10 0`).
    pub moves: String,
    /// The games that started from it (A in seat 0 in the even ones).
    pub games: Vec<u32>,
    /// A's result in each of those games: `W`, `D` or `L`.
    pub results: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Its complete pairs, as [`MatchReport::pentanomial`].
    pub pentanomial: [u32; 5],
}

/// How the games of a match ended, by the key of each record's `ending`:
/// A's wins, B's wins and draws. The keys a game always reports are present
/// even when zero (Geister: `escape`, `blues_captured`, `reds_captured`
/// for wins, `draw` for draws); forfeits add their reason (`illegal_move`,
/// `timeout`, `disconnect`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Endings {
    pub a: BTreeMap<String, u32>,
    pub b: BTreeMap<String, u32>,
    pub draws: BTreeMap<String, u32>,
    /// Win keys in report order (not serialized).
    #[serde(skip)]
    order: Vec<String>,
}

impl Endings {
    /// Zero counts for the keys every game of this kind reports.
    pub fn with_keys(win_keys: &[&str], draw_keys: &[&str]) -> Self {
        let zeros = |keys: &[&str]| -> BTreeMap<String, u32> {
            keys.iter().map(|k| (k.to_string(), 0)).collect()
        };
        Endings {
            a: zeros(win_keys),
            b: zeros(win_keys),
            draws: zeros(draw_keys),
            order: win_keys.iter().map(|k| k.to_string()).collect(),
        }
    }

    /// Counts one game with `result` from A's side.
    pub fn add(&mut self, result: Outcome, key: &str) {
        let map = match result {
            Outcome::Win(0) => &mut self.a,
            Outcome::Win(_) => &mut self.b,
            Outcome::Draw => &mut self.draws,
        };
        *map.entry(key.to_string()).or_insert(0) += 1;
    }

    /// Games counted.
    pub fn total(&self) -> u32 {
        [&self.a, &self.b, &self.draws]
            .iter()
            .flat_map(|m| m.values())
            .sum()
    }

    /// One line: `endings (A/B wins): escape 12/3, blues captured 4/0, ...; draws 1`.
    pub fn render(&self) -> String {
        let mut keys: Vec<&String> = self.order.iter().collect();
        for k in self.a.keys().chain(self.b.keys()) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let get = |m: &BTreeMap<String, u32>, k: &str| m.get(k).copied().unwrap_or(0);
        let wins: Vec<String> = keys
            .iter()
            .map(|k| {
                format!(
                    "{} {}/{}",
                    k.replace('_', " "),
                    get(&self.a, k),
                    get(&self.b, k)
                )
            })
            .collect();
        let draws: u32 = self.draws.values().sum();
        let odd: Vec<String> = self
            .draws
            .iter()
            .filter(|(k, n)| k.as_str() != "draw" && **n > 0)
            .map(|(k, n)| format!("{} {n}", k.replace('_', " ")))
            .collect();
        let mut s = format!("endings (A/B wins): {}; draws {draws}", wins.join(", "));
        if !odd.is_empty() {
            let _ = write!(s, " ({})", odd.join(", "));
        }
        s
    }
}

/// A's score of one game.
fn a_score(result: Outcome) -> f64 {
    result.reward_for(0, 0.5)
}

/// The pentanomial counts of the complete pairs (2k, 2k+1) of `results`
/// whose pair number passes `keep`.
pub(crate) fn pentanomial(
    results: &BTreeMap<u32, Outcome>,
    keep: impl Fn(u32) -> bool,
) -> [u32; 5] {
    let mut counts = [0u32; 5];
    for (&i, &first) in results.iter().filter(|(i, _)| *i % 2 == 0) {
        if let (true, Some(&second)) = (keep(i / 2), results.get(&(i + 1))) {
            // Half-points as a whole number: 0..=4.
            let halves = 2.0 * (a_score(first) + a_score(second));
            counts[halves.round() as usize] += 1;
        }
    }
    counts
}

/// Each opening's games and results, in suite order.
pub(crate) fn openings_report<'a>(
    suite: (&str, usize, OpeningOrder),
    results: &BTreeMap<u32, Outcome>,
    opening_of: impl Fn(u32) -> Option<&'a Opening>,
) -> OpeningsReport {
    let mut games: BTreeMap<usize, (&Opening, Vec<u32>)> = BTreeMap::new();
    for &i in results.keys() {
        if let Some(o) = opening_of(i) {
            games.entry(o.index).or_insert((o, Vec::new())).1.push(i);
        }
    }
    let played = games
        .into_iter()
        .map(|(index, (o, games))| {
            let mut r = OpeningResult {
                index,
                line: o.line,
                moves: o.text(),
                games: games.clone(),
                results: String::new(),
                wins: 0,
                draws: 0,
                losses: 0,
                pentanomial: pentanomial(results, |pair| {
                    opening_of(2 * pair).is_some_and(|o| o.index == index)
                }),
            };
            for g in &games {
                let (c, n) = match results[g] {
                    Outcome::Win(0) => ('W', &mut r.wins),
                    Outcome::Win(_) => ('L', &mut r.losses),
                    Outcome::Draw => ('D', &mut r.draws),
                };
                r.results.push(c);
                *n += 1;
            }
            r
        })
        .collect();
    OpeningsReport {
        source: suite.0.to_string(),
        count: suite.1,
        order: suite.2,
        played,
    }
}

/// A human summary of a report, several lines.
pub fn render_report(r: &MatchReport) -> String {
    let mut s = String::new();
    let over = match r.transport.as_deref() {
        Some("gat-tcp") => " over GAT TCP".to_string(),
        Some(t) => format!(" over {t}"),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        "{}{over}: A = {} vs B = {}, {} games (seed {}, {} job{})",
        r.game,
        r.a,
        r.b,
        r.games,
        r.seed,
        r.jobs,
        if r.jobs == 1 { "" } else { "s" }
    );
    if let Some([a, b]) = &r.budgets {
        let _ = writeln!(s, "budgets: A {a}; B {b}");
    }
    let _ = writeln!(
        s,
        "A: {} wins, {} draws, {} losses; score {:.4} ({:.1}%)",
        r.wins,
        r.draws,
        r.losses,
        r.score,
        100.0 * r.score
    );
    let capped = if r.elo.abs() >= stats::ELO_CAP {
        " (capped)"
    } else {
        ""
    };
    let count = model_count(r);
    let model = format!("{}, {count} {}", r.model, r.model.unit(count.into()));
    let _ = writeln!(
        s,
        "Elo A-B: {}{capped}, 95% interval [{}, {}] ({model}); LOS {:.2}%",
        signed(r.elo),
        elo_bound(r.score_lo),
        elo_bound(r.score_hi),
        100.0 * r.los
    );
    if let Some(e) = &r.endings {
        let _ = writeln!(s, "{}", e.render());
    }
    let [ll, ld, even, wd, ww] = r.pentanomial;
    if r.pentanomial.iter().sum::<u32>() > 0 {
        let _ = writeln!(
            s,
            "pairs (same start, seats swapped; A's points 0, 1/2, 1, 3/2, 2): \
             Ptnml(0-2) [{ll}, {ld}, {even}, {wd}, {ww}]"
        );
    }
    if let Some(o) = &r.openings {
        let _ = writeln!(
            s,
            "openings: {} of {} in {} ({}), each played twice with the seats swapped",
            o.played.len(),
            o.count,
            o.source,
            o.order
        );
        for p in &o.played {
            let games: Vec<String> = p.games.iter().map(u32::to_string).collect();
            let _ = writeln!(
                s,
                "  #{} (line {}) {}: games {}: A {} (+{} ={} -{})",
                p.index,
                p.line,
                p.moves,
                games.join(","),
                p.results,
                p.wins,
                p.draws,
                p.losses
            );
        }
    }
    if let Some(p) = &r.sprt {
        let _ = writeln!(
            s,
            "SPRT elo0={} elo1={} ({model}): LLR {:.3} in [{:.3}, {:.3}] -> {}",
            p.elo0, p.elo1, p.llr, p.lower, p.upper, p.decision
        );
    }
    let _ = writeln!(
        s,
        "A: {:.1} {}/move, {:.3} ms/move, max {:.1} ms",
        r.a_playouts_per_move, r.a_unit, r.a_ms_per_move, r.a_max_ms
    );
    let _ = write!(
        s,
        "B: {:.1} {}/move, {:.3} ms/move, max {:.1} ms",
        r.b_playouts_per_move, r.b_unit, r.b_ms_per_move, r.b_max_ms
    );
    s
}

/// The observations of the report's model: games or complete pairs.
fn model_count(r: &MatchReport) -> u32 {
    match r.model {
        stats::Model::Trinomial => r.games,
        stats::Model::Pentanomial => r.pentanomial.iter().sum(),
    }
}

/// `+12.3` / `-12.3`, and `+0.0` rather than `-0.0`.
pub(crate) fn signed(x: f64) -> String {
    let text = format!("{x:+.1}");
    if text == "-0.0" {
        "+0.0".into()
    } else {
        text
    }
}

/// An end of the Elo interval from its score: `+inf` / `-inf` for a score
/// of 1 / 0 (no bound), `>+1200.0` / `<-1200.0` beyond the cap.
pub(crate) fn elo_bound(score: f64) -> String {
    let elo = stats::elo_from_score_uncapped(score);
    if elo == f64::INFINITY {
        "+inf".into()
    } else if elo == f64::NEG_INFINITY {
        "-inf".into()
    } else if elo > stats::ELO_CAP {
        format!(">+{:.1}", stats::ELO_CAP)
    } else if elo < -stats::ELO_CAP {
        format!("<-{:.1}", stats::ELO_CAP)
    } else {
        signed(elo)
    }
}

/// A progress bar on stderr for `total` games, only when stdout is a
/// terminal (so piped or redirected output stays clean).
pub fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games {msg} [{elapsed_precise} < {eta}]",
    ) {
        pb.set_style(style);
    }
    Some(pb)
}

/// The running totals of a match (or of merged records): the tally, what
/// each side spent, how games ended, and A's result in each game.
#[derive(Clone, Debug, Default)]
pub(crate) struct Totals {
    pub tally: Tally,
    pub sides: [SideTotals; 2],
    pub endings: Endings,
    /// A's result in each finished game, by number.
    pub results: BTreeMap<u32, Outcome>,
}

/// The SPRT decision of a match that played every one of its games
/// without crossing a bound under `sprt`: "undecided" (it ran out of
/// games); `None` when it crossed one, has games still to play, or has no
/// SPRT to decide (none, or a shard's: its verdict is the merged records').
pub(crate) fn undecided(totals: &Totals, sprt: Option<&SprtConfig>) -> Option<&'static str> {
    let t = totals.tally;
    let s = sprt?;
    (t.total > 0 && t.done >= t.total && totals.sprt_crossed(s).is_none()).then_some("undecided")
}

/// Whether the LLR of `sample` crossed a bound of `s`: `H1`, `H0`, or
/// `None`.
pub(crate) fn sprt_crossed(sample: &stats::Sample, s: &SprtConfig) -> Option<&'static str> {
    let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
    let llr = sample.llr(s.elo0, s.elo1);
    if llr >= upper {
        Some("H1")
    } else if llr <= lower {
        Some("H0")
    } else {
        None
    }
}

/// The SPRT state of `sample` under `s`: its LLR, the bounds, and the
/// decision: `decided` if given (the crossing that stopped a match), else
/// the bound the LLR crossed (`H1`, `H0`), else `otherwise`.
pub(crate) fn sprt_result(
    sample: &stats::Sample,
    s: &SprtConfig,
    decided: Option<&str>,
    otherwise: &str,
) -> SprtResult {
    let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
    SprtResult {
        elo0: s.elo0,
        elo1: s.elo1,
        llr: sample.llr(s.elo0, s.elo1),
        lower,
        upper,
        decision: decided
            .or_else(|| sprt_crossed(sample, s))
            .unwrap_or(otherwise)
            .to_string(),
    }
}

/// Score, Elo with its 95% interval and LOS of some games, from one
/// side's wins, draws and losses; the interval in the model of `sample`
/// (those games, or their complete pairs). Every number is finite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Strength {
    /// Mean score in 0..=1 (0.5 with no games).
    pub score: f64,
    /// Elo difference from `score`, capped at ±[`stats::ELO_CAP`].
    pub elo: f64,
    pub model: stats::Model,
    /// 95% likelihood-ratio interval of the mean score in `model`; 1 (or
    /// 0) exactly when every observation was won (or lost).
    pub score_lo: f64,
    pub score_hi: f64,
    /// The interval in Elo, capped as `elo`.
    pub elo_lo: f64,
    pub elo_hi: f64,
    /// Likelihood of superiority.
    pub los: f64,
}

impl Strength {
    pub fn of(wins: u32, draws: u32, losses: u32, sample: &stats::Sample) -> Self {
        let score = stats::score(wins, draws, losses);
        let (score_lo, score_hi) = sample.score_interval();
        Strength {
            score,
            elo: stats::elo_from_score(score),
            model: sample.model(),
            score_lo,
            score_hi,
            elo_lo: stats::elo_from_score(score_lo),
            elo_hi: stats::elo_from_score(score_hi),
            los: stats::los(wins, losses),
        }
    }
}

/// What a report says besides the totals.
pub(crate) struct ReportHead<'a> {
    pub game: &'a str,
    pub a: String,
    pub b: String,
    pub seed: u64,
    pub jobs: usize,
    pub sprt: Option<SprtConfig>,
    /// The decision that stopped the match early, if any.
    pub sprt_decision: Option<&'static str>,
    pub has_endings: bool,
    pub transport: Option<String>,
    pub openings: Option<OpeningsReport>,
    /// What each side's agent counts in its playouts (`playouts`,
    /// `nodes`...: [`crate::search::Agent::work_unit`]).
    pub units: [&'static str; 2],
    /// Each side's budget ([`crate::runner::SideConfig::budget`]), when
    /// known.
    pub budgets: Option<[String; 2]>,
}

impl Totals {
    /// No games yet out of `total`; `ending_keys` are the keys every
    /// ending count shows (games whose records say how they ended).
    pub fn new(total: u32, ending_keys: Option<(&[&str], &[&str])>) -> Self {
        Totals {
            tally: Tally {
                total,
                ..Tally::default()
            },
            endings: ending_keys
                .map(|(w, d)| Endings::with_keys(w, d))
                .unwrap_or_default(),
            ..Totals::default()
        }
    }

    /// Counts game `index`, A's `result`, how it ended and what each side
    /// spent.
    pub fn add(
        &mut self,
        index: u32,
        result: Outcome,
        ending: Option<&str>,
        sides: &[SideTotals; 2],
    ) {
        match result {
            Outcome::Win(0) => self.tally.wins += 1,
            Outcome::Win(_) => self.tally.losses += 1,
            Outcome::Draw => self.tally.draws += 1,
        }
        if let Some(e) = ending {
            self.endings.add(result, e);
        }
        self.results.insert(index, result);
        self.tally.done += 1;
        for (total, s) in self.sides.iter_mut().zip(sides) {
            total.decisions += s.decisions;
            total.playouts += s.playouts;
            total.ms += s.ms;
            total.max_ms = total.max_ms.max(s.max_ms);
        }
    }

    /// The sample of the games so far: the complete pairs when there is
    /// one (pentanomial), else the games (trinomial).
    pub fn sample(&self) -> stats::Sample {
        let t = self.tally;
        stats::Sample::of_match(
            t.wins,
            t.draws,
            t.losses,
            pentanomial(&self.results, |_| true),
        )
    }

    /// The LLR of the games so far and whether it crossed a bound: `H1`,
    /// `H0`, or `None`.
    pub fn sprt_crossed(&self, s: &SprtConfig) -> Option<&'static str> {
        sprt_crossed(&self.sample(), s)
    }

    /// The report of these totals.
    pub fn report(&self, head: ReportHead<'_>) -> MatchReport {
        let t = self.tally;
        let sample = self.sample();
        let strength = Strength::of(t.wins, t.draws, t.losses, &sample);
        let sprt = head
            .sprt
            .map(|s| sprt_result(&sample, &s, head.sprt_decision, "continue"));
        let per_move = |total: f64, k: usize| {
            let n = self.sides[k].decisions;
            if n == 0 {
                0.0
            } else {
                total / n as f64
            }
        };
        let [a, b] = &self.sides;
        MatchReport {
            game: head.game.to_string(),
            a: head.a,
            b: head.b,
            games: t.done,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            score: strength.score,
            elo: strength.elo,
            model: strength.model,
            score_lo: strength.score_lo,
            score_hi: strength.score_hi,
            elo_lo: strength.elo_lo,
            elo_hi: strength.elo_hi,
            los: strength.los,
            sprt,
            a_playouts_per_move: per_move(a.playouts as f64, 0),
            b_playouts_per_move: per_move(b.playouts as f64, 1),
            a_unit: head.units[0].to_string(),
            b_unit: head.units[1].to_string(),
            a_ms_per_move: per_move(a.ms, 0),
            b_ms_per_move: per_move(b.ms, 1),
            a_max_ms: a.max_ms,
            b_max_ms: b.max_ms,
            seed: head.seed,
            jobs: head.jobs,
            endings: head.has_endings.then(|| self.endings.clone()),
            transport: head.transport,
            pentanomial: pentanomial(&self.results, |_| true),
            openings: head.openings,
            budgets: head.budgets,
        }
    }
}
