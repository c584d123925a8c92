//! The page of a tuning run (`tune --html`): every parameter's path over
//! the iterations, one inline SVG plot each, with its range and start, and
//! the running mean of the results. Self-contained: no script, no network.

use std::fmt::Write as _;

use super::TuneState;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const W: f64 = 640.0;
const H: f64 = 180.0;
const L: f64 = 56.0;
const B: f64 = 22.0;

/// One line plot of `ys` (one point an iteration) within `lo..=hi`.
fn plot(title: &str, ys: &[f64], lo: f64, hi: f64, start: Option<f64>) -> String {
    let n = ys.len().max(1) as f64;
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |i: f64| L + (W - L - 8.0) * i / n;
    let y = |v: f64| 8.0 + (H - B - 8.0) * (1.0 - (v - lo) / span);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\" font-size=\"11\" font-family=\"system-ui, sans-serif\">"
    );
    let _ = write!(
        s,
        "<line x1=\"{L}\" y1=\"{}\" x2=\"{W}\" y2=\"{}\" stroke=\"#888\"/><line x1=\"{L}\" y1=\"8\" x2=\"{L}\" y2=\"{}\" stroke=\"#888\"/>",
        H - B,
        H - B,
        H - B
    );
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        L - 4.0,
        y(hi) + 4.0,
        short(hi),
        L - 4.0,
        y(lo),
        short(lo)
    );
    let _ = write!(
        s,
        "<text x=\"{W}\" y=\"{}\" text-anchor=\"end\">{} ({} iterations)</text>",
        H - 6.0,
        esc(title),
        ys.len()
    );
    if let Some(v) = start {
        let _ = write!(
            s,
            "<line x1=\"{L}\" y1=\"{0}\" x2=\"{W}\" y2=\"{0}\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>",
            y(v)
        );
    }
    if !ys.is_empty() {
        let pts: Vec<String> = ys
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", x(i as f64 + 1.0), y(*v)))
            .collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"#1864ab\" stroke-width=\"1.5\" points=\"{}\"/>",
            pts.join(" ")
        );
    }
    s.push_str("</svg>");
    s
}

/// The axis of a path that covered `low..=high`: that range and a tenth of
/// it more each side, at least one step `c_end` wide in all.
pub fn explored_axis(low: f64, high: f64, c_end: f64) -> (f64, f64) {
    let width = (high - low).max(c_end).max(f64::EPSILON);
    let mid = (low + high) / 2.0;
    let half = width * 0.6;
    (mid - half, mid + half)
}

/// A number for a label: at most four decimals, no trailing zeros.
pub fn short(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// The whole page.
pub fn page(state: &TuneState, title: &str) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} of {} iterations, {} games; now: <code>{}</code></p>",
        state.done,
        state.spsa.iterations,
        state.games,
        esc(&state.describe())
    );
    // Each path on the range it explored (a tenth more each side), not on
    // the whole declared range, where a short run's path is a flat line.
    for (i, (p, m)) in state.spsa.params.iter().zip(state.moved()).enumerate() {
        let ys: Vec<f64> = state.history.iter().map(|h| h.values[i]).collect();
        let (lo, hi) = explored_axis(m.low, m.high, p.c_end);
        let (lo, hi) = if p.int {
            (lo.floor(), hi.ceil())
        } else {
            (lo, hi)
        };
        let _ = write!(
            body,
            "<h2>{}</h2><p>{}; declared range {}..={}, step (c_end) {}</p>{}",
            esc(&p.name),
            esc(&m.describe()),
            p.lo,
            p.hi,
            p.c_end,
            plot(&p.name, &ys, lo, hi, Some(m.start))
        );
    }
    // The running mean of the results (wins minus losses of `+` a pair):
    // near 0 once the parameters settle.
    let mut sum = 0.0;
    let means: Vec<f64> = state
        .history
        .iter()
        .enumerate()
        .map(|(i, h)| {
            sum += h.result;
            sum / (i + 1) as f64
        })
        .collect();
    let _ = write!(
        body,
        "<h2>results</h2><p>running mean of the + setting's wins minus losses per iteration</p>{}",
        plot("mean result", &means, -2.0, 2.0, Some(0.0))
    );
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{0}</title><style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:720px}}code{{background:#f3f3f3}}</style></head><body><h1>{0}</h1>{1}</body></html>\n",
        esc(title),
        body
    )
}

#[cfg(test)]
mod tests {
    use super::super::spsa::{Gains, Spsa, Tuned};
    use super::super::{Step, TuneState};
    use super::*;

    #[test]
    fn the_page_plots_every_parameter_over_the_iterations() {
        let state = TuneState {
            key: serde_json::Value::Null,
            spsa: Spsa {
                params: vec![Tuned {
                    name: "blunder".into(),
                    lo: 0.0,
                    hi: 1.0,
                    c_end: 0.05,
                    int: false,
                    value: 0.1,
                }],
                gains: Gains::default(),
                iterations: 3,
                seed: 1,
            },
            done: 3,
            games: 6,
            history: (1..=3)
                .map(|k| Step {
                    k,
                    result: 1.0,
                    values: vec![0.5 - 0.1 * f64::from(k)],
                })
                .collect(),
            start: vec![0.5],
        };
        let html = page(&state, "tune <pmc>");
        assert!(html.contains("<h1>tune &lt;pmc&gt;</h1>"));
        assert!(html.contains("<h2>blunder</h2>"));
        assert_eq!(html.matches("<polyline").count(), 2);
        assert!(html.contains("3 of 3 iterations, 6 games"));
    }

    /// The heights of the first polyline's points.
    fn ys_of_first_path(html: &str) -> Vec<f64> {
        let at = html.find("points=\"").unwrap() + 8;
        let pts = &html[at..at + html[at..].find('"').unwrap()];
        pts.split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect()
    }

    /// A short run of `good` (declared 0..=10000) went from 90 to 112:
    /// drawn on its declared range that path was 0.4 px high (a flat
    /// line); drawn on the range it explored it fills the plot.
    #[test]
    fn each_path_is_drawn_on_the_range_it_explored() {
        let path = [90.0, 95.0, 84.0, 100.0, 112.0];
        let state = TuneState {
            key: serde_json::Value::Null,
            spsa: Spsa {
                params: vec![Tuned {
                    name: "good".into(),
                    lo: 0.0,
                    hi: 10000.0,
                    c_end: 10.0,
                    int: true,
                    value: 112.0,
                }],
                gains: Gains::default(),
                iterations: 5,
                seed: 1,
            },
            done: 5,
            games: 10,
            history: path
                .iter()
                .enumerate()
                .map(|(i, v)| Step {
                    k: i as u32 + 1,
                    result: 0.0,
                    values: vec![*v],
                })
                .collect(),
            start: vec![90.0],
        };
        let html = page(&state, "tune");
        let ys = ys_of_first_path(&html);
        let span = ys.iter().cloned().fold(f64::MIN, f64::max)
            - ys.iter().cloned().fold(f64::MAX, f64::min);
        assert!(span > 100.0, "the path spans {span} px of {H}");
        assert!(
            html.contains("good 90 -&gt; 112 (+2.2 steps; explored 84..112 of 0..=10000)"),
            "{html}"
        );
        // A path that never moved still gets an axis a step wide.
        let (lo, hi) = explored_axis(5.0, 5.0, 0.5);
        assert!(lo < 5.0 && hi > 5.0 && (hi - lo - 0.6).abs() < 1e-9);
    }
}
