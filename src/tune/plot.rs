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
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{hi}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{lo}</text>",
        L - 4.0,
        y(hi) + 4.0,
        L - 4.0,
        y(lo)
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
    for (i, p) in state.spsa.params.iter().enumerate() {
        let ys: Vec<f64> = state.history.iter().map(|h| h.values[i]).collect();
        let start = state.history.first().map(|_| state.history[0].values[i]);
        let _ = write!(
            body,
            "<h2>{}</h2><p>range {}..={}, step (c_end) {}</p>{}",
            esc(&p.name),
            p.lo,
            p.hi,
            p.c_end,
            plot(&p.name, &ys, p.lo, p.hi, start)
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
        };
        let html = page(&state, "tune <pmc>");
        assert!(html.contains("<h1>tune &lt;pmc&gt;</h1>"));
        assert!(html.contains("<h2>blunder</h2>"));
        assert_eq!(html.matches("<polyline").count(), 2);
        assert!(html.contains("3 of 3 iterations, 6 games"));
    }
}
