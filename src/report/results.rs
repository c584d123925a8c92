//! The page's results, rendered in Rust as static HTML and inline SVG: for
//! each game present, the crosstable of the players, each pairing's score
//! and Elo with its 95% interval (from [`crate::runner::stats`]), the
//! endings counted, and the time per move of each player.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::esc;
use super::replay::Replayed;
use crate::records::GameRecord;
use crate::runner::stats::{self, Sample};

/// Wins, draws and losses, from one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }
    fn flipped(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
    fn add(&mut self, o: Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
    /// Mean score and Elo with the 95% likelihood-ratio interval (games as
    /// trinomial observations); infinite ends when every game was won or
    /// lost.
    pub fn elo(&self) -> Elo {
        self.elo_with([0; 5])
    }

    /// As [`Wdl::elo`], but from the pentanomial counts of the complete
    /// seat-swapped pairs when there is at least one (as `match` does).
    pub fn elo_with(&self, pairs: [u32; 5]) -> Elo {
        let sample = Sample::of_match(self.wins, self.draws, self.losses, pairs);
        let (lo, hi) = sample.score_interval();
        Elo {
            score: sample.mean(),
            elo: stats::elo_from_score_uncapped(sample.mean()),
            lo: stats::elo_from_score_uncapped(lo),
            hi: stats::elo_from_score_uncapped(hi),
        }
    }
}

/// An Elo difference and its 95% interval (may be infinite at either end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub score: f64,
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The results of one game's records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Players by total score, best first.
    pub players: Vec<String>,
    /// Every player's results against every other, by name (both orders).
    pub pairs: BTreeMap<(String, String), Wdl>,
    pub totals: BTreeMap<String, Wdl>,
    /// Games a player played against itself (one name in both seats): not
    /// scored.
    pub self_play: u32,
    pub aborted: u32,
    pub games: u32,
    /// Seat-swapped pairs of games by pairing (both orders): how many gave
    /// the first-named player 0, ½, 1, 1½ or 2 points.
    pub penta: BTreeMap<(String, String), [u32; 5]>,
    /// The same per player, against everyone.
    pub penta_totals: BTreeMap<String, [u32; 5]>,
}

impl Table {
    pub fn of(records: &[&GameRecord]) -> Table {
        let mut t = Table::default();
        let mut order: Vec<String> = Vec::new();
        for r in records {
            t.games += 1;
            for p in &r.players {
                if !order.contains(p) {
                    order.push(p.clone());
                }
            }
            if r.is_aborted() || r.result == GameRecord::ABORTED {
                t.aborted += 1;
                continue;
            }
            let [a, b] = &r.players;
            if a == b {
                t.self_play += 1;
                continue;
            }
            let first = match r.winner {
                Some(0) => Wdl {
                    wins: 1,
                    ..Wdl::default()
                },
                Some(_) => Wdl {
                    losses: 1,
                    ..Wdl::default()
                },
                None => Wdl {
                    draws: 1,
                    ..Wdl::default()
                },
            };
            t.pairs
                .entry((a.clone(), b.clone()))
                .or_default()
                .add(first);
            t.pairs
                .entry((b.clone(), a.clone()))
                .or_default()
                .add(first.flipped());
            t.totals.entry(a.clone()).or_default().add(first);
            t.totals.entry(b.clone()).or_default().add(first.flipped());
        }
        // Best total score first; the order of appearance breaks ties.
        let share = |p: &String| {
            t.totals
                .get(p)
                .filter(|w| w.games() > 0)
                .map_or(-1.0, |w| w.points() / f64::from(w.games()))
        };
        order.sort_by(|a, b| share(b).total_cmp(&share(a)));
        t.players = order;
        for (a, b) in seat_swapped_pairs(records) {
            let [p, q] = &a.players;
            // p's points over the pair: seat 0 in the first game, seat 1 in
            // the second; as an index 0..=4 (half points).
            let half = |r: &GameRecord, seat: usize| match r.winner {
                Some(w) if w == seat => 2,
                Some(_) => 0,
                None => 1,
            };
            let k = half(a, 0) + half(b, 1);
            t.penta.entry((p.clone(), q.clone())).or_default()[k] += 1;
            t.penta.entry((q.clone(), p.clone())).or_default()[4 - k] += 1;
            t.penta_totals.entry(p.clone()).or_default()[k] += 1;
            t.penta_totals.entry(q.clone()).or_default()[4 - k] += 1;
        }
        t
    }

    /// The pentanomial counts of pairing `a` vs `b` (zeros: none).
    pub fn penta_of(&self, a: &str, b: &str) -> [u32; 5] {
        self.penta
            .get(&(a.to_string(), b.to_string()))
            .copied()
            .unwrap_or_default()
    }

    pub fn pair(&self, a: &str, b: &str) -> Option<Wdl> {
        self.pairs.get(&(a.to_string(), b.to_string())).copied()
    }
}

/// The scored games that form seat-swapped pairs, as `match` plays them:
/// records of one match (`match` tag) paired by game number (2k, 2k+1);
/// other records paired when consecutive (in the order given) between the
/// same two players with the seats swapped from the same start position.
/// A game is in one pair at most; aborted and one-name games in none.
pub fn seat_swapped_pairs<'a>(records: &[&'a GameRecord]) -> Vec<(&'a GameRecord, &'a GameRecord)> {
    let scored = |r: &GameRecord| {
        !(r.is_aborted() || r.result == GameRecord::ABORTED) && r.players[0] != r.players[1]
    };
    let swapped = |a: &GameRecord, b: &GameRecord| {
        a.players[0] == b.players[1] && a.players[1] == b.players[0] && a.game == b.game
    };
    let mut out = Vec::new();
    let mut tagged: BTreeMap<(String, u32), &GameRecord> = BTreeMap::new();
    let mut last: Option<&GameRecord> = None;
    for &r in records.iter().filter(|r| scored(r)) {
        match &r.match_tag {
            Some(tag) => {
                let key = (tag.key.clone(), tag.index / 2);
                match tagged.remove(&key) {
                    Some(o) if swapped(o, r) => {
                        let (x, y) = if tag.index % 2 == 1 { (o, r) } else { (r, o) };
                        out.push((x, y));
                    }
                    _ => {
                        tagged.insert(key, r);
                    }
                }
            }
            None => match last.take() {
                Some(o) if swapped(o, r) && o.start == r.start => out.push((o, r)),
                _ => last = Some(r),
            },
        }
    }
    out
}

/// Pentanomial counts as text: `0:1 ½:3 1:5 1½:2 2:1`.
fn fmt_penta(p: &[u32; 5]) -> String {
    ["0", "½", "1", "1½", "2"]
        .iter()
        .zip(p)
        .map(|(k, n)| format!("{k}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Formats an Elo value: `+35`, `-120`, `+∞`.
pub fn fmt_elo(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "−∞".into()
    } else if x.round() == 0.0 {
        "0".into()
    } else {
        format!("{:+.0}", x).replace('-', "−")
    }
}

fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// Half the width of the Elo axis: the largest finite end, rounded up to
/// 100, between 100 and 800.
fn elo_scale(elos: &[Elo]) -> f64 {
    let m = elos
        .iter()
        .flat_map(|e| [e.lo, e.hi, e.elo])
        .filter(|x| x.is_finite())
        .fold(0.0f64, |m, x| m.max(x.abs()));
    ((m / 100.0).ceil() * 100.0).clamp(100.0, 800.0)
}

const BAR_W: f64 = 240.0;
const BAR_H: f64 = 16.0;

/// The x of `elo` on a bar `BAR_W` wide showing `-scale..scale`.
fn bar_x(elo: f64, scale: f64) -> f64 {
    let c = (elo / scale).clamp(-1.0, 1.0);
    (BAR_W / 2.0 + c * (BAR_W / 2.0 - 6.0)).clamp(0.0, BAR_W)
}

/// One small SVG bar: the interval as a bar, the estimate as a dot, an
/// arrow at an end that is infinite or beyond the axis.
fn elo_bar(e: &Elo, scale: f64) -> String {
    let (lo, hi, mid) = (bar_x(e.lo, scale), bar_x(e.hi, scale), bar_x(e.elo, scale));
    let y = BAR_H / 2.0;
    let mut s = format!(
        "<svg class=\"elo-bar\" width=\"{BAR_W}\" height=\"{BAR_H}\" viewBox=\"0 0 {BAR_W} {BAR_H}\" role=\"img\">\
<title>Elo {} [{}, {}]</title>\
<line x1=\"{c}\" y1=\"0\" x2=\"{c}\" y2=\"{BAR_H}\" class=\"axis\"/>\
<rect x=\"{lo:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"6\" class=\"interval\"/>\
<circle cx=\"{mid:.1}\" cy=\"{y}\" r=\"3.5\" class=\"estimate\"/>",
        fmt_elo(e.elo),
        fmt_elo(e.lo),
        fmt_elo(e.hi),
        y - 3.0,
        (hi - lo).max(1.0),
        c = BAR_W / 2.0,
    );
    if e.lo < -scale {
        let _ = write!(
            s,
            "<polygon points=\"0,{y} 6,{} 6,{}\" class=\"interval\"/>",
            y - 5.0,
            y + 5.0
        );
    }
    if e.hi > scale {
        let _ = write!(
            s,
            "<polygon points=\"{BAR_W},{y} {},{} {},{}\" class=\"interval\"/>",
            BAR_W - 6.0,
            y - 5.0,
            BAR_W - 6.0,
            y + 5.0
        );
    }
    s.push_str("</svg>");
    s
}

/// The axis under a column of Elo bars: ticks at 0, ±scale/2, ±scale.
fn elo_axis(scale: f64) -> String {
    let mut s = format!(
        "<svg class=\"elo-axis\" width=\"{BAR_W}\" height=\"14\" viewBox=\"0 0 {BAR_W} 14\">"
    );
    for f in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        let x = bar_x(f * scale, scale);
        let anchor = match f {
            f if f < -0.75 => "start",
            f if f > 0.75 => "end",
            _ => "middle",
        };
        let _ = write!(
            s,
            "<text x=\"{x:.1}\" y=\"11\" text-anchor=\"{anchor}\">{}</text>",
            fmt_elo(f * scale)
        );
    }
    s.push_str("</svg>");
    s
}

/// A stable colour for the `i`-th player of a table.
pub fn player_colour(i: usize) -> &'static str {
    const C: [&str; 8] = [
        "#d9480f", "#1864ab", "#2b8a3e", "#862e9c", "#e67700", "#0b7285", "#c2255c", "#495057",
    ];
    C[i % C.len()]
}

/// The results section for every game in `games` (grouped by game).
pub fn render(games: &[(&GameRecord, &Replayed)], limit_ms: Option<u64>) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    for (r, _) in games {
        if !kinds.contains(&r.game.as_str()) {
            kinds.push(&r.game);
        }
    }
    if kinds.is_empty() {
        return "<p class=\"empty\">No games.</p>".into();
    }
    let mut s = String::new();
    for kind in kinds {
        let of_kind: Vec<(&GameRecord, &Replayed)> = games
            .iter()
            .filter(|(r, _)| r.game == kind)
            .copied()
            .collect();
        let _ = write!(
            s,
            "<div class=\"result-group\" data-game=\"{k}\"><h3>{k}</h3>",
            k = esc(kind)
        );
        let records: Vec<&GameRecord> = of_kind.iter().map(|(r, _)| *r).collect();
        let table = Table::of(&records);
        s.push_str(&summary_line(&table));
        s.push_str(&crosstable(&table));
        s.push_str(&pairings(&table));
        s.push_str(&endings(&records));
        s.push_str(&times(&table, &of_kind, limit_ms));
        s.push_str("</div>");
    }
    s
}

fn summary_line(t: &Table) -> String {
    let mut parts = vec![format!(
        "{} game{}",
        t.games,
        if t.games == 1 { "" } else { "s" }
    )];
    if t.aborted > 0 {
        parts.push(format!("{} aborted (not counted)", t.aborted));
    }
    if t.self_play > 0 {
        parts.push(format!(
            "{} between two players of one name (not counted)",
            t.self_play
        ));
    }
    format!("<p class=\"summary\">{}</p>", parts.join(", "))
}

fn crosstable(t: &Table) -> String {
    let mut s = String::from(
        "<table class=\"crosstable\"><caption>Crosstable: the row player's wins-draws-losses \
and points against each column player</caption><thead><tr><th>#</th><th>player</th>",
    );
    for i in 0..t.players.len() {
        let _ = write!(s, "<th>{}</th>", i + 1);
    }
    s.push_str("<th>games</th><th>points</th><th>score</th></tr></thead><tbody>");
    for (i, p) in t.players.iter().enumerate() {
        let _ = write!(
            s,
            "<tr><td>{}</td><td class=\"player\"><span class=\"swatch\" style=\"background:{}\"></span>{}</td>",
            i + 1,
            player_colour(i),
            esc(p)
        );
        for q in &t.players {
            if p == q {
                s.push_str("<td class=\"self\">—</td>");
                continue;
            }
            match t.pair(p, q) {
                Some(w) if w.games() > 0 => {
                    let _ = write!(
                        s,
                        "<td title=\"{} vs {}\">{}-{}-{}<br><b>{}</b>/{}</td>",
                        esc(p),
                        esc(q),
                        w.wins,
                        w.draws,
                        w.losses,
                        fmt_points(w.points()),
                        w.games()
                    );
                }
                _ => s.push_str("<td class=\"none\"></td>"),
            }
        }
        let w = t.totals.get(p).copied().unwrap_or_default();
        let share = if w.games() > 0 {
            format!("{:.1}%", 100.0 * w.points() / f64::from(w.games()))
        } else {
            "–".into()
        };
        let _ = write!(
            s,
            "<td>{}</td><td>{}</td><td>{share}</td></tr>",
            w.games(),
            fmt_points(w.points())
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// Each pairing (from the better-placed player's side) and each player
/// against all its opponents: score, Elo and its 95% interval as a bar.
fn pairings(t: &Table) -> String {
    let mut rows: Vec<(String, Wdl, [u32; 5])> = Vec::new();
    for (i, a) in t.players.iter().enumerate() {
        for b in &t.players[i + 1..] {
            if let Some(w) = t.pair(a, b).filter(|w| w.games() > 0) {
                rows.push((format!("{} vs {}", esc(a), esc(b)), w, t.penta_of(a, b)));
            }
        }
    }
    let pairs = rows.len();
    if t.players.len() > 2 {
        for p in &t.players {
            if let Some(w) = t.totals.get(p).filter(|w| w.games() > 0) {
                let penta = t.penta_totals.get(p).copied().unwrap_or_default();
                rows.push((format!("{} vs all", esc(p)), *w, penta));
            }
        }
    }
    if rows.is_empty() {
        return "<p class=\"empty\">No scored games.</p>".into();
    }
    let elos: Vec<Elo> = rows.iter().map(|(_, w, p)| w.elo_with(*p)).collect();
    let scale = elo_scale(&elos);
    let mut s = String::from(
        "<table class=\"pairings\"><caption>Elo difference of the first-named player, with its \
95% likelihood-ratio interval: from the seat-swapped pairs (pentanomial, the pair's points 0 to 2 \
counted) where the games form pairs, as <code>match</code> plays them; else from the games (trinomial)\
</caption><thead><tr><th>pairing</th><th>games</th><th>+W =D −L</th><th>pairs by points</th><th>score</th>\
<th>Elo</th><th>95% interval</th><th>",
    );
    s.push_str(&elo_axis(scale));
    s.push_str("</th></tr></thead><tbody>");
    for (k, ((name, w, penta), e)) in rows.iter().zip(&elos).enumerate() {
        let class = if k >= pairs { " class=\"vs-all\"" } else { "" };
        let n: u32 = penta.iter().sum();
        let penta_cell = if n == 0 {
            "none (trinomial)".to_string()
        } else {
            format!(
                "{n} pair{}: {}{}",
                if n == 1 { "" } else { "s" },
                fmt_penta(penta),
                if 2 * n < w.games() {
                    format!(" ({} games unpaired, not in the Elo)", w.games() - 2 * n)
                } else {
                    String::new()
                }
            )
        };
        let _ = write!(
            s,
            "<tr{class}><td>{name}</td><td>{}</td><td>+{} ={} −{}</td><td class=\"penta\">{}</td><td>{:.1}%</td>\
<td class=\"num\">{}</td><td class=\"num\">[{}, {}]</td><td>{}</td></tr>",
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            esc(&penta_cell),
            100.0 * e.score,
            fmt_elo(e.elo),
            fmt_elo(e.lo),
            fmt_elo(e.hi),
            elo_bar(e, scale)
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// How the games ended: by reason, and by the game's ending keys.
fn endings(records: &[&GameRecord]) -> String {
    let mut by_reason: BTreeMap<&str, u32> = BTreeMap::new();
    let mut by_ending: BTreeMap<&str, u32> = BTreeMap::new();
    for r in records {
        *by_reason.entry(r.reason.key()).or_default() += 1;
        if let Some(e) = &r.ending {
            *by_ending.entry(e.as_str()).or_default() += 1;
        }
    }
    let n = records.len().max(1) as f64;
    let mut s = String::from("<div class=\"endings\">");
    for (title, counts) in [("reason", &by_reason), ("ending", &by_ending)] {
        if counts.is_empty() {
            continue;
        }
        let _ = write!(
            s,
            "<table class=\"counts\"><thead><tr><th>{title}</th><th>games</th><th>share</th></tr></thead><tbody>"
        );
        for (k, c) in counts {
            let _ = write!(
                s,
                "<tr><td>{}</td><td>{c}</td><td>{:.1}%</td></tr>",
                esc(k),
                100.0 * f64::from(*c) / n
            );
        }
        s.push_str("</tbody></table>");
    }
    s.push_str("</div>");
    s
}

/// Time per move of each player: a table of percentiles and a plot of the
/// median and maximum by move number (opening moves left out).
fn times(t: &Table, games: &[(&GameRecord, &Replayed)], limit_ms: Option<u64>) -> String {
    // by player: by move number (from 0), the times of that move.
    let mut by_move: BTreeMap<&str, Vec<Vec<u64>>> = BTreeMap::new();
    for (r, rep) in games {
        let skip = r.opening.as_ref().map_or(0, |o| o.moves.len());
        let mut count = [0usize; 2];
        for (k, (seat, ms)) in rep.seats_of_moves().into_iter().enumerate() {
            let n = count[seat];
            count[seat] += 1;
            let (Some(ms), true) = (ms, k >= skip) else {
                continue;
            };
            let v = by_move.entry(r.players[seat].as_str()).or_default();
            if v.len() <= n {
                v.resize(n + 1, Vec::new());
            }
            v[n].push(ms);
        }
    }
    if by_move.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "<table class=\"times\"><caption>Time per move (milliseconds, as recorded)</caption>\
<thead><tr><th>player</th><th>moves</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>",
    );
    if let Some(l) = limit_ms {
        let _ = write!(s, "<th>over {l} ms</th>");
    }
    s.push_str("</tr></thead><tbody>");
    let colour = |p: &str| player_colour(t.players.iter().position(|q| q == p).unwrap_or(0));
    let rank = |v: &[u64], p| crate::quantile::nearest_rank(v, p).unwrap_or(0);
    for p in &t.players {
        let Some(v) = by_move.get(p.as_str()) else {
            continue;
        };
        let mut all: Vec<u64> = v.iter().flatten().copied().collect();
        all.sort_unstable();
        let mean = all.iter().sum::<u64>() as f64 / all.len().max(1) as f64;
        let _ = write!(
            s,
            "<tr><td class=\"player\"><span class=\"swatch\" style=\"background:{}\"></span>{}</td>\
<td>{}</td><td>{mean:.1}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            colour(p),
            esc(p),
            all.len(),
            rank(&all, 0.5),
            rank(&all, 0.9),
            rank(&all, 0.99),
            all.last().copied().unwrap_or(0)
        );
        if let Some(l) = limit_ms {
            let _ = write!(s, "<td>{}</td>", all.iter().filter(|&&m| m > l).count());
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    // The plot: x the player's move number, y milliseconds.
    let series: Vec<(&str, Vec<(u64, u64)>)> = t
        .players
        .iter()
        .filter_map(|p| {
            let v = by_move.get(p.as_str())?;
            let pts = v
                .iter()
                .filter(|ms| !ms.is_empty())
                .map(|ms| {
                    let mut ms = ms.clone();
                    ms.sort_unstable();
                    (rank(&ms, 0.5), *ms.last().unwrap_or(&0))
                })
                .collect();
            Some((p.as_str(), pts))
        })
        .collect();
    let moves = series.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let top = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|&(_, mx)| mx))
        .chain(limit_ms)
        .max()
        .unwrap_or(0)
        .max(1) as f64
        * 1.1;
    let (w, h, left, bottom) = (560.0, 180.0, 44.0, 22.0);
    let x = |i: usize| left + (w - left - 8.0) * (i as f64 + 0.5) / moves.max(1) as f64;
    let y = |ms: f64| 6.0 + (h - bottom - 6.0) * (1.0 - ms / top);
    let _ = write!(
        s,
        "<figure class=\"plot\"><svg class=\"time-plot\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\
<title>time per move by move number</title>\
<line x1=\"{left}\" y1=\"{b}\" x2=\"{w}\" y2=\"{b}\" class=\"axis\"/>\
<line x1=\"{left}\" y1=\"6\" x2=\"{left}\" y2=\"{b}\" class=\"axis\"/>\
<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{top_label}</text>\
<text x=\"{tx}\" y=\"{b}\" text-anchor=\"end\">0</text>\
<text x=\"{w}\" y=\"{h2}\" text-anchor=\"end\">move number ({moves})</text>",
        b = h - bottom,
        tx = left - 4.0,
        ty = y(top / 1.1) + 4.0,
        top_label = (top / 1.1).round(),
        h2 = h - 4.0,
    );
    if let Some(l) = limit_ms {
        let _ = write!(
            s,
            "<line x1=\"{left}\" y1=\"{ly:.1}\" x2=\"{w}\" y2=\"{ly:.1}\" class=\"limit\"/>\
<text x=\"{w}\" y=\"{lt:.1}\" text-anchor=\"end\" class=\"limit-label\">limit {l} ms</text>",
            ly = y(l as f64),
            lt = y(l as f64) - 3.0,
        );
    }
    for (p, pts) in &series {
        let c = colour(p);
        let line = |f: fn(&(u64, u64)) -> u64| {
            pts.iter()
                .enumerate()
                .map(|(i, v)| format!("{:.1},{:.1}", x(i), y(f(v) as f64)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = write!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"><title>{} median</title></polyline>\
<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1\" stroke-dasharray=\"3 3\"><title>{} max</title></polyline>",
            line(|v| v.0),
            esc(p),
            line(|v| v.1),
            esc(p)
        );
    }
    s.push_str(
        "</svg><figcaption>Each player's median (solid) and longest (dashed) time by its move \
number in the game.</figcaption></figure>",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::EndReason;

    fn game(a: &str, b: &str, winner: Option<usize>) -> GameRecord {
        GameRecord {
            game: "four3d".into(),
            id: "g".into(),
            players: [a.into(), b.into()],
            winner,
            result: GameRecord::result_string(winner).into(),
            reason: EndReason::Rules,
            detail: None,
            start: serde_json::Value::Null,
            moves: vec![],
            move_ms: vec![],
            opening: None,
            ending: None,
            started_ms: 0,
            finished_ms: 0,
            match_tag: None,
            analysis: None,
        }
    }

    #[test]
    fn the_table_scores_both_seats_and_skips_aborted_and_self_play() {
        let mut aborted = game("x", "y", None);
        aborted.reason = EndReason::Aborted;
        aborted.result = GameRecord::ABORTED.into();
        let rs = [
            game("x", "y", Some(0)),
            game("y", "x", Some(0)),
            game("y", "x", None),
            game("x", "z", Some(1)),
            game("x", "x", Some(0)),
            aborted,
        ];
        let refs: Vec<&GameRecord> = rs.iter().collect();
        let t = Table::of(&refs);
        assert_eq!(t.games, 6);
        assert_eq!((t.aborted, t.self_play), (1, 1));
        let xy = t.pair("x", "y").unwrap();
        assert_eq!((xy.wins, xy.draws, xy.losses), (1, 1, 1));
        assert_eq!(t.pair("y", "x").unwrap().flipped(), xy);
        assert_eq!(t.totals["z"].wins, 1);
        // z won its only game: first; x scored 1.5 of 4.
        assert_eq!(t.players[0], "z");
        let e = t.totals["z"].elo();
        assert_eq!(e.hi, f64::INFINITY);
        assert!(e.lo.is_finite() && e.lo < 0.0);
    }

    #[test]
    fn seat_swapped_games_pair_into_pentanomial_counts() {
        use crate::records::MatchTag;
        let tag = |index: u32| MatchTag {
            key: "k".into(),
            a: "A".into(),
            b: "B".into(),
            seed: 0,
            games: 4,
            index,
            shard: None,
            sprt: None,
            suite: None,
            transport: None,
            sides: Default::default(),
        };
        let tagged = |a: &str, b: &str, w: Option<usize>, i: u32| GameRecord {
            match_tag: Some(tag(i)),
            analysis: None,
            ..game(a, b, w)
        };
        // A match's games out of order (shards): pairs by number.
        let rs = [
            tagged("B", "A", Some(1), 1), // A wins as seat 1
            tagged("A", "B", None, 2),
            tagged("A", "B", Some(0), 0), // A wins as seat 0: pair 0 gives A 2
            tagged("B", "A", Some(0), 3), // B wins: pair 1 gives A ½
        ];
        let refs: Vec<&GameRecord> = rs.iter().collect();
        let t = Table::of(&refs);
        assert_eq!(t.penta_of("A", "B"), [0, 1, 0, 0, 1]);
        assert_eq!(t.penta_of("B", "A"), [1, 0, 0, 1, 0]);
        // Untagged: consecutive, swapped, same start; a third game unpaired.
        let mut other_start = game("x", "y", Some(0));
        other_start.start = serde_json::json!({"s": 1});
        let rs = [
            game("x", "y", Some(0)),
            game("y", "x", Some(0)), // x: 1 + 0
            game("x", "y", None),
            other_start, // another start: no pair with the one before
            game("y", "x", None),
            game("x", "y", Some(1)),
        ];
        let refs: Vec<&GameRecord> = rs.iter().collect();
        let t = Table::of(&refs);
        // (x,y,0)+(y,x,0): x 1 point; (other start) alone; (y,x draw)+(x,y y wins): x ½.
        assert_eq!(t.penta_of("x", "y"), [0, 1, 1, 0, 0]);
        assert_eq!(t.penta_totals["y"], [0, 0, 1, 1, 0]);
        let w = t.pair("x", "y").unwrap();
        // The Elo comes from the two pairs, not the six games.
        let e = w.elo_with(t.penta_of("x", "y"));
        assert!((e.score - 0.375).abs() < 1e-9, "{e:?}");
        let html = pairings(&t);
        assert!(
            html.contains("2 pairs: 0:0 ½:1 1:1 1½:0 2:0 (2 games unpaired"),
            "{html}"
        );
    }

    #[test]
    fn elo_formats_and_bars_stay_on_the_axis() {
        assert_eq!(fmt_elo(0.0), "0");
        assert_eq!(fmt_elo(35.4), "+35");
        assert_eq!(fmt_elo(-120.0), "−120");
        assert_eq!(fmt_elo(f64::INFINITY), "+∞");
        let even = Wdl {
            wins: 5,
            draws: 0,
            losses: 5,
        }
        .elo();
        assert_eq!(even.elo, 0.0);
        assert!(even.lo < 0.0 && even.hi > 0.0);
        let bar = elo_bar(
            &Elo {
                score: 1.0,
                elo: f64::INFINITY,
                lo: 10.0,
                hi: f64::INFINITY,
            },
            100.0,
        );
        assert!(bar.contains("<polygon"), "{bar}");
        assert!(!bar.contains("NaN") && !bar.contains("inf"), "{bar}");
    }
}
