//! The template compiler (the seed's chapter 5) and the fast matcher.
//!
//! A template starts as a text drawing of a chain at the moment before it
//! fires, each puyo labelled by the link it vanishes in (`A` first, `B`
//! second...), `*` where the firing puyo (of `A`'s colour) goes, `.` for
//! anything else. Rows top first, six characters each, bottom-aligned:
//!
//! ```text
//! template stairs-1
//! ..H.H.
//! ...
//! AAB...
//! ```
//!
//! The four steps:
//! 1. **Labels**: upper case are the chain body, the firing cell `*` with
//!    `A` (the seed labels every puyo of the first link `A`); every other
//!    cell touching the body gets its own lower-case boundary label; the
//!    rest are `0`.
//! 2. **Truth table** between labels (`S` same, `X` different, blank
//!    either): a label with itself `S`; labels touching in the drawing `X`
//!    (a boundary label against the body labels it touches, so every link
//!    clears exactly its four puyos). Then the chain is simulated link by
//!    link and in every intermediate position two different body labels
//!    that touch get `X` (nothing joins too early). The seed's further
//!    hand-made `X` between a boundary cell and a body label it only meets
//!    later is not derived.
//! 3. **Weights** per label: 100 per `X` between two body labels, 10 per
//!    `X` that involves a boundary label, 0 for `0`; +100 when the label
//!    touches a side wall or the floor. (This is the only reading under
//!    which the seed's example weights add up: its B 510 is five body `X`
//!    and one boundary `X`, its boundary `X` count 10 on both sides.)
//! 4. **Matrix**: `w_ij` the mean of the two labels' weights (or, an
//!    option the seed names as promising, their minimum: [`PairWeight`]),
//!    `T_ij = +w_ij` for `S`, `-w_ij` for `X`, 0 otherwise.
//!
//! A `pairs` line after the name makes a shape that is not a chain (the
//! seed's domino): no boundary and no simulation; each label is `S` with
//! itself and `X` with the labels it touches ("no constraint between pairs
//! apart"); the weights follow step 3.
//!
//! One extension of the seed's matrices (its section 3.2 says a state
//! matrix cannot tell an empty cell and asks for an extension where that
//! matters): a puyo on the firing cell contradicts the template. The
//! firing cell must stay free while the chain is built; otherwise the
//! search may fill it first (an `A` puyo there is legal in the matrices)
//! and leave the last `A` cell under the second link, where it can never
//! be placed without firing.
//!
//! [`Matcher`] scores a field against a compiled template from per-label
//! colour sets and counts, updated one puyo at a time: the same value as
//! the dense [`relation::match_score`](super::relation::match_score) (with
//! the firing-cell rule).

use super::board::{Board, CELLS, COLS, KINDS, ROWS};

/// No label (`0`).
pub const NONE: u8 = u8::MAX;
/// Most labels a template may have.
pub const MAX_LABELS: usize = 64;

/// A relation of the truth table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Same,
    Diff,
    Any,
}

/// One label of a template.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// `A`.. for the body, `a`.. (then other characters) for the boundary.
    pub name: char,
    pub body: bool,
    pub weight: f64,
    /// Cell indices (`col * ROWS + row`).
    pub cells: Vec<usize>,
}

/// How the matrix weight `w_ij` of two labels is made from their weights
/// (step 4): the seed uses the mean and names the minimum as promising.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairWeight {
    Mean,
    Min,
}

impl PairWeight {
    /// `mean` or `min`.
    pub fn parse(s: &str) -> Result<PairWeight, String> {
        match s {
            "mean" => Ok(PairWeight::Mean),
            "min" => Ok(PairWeight::Min),
            other => Err(format!("unknown pair weight '{other}' (known: mean, min)")),
        }
    }
}

/// A compiled template.
#[derive(Clone, Debug)]
pub struct Template {
    pub name: String,
    /// Whether the drawing is a chain (not a `pairs` shape).
    pub chain: bool,
    /// Body labels (the chain's links for a chain).
    pub links: usize,
    pub labels: Vec<Label>,
    /// Label of each cell, [`NONE`] for `0`.
    pub cell_label: [u8; CELLS],
    /// The firing cell, for a chain.
    pub trigger: Option<usize>,
    /// The truth table, `labels x labels`.
    pub truth: Vec<Vec<Rel>>,
    /// How two labels' weights make `w_ij`.
    pair: PairWeight,
    /// For the matcher: each label's `X` partners with `w` (mean weight).
    diff: Vec<Vec<(u8, f64)>>,
    /// The labelled cells as a bitboard.
    cells: u128,
    /// `sum |T_ij|`.
    norm: f64,
}

/// Cell index of (col, row).
#[inline]
pub fn cell(col: usize, row: usize) -> usize {
    col * ROWS + row
}

fn cell_neighbours(c: usize) -> impl Iterator<Item = usize> {
    let (col, row) = (c / ROWS, c % ROWS);
    let mut v = [None; 4];
    if col > 0 {
        v[0] = Some(cell(col - 1, row));
    }
    if col + 1 < COLS {
        v[1] = Some(cell(col + 1, row));
    }
    if row > 0 {
        v[2] = Some(cell(col, row - 1));
    }
    if row + 1 < ROWS {
        v[3] = Some(cell(col, row + 1));
    }
    v.into_iter().flatten()
}

fn boundary_name(i: usize) -> char {
    const NAMES: &str = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&+-=?@^~";
    NAMES.chars().nth(i).unwrap_or('~')
}

impl Template {
    /// Compiles one drawing (`rows` top first).
    pub fn compile(name: &str, rows: &[&str], pairs: bool) -> Result<Template, String> {
        let err = |m: String| format!("template {name}: {m}");
        if rows.is_empty() || rows.len() > ROWS {
            return Err(err(format!("{} rows, expected 1..={ROWS}", rows.len())));
        }
        // Step 1: labels.
        let mut body_of = [None::<char>; CELLS];
        let mut trigger = None;
        for (i, line) in rows.iter().enumerate() {
            let row = rows.len() - 1 - i;
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != COLS {
                return Err(err(format!("row '{line}' is not {COLS} cells wide")));
            }
            for (col, ch) in chars.into_iter().enumerate() {
                match ch {
                    '.' => {}
                    '*' if !pairs => {
                        if trigger.replace(cell(col, row)).is_some() {
                            return Err(err("more than one '*'".into()));
                        }
                    }
                    'A'..='Z' => body_of[cell(col, row)] = Some(ch),
                    _ => return Err(err(format!("unknown cell '{ch}' in row '{line}'"))),
                }
            }
        }
        let mut names: Vec<char> = body_of.iter().flatten().copied().collect();
        names.sort_unstable();
        names.dedup();
        if names.is_empty() {
            return Err(err("no labelled cell".into()));
        }
        if !pairs {
            let expected: Vec<char> = ('A'..).take(names.len()).collect();
            if names != expected {
                return Err(err(format!(
                    "chain labels must be A.. without gaps, got {names:?}"
                )));
            }
            match trigger {
                // The firing puyo vanishes with the first link: an `A` cell.
                Some(t) => body_of[t] = Some('A'),
                None => return Err(err("a chain needs its firing cell '*'".into())),
            }
        }
        let mut labels: Vec<Label> = names
            .iter()
            .map(|&n| Label {
                name: n,
                body: true,
                weight: 0.0,
                cells: vec![],
            })
            .collect();
        let mut cell_label = [NONE; CELLS];
        for c in 0..CELLS {
            if let Some(n) = body_of[c] {
                let l = names.binary_search(&n).unwrap();
                cell_label[c] = l as u8;
                labels[l].cells.push(c);
            }
        }
        if !pairs {
            // Boundary: every other cell touching the body, bottom row first.
            for row in 0..ROWS {
                for col in 0..COLS {
                    let c = cell(col, row);
                    if cell_label[c] == NONE && cell_neighbours(c).any(|n| body_of[n].is_some()) {
                        let i = labels.len() - names.len();
                        cell_label[c] = labels.len() as u8;
                        labels.push(Label {
                            name: boundary_name(i),
                            body: false,
                            weight: 0.0,
                            cells: vec![c],
                        });
                    }
                }
            }
        }
        if labels.len() > MAX_LABELS {
            return Err(err(format!(
                "{} labels, at most {MAX_LABELS}",
                labels.len()
            )));
        }
        // Step 2: truth table.
        let n = labels.len();
        let mut truth = vec![vec![Rel::Any; n]; n];
        for (l, row) in truth.iter_mut().enumerate() {
            row[l] = Rel::Same;
        }
        if pairs {
            // Touching labels differ; labels apart are free.
            for c in 0..CELLS {
                let a = cell_label[c];
                for nb in cell_neighbours(c) {
                    let b = cell_label[nb];
                    if a != NONE && b != NONE && a != b {
                        truth[a as usize][b as usize] = Rel::Diff;
                    }
                }
            }
        } else {
            let links = names.len();
            // The simulation: the body (with the firing puyo), as the seed
            // does (boundary cells are later puyos, not part of the chain).
            let mut grid = [NONE; CELLS];
            for c in 0..CELLS {
                if labels.get(cell_label[c] as usize).is_some_and(|l| l.body) {
                    grid[c] = cell_label[c];
                }
            }
            for col in 0..COLS {
                let mut seen_gap = false;
                for row in 0..ROWS {
                    let c = cell(col, row);
                    if grid[c] == NONE {
                        seen_gap = true;
                    } else if seen_gap {
                        return Err(err(format!(
                            "column {} has a puyo above an empty cell",
                            col + 1
                        )));
                    }
                }
            }
            // A boundary label differs from the body labels it touches.
            for c in 0..CELLS {
                let a = cell_label[c];
                if a == NONE || labels[a as usize].body {
                    continue;
                }
                for nb in cell_neighbours(c) {
                    let b = cell_label[nb];
                    if b != NONE && labels[b as usize].body {
                        truth[a as usize][b as usize] = Rel::Diff;
                        truth[b as usize][a as usize] = Rel::Diff;
                    }
                }
            }
            for (link, &link_name) in names.iter().enumerate().take(links) {
                // Body labels touching in this position.
                for c in 0..CELLS {
                    let a = grid[c];
                    if a == NONE {
                        continue;
                    }
                    for nb in cell_neighbours(c) {
                        let b = grid[nb];
                        if b == NONE || a == b {
                            continue;
                        }
                        truth[a as usize][b as usize] = Rel::Diff;
                        truth[b as usize][a as usize] = Rel::Diff;
                    }
                }
                // The link's cells vanish: they must be one group of 4+.
                let cells: Vec<usize> = (0..CELLS).filter(|&c| grid[c] == link as u8).collect();
                if cells.len() < 4 {
                    return Err(err(format!(
                        "link {} has {} puyos when it should vanish",
                        link_name,
                        cells.len()
                    )));
                }
                let mut group = vec![cells[0]];
                let mut k = 0;
                while k < group.len() {
                    for nb in cell_neighbours(group[k]) {
                        if grid[nb] == link as u8 && !group.contains(&nb) {
                            group.push(nb);
                        }
                    }
                    k += 1;
                }
                if group.len() != cells.len() {
                    return Err(err(format!(
                        "link {} is not one connected group when it should vanish",
                        link_name
                    )));
                }
                for &c in &cells {
                    grid[c] = NONE;
                }
                for col in 0..COLS {
                    let kept: Vec<u8> = (0..ROWS)
                        .map(|r| grid[cell(col, r)])
                        .filter(|&l| l != NONE)
                        .collect();
                    for r in 0..ROWS {
                        grid[cell(col, r)] = kept.get(r).copied().unwrap_or(NONE);
                    }
                }
            }
        }
        // Step 3: weights: 100 per `X` between two body labels, 10 per `X`
        // that involves a boundary label (the seed's example weights only
        // add up this way: B 510 is five body `X` and one boundary `X`).
        let body: Vec<bool> = labels.iter().map(|l| l.body).collect();
        for (l, label) in labels.iter_mut().enumerate() {
            let xs: f64 = (0..n)
                .filter(|&m| truth[l][m] == Rel::Diff)
                .map(|m| if body[l] && body[m] { 100.0 } else { 10.0 })
                .sum();
            let walls = label.cells.iter().any(|&c| {
                let (col, row) = (c / ROWS, c % ROWS);
                col == 0 || col == COLS - 1 || row == 0
            });
            label.weight = xs + if walls { 100.0 } else { 0.0 };
        }
        let mut t = Template {
            name: name.to_string(),
            chain: !pairs,
            links: names.len(),
            labels,
            cell_label,
            trigger,
            truth,
            pair: PairWeight::Mean,
            diff: vec![],
            cells: (0..CELLS)
                .filter(|&c| cell_label[c] != NONE)
                .fold(0, |m, c| m | super::board::bit(c / ROWS, c % ROWS)),
            norm: 0.0,
        };
        t.build_matrix();
        Ok(t)
    }

    /// Step 4: the matrix, kept as what the matcher needs.
    fn build_matrix(&mut self) {
        let n = self.labels.len();
        let m = self.matrix();
        self.norm = m.iter().map(|x| x.abs()).sum();
        self.diff = (0..n)
            .map(|a| {
                (0..n)
                    .filter(|&b| self.truth[a][b] == Rel::Diff)
                    .map(|b| (b as u8, self.pair_weight(a, b)))
                    .collect()
            })
            .collect();
    }

    /// The same template with its matrix built from `pair` weights.
    pub fn with_pair_weight(mut self, pair: PairWeight) -> Template {
        self.pair = pair;
        self.build_matrix();
        self
    }

    /// How `w_ij` is made from the two labels' weights.
    pub fn pair_weight_rule(&self) -> PairWeight {
        self.pair
    }

    /// `w_ij` of two labels: the mean (or the minimum) of their weights.
    pub fn pair_weight(&self, a: usize, b: usize) -> f64 {
        let (x, y) = (self.labels[a].weight, self.labels[b].weight);
        match self.pair {
            PairWeight::Mean => (x + y) / 2.0,
            PairWeight::Min => x.min(y),
        }
    }

    /// The template matrix over the field's cells (`CELLS x CELLS`,
    /// row-major, cell index `col * ROWS + row`).
    pub fn matrix(&self) -> Vec<f64> {
        let mut t = vec![0.0; CELLS * CELLS];
        for i in 0..CELLS {
            let a = self.cell_label[i];
            if a == NONE {
                continue;
            }
            for j in 0..CELLS {
                let b = self.cell_label[j];
                if b == NONE {
                    continue;
                }
                let w = self.pair_weight(a as usize, b as usize);
                t[i * CELLS + j] = match self.truth[a as usize][b as usize] {
                    Rel::Same => w,
                    Rel::Diff => -w,
                    Rel::Any => 0.0,
                };
            }
        }
        t
    }

    /// A colour (0..4) per body label that satisfies the truth table, if
    /// four colours suffice.
    pub fn colouring(&self) -> Option<Vec<u8>> {
        let body: Vec<usize> = (0..self.labels.len())
            .filter(|&l| self.labels[l].body)
            .collect();
        let mut colour = vec![u8::MAX; body.len()];
        fn go(t: &Template, body: &[usize], colour: &mut [u8], i: usize) -> bool {
            if i == body.len() {
                return true;
            }
            for c in 0..4u8 {
                let ok = (0..i).all(|j| colour[j] != c || t.truth[body[i]][body[j]] != Rel::Diff);
                if ok {
                    colour[i] = c;
                    if go(t, body, colour, i + 1) {
                        return true;
                    }
                }
            }
            false
        }
        go(self, &body, &mut colour, 0).then_some(colour)
    }

    /// The drawing's field coloured by [`Template::colouring`], boundary
    /// cells that rest on labelled cells filled too (each with the lowest
    /// colour its truth row allows) when `boundary`. Without the firing
    /// puyo.
    pub fn coloured_board(&self, boundary: bool) -> Option<Board> {
        let colours = self.colouring()?;
        let mut b = Board::empty();
        let mut label_colour = vec![None; self.labels.len()];
        for (i, &c) in colours.iter().enumerate() {
            label_colour[i] = Some(c);
        }
        for col in 0..COLS {
            for row in 0..ROWS {
                let c = cell(col, row);
                let l = self.cell_label[c];
                if l == NONE || Some(c) == self.trigger {
                    break;
                }
                let label = &self.labels[l as usize];
                let colour = if label.body {
                    label_colour[l as usize]
                } else if boundary {
                    (0..4u8).find(|&k| {
                        (0..self.labels.len()).all(|m| {
                            self.truth[l as usize][m] != Rel::Diff || label_colour[m] != Some(k)
                        })
                    })
                } else {
                    None
                };
                match colour {
                    Some(k) => b.set(col, row, Some(k)),
                    None => break,
                }
            }
        }
        Some(b)
    }

    /// The firing puyo's colour in [`Template::coloured_board`].
    pub fn trigger_colour(&self) -> Option<u8> {
        self.colouring().map(|c| c[0])
    }

    /// A fresh matcher state for an empty field.
    pub fn matcher(&self) -> Matcher {
        Matcher {
            mask: [0; MAX_LABELS],
            count: [0; MAX_LABELS],
            num: 0.0,
            dead: false,
        }
    }

    /// A matcher state for a field: the same as adding its puyos one by
    /// one, computed per label (colours and counts first, then the
    /// contradictions and the numerator over the label pairs).
    pub fn match_board(&self, board: &Board) -> Matcher {
        let mut m = self.matcher();
        for kind in 0..KINDS as u8 {
            let mut p = board.plane(kind) & self.cells;
            while p != 0 {
                let pos = p.trailing_zeros();
                p &= p - 1;
                let c = super::board::cell_of_bitpos(pos);
                let l = self.cell_label[c] as usize;
                let b = 1u8 << kind;
                if Some(c) == self.trigger || m.mask[l] & !b != 0 {
                    m.dead = true;
                    return m;
                }
                m.mask[l] |= b;
                m.count[l] += 1;
            }
        }
        let mut num = 0.0;
        for (l, label) in self.labels.iter().enumerate() {
            let cl = m.count[l] as f64;
            if cl == 0.0 {
                continue;
            }
            num += label.weight * cl * cl;
            for &(p, w) in &self.diff[l] {
                let p = p as usize;
                if m.mask[l] & m.mask[p] != 0 {
                    m.dead = true;
                    return m;
                }
                num += w * cl * m.count[p] as f64;
            }
        }
        m.num = num;
        m
    }

    /// `sum |T_ij|`.
    pub fn norm(&self) -> f64 {
        self.norm
    }
}

/// A field's standing against one template: which kinds and how many
/// puyos each label holds, the score's numerator, and whether a
/// contradiction was seen.
#[derive(Clone, Copy, Debug)]
pub struct Matcher {
    mask: [u8; MAX_LABELS],
    count: [u8; MAX_LABELS],
    num: f64,
    dead: bool,
}

impl Matcher {
    /// One more puyo of `kind` at cell index `c`.
    #[inline]
    pub fn add(&mut self, t: &Template, c: usize, kind: u8) {
        let l = t.cell_label[c];
        if l == NONE || self.dead {
            return;
        }
        if Some(c) == t.trigger {
            // The firing cell stays empty while the template is built.
            self.dead = true;
            return;
        }
        let l = l as usize;
        let b = 1u8 << kind;
        if self.mask[l] & !b != 0 {
            self.dead = true;
            return;
        }
        let mut delta = t.labels[l].weight * (2 * self.count[l] as u32 + 1) as f64;
        for &(m, w) in &t.diff[l] {
            let m = m as usize;
            if self.mask[m] & b != 0 {
                self.dead = true;
                return;
            }
            delta += 2.0 * w * self.count[m] as f64;
        }
        self.mask[l] |= b;
        self.count[l] += 1;
        self.num += delta;
    }

    /// Adds the puyos of `after` that `before` lacks (a drop without a
    /// chain): cheaper than matching the whole field.
    pub fn add_new(&mut self, t: &Template, before: &Board, after: &Board) {
        for kind in 0..KINDS as u8 {
            let mut p = after.plane(kind) & !before.plane(kind);
            while p != 0 {
                let pos = p.trailing_zeros();
                p &= p - 1;
                self.add(t, super::board::cell_of_bitpos(pos), kind);
            }
        }
    }

    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// The match score (`-inf` once contradicted).
    pub fn score(&self, t: &Template) -> f64 {
        if self.dead {
            f64::NEG_INFINITY
        } else {
            self.num / t.norm
        }
    }
}

/// Reads a template file: `template NAME` lines, an optional `pairs` line,
/// then the drawing's rows; `#` starts a comment line; blank lines end
/// nothing.
pub fn parse_set(text: &str) -> Result<Vec<Template>, String> {
    let mut out = vec![];
    let mut cur: Option<(String, bool, Vec<&str>)> = None;
    let flush = |cur: &mut Option<(String, bool, Vec<&str>)>, out: &mut Vec<Template>| {
        if let Some((name, pairs, rows)) = cur.take() {
            out.push(Template::compile(&name, &rows, pairs)?);
        }
        Ok::<(), String>(())
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("template ") {
            flush(&mut cur, &mut out)?;
            cur = Some((name.trim().to_string(), false, vec![]));
        } else if line == "pairs" {
            match &mut cur {
                Some((_, pairs, rows)) if rows.is_empty() => *pairs = true,
                _ => {
                    return Err(format!(
                        "line {}: 'pairs' must follow 'template NAME'",
                        i + 1
                    ))
                }
            }
        } else {
            match &mut cur {
                Some((_, _, rows)) => rows.push(line),
                None => return Err(format!("line {}: a row before any 'template NAME'", i + 1)),
            }
        }
    }
    flush(&mut cur, &mut out)?;
    Ok(out)
}

/// The shipped template sets.
pub const STAIRS: &str = include_str!("templates/stairs.txt");
pub const SANDWICH: &str = include_str!("templates/sandwich.txt");
pub const DOMINO: &str = include_str!("templates/domino.txt");

/// A shipped set by name with its matrices built from `pair` weights.
pub fn set_with(name: &str, pair: PairWeight) -> Result<Vec<Template>, String> {
    Ok(set(name)?
        .into_iter()
        .map(|t| t.with_pair_weight(pair))
        .collect())
}

/// A shipped set by name: `stairs`, `sandwich`, `domino` or `all`.
pub fn set(name: &str) -> Result<Vec<Template>, String> {
    let texts: &[&str] = match name {
        "stairs" => &[STAIRS],
        "sandwich" => &[SANDWICH],
        "domino" => &[DOMINO],
        "all" => &[STAIRS, SANDWICH, DOMINO],
        other => {
            return Err(format!(
                "unknown template set '{other}' (known: stairs, sandwich, domino, all)"
            ))
        }
    };
    let mut out = vec![];
    for t in texts {
        out.extend(parse_set(t).map_err(|e| format!("{name}: {e}"))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::relation::{match_score, state_matrix};
    use super::*;

    const SMALL: &str = "template two-link
G.....
R.....
R*....
RGGG..
";

    fn cells_of(b: &Board) -> Vec<Option<u8>> {
        (0..CELLS).map(|c| b.get(c / ROWS, c % ROWS)).collect()
    }

    #[test]
    fn a_small_chain_compiles_with_boundary_and_weights() {
        let src = SMALL.replace('R', "A").replace('G', "B");
        let t = &parse_set(&src).unwrap()[0];
        assert_eq!(t.links, 2);
        // The firing cell is one of A's: A holds four cells, B four.
        let trig = t.trigger.unwrap();
        assert_eq!(t.cell_label[trig], 0);
        assert_eq!(t.labels[0].cells.len(), 4);
        assert!(t.labels[0].cells.contains(&trig));
        assert_eq!(t.labels[1].cells.len(), 4);
        // A and B touch: X both ways.
        assert_eq!(t.truth[0][1], Rel::Diff);
        assert_eq!(t.truth[1][0], Rel::Diff);
        // A boundary cell (above the firing cell) differs from A.
        let above = t.cell_label[cell(1, 2)] as usize;
        assert!(!t.labels[above].body);
        assert_eq!(t.truth[above][0], Rel::Diff);
        // Weights: 100 per X with a body label, 10 per X with a boundary
        // label, +100 on the wall/floor; a boundary label 10 per X.
        let (mut body_x, mut boundary_x) = (0.0, 0.0);
        for (m, r) in t.truth[0].iter().enumerate() {
            if *r == Rel::Diff {
                if t.labels[m].body {
                    body_x += 1.0;
                } else {
                    boundary_x += 1.0;
                }
            }
        }
        // A touches B; above and beside the firing cell are boundary.
        assert_eq!((body_x, boundary_x), (1.0, 2.0));
        assert_eq!(
            t.labels[0].weight,
            100.0 * body_x + 10.0 * boundary_x + 100.0
        );
        let above_x = t.truth[above].iter().filter(|&&r| r == Rel::Diff).count() as f64;
        assert_eq!(t.labels[above].weight, 10.0 * above_x);
        let b = t.coloured_board(false).unwrap();
        assert_eq!(b.get(1, 1), None, "the firing cell stays empty");
        let built = t.match_board(&b);
        assert!(!built.is_dead() && built.score(t) < 1.0);
        let mut fired = b;
        fired.set(trig / ROWS, trig % ROWS, t.trigger_colour());
        // Even of A's colour, a puyo on the firing cell contradicts.
        assert!(t.match_board(&fired).is_dead());
        let mut inc = built;
        inc.add(t, trig, t.trigger_colour().unwrap());
        assert!(inc.is_dead());
        assert_eq!(fired.resolve().links, 2);
    }

    #[test]
    fn the_matcher_equals_the_dense_definition() {
        let src = SMALL.replace('R', "A").replace('G', "B");
        for pair in [PairWeight::Mean, PairWeight::Min] {
            let t = &parse_set(&src).unwrap()[0].clone().with_pair_weight(pair);
            assert_eq!(t.pair_weight_rule(), pair);
            let dense = t.matrix();
            let mut b = Board::empty();
            let pairs = [(0u8, 0u8), (1, 2), (0, 1), (3, 3), (1, 1)];
            let spots = [(0, 0), (1, 1), (0, 1), (3, 0), (2, 1)];
            for (&(a, c), &(col, rot)) in pairs.iter().zip(&spots) {
                let before = b;
                b.play(
                    super::super::board::Pair { axis: a, child: c },
                    super::super::board::Placement { col, rot },
                );
                let m = t.match_board(&b);
                let trig = t.trigger.unwrap();
                let expect = if b.get(trig / ROWS, trig % ROWS).is_some() {
                    f64::NEG_INFINITY
                } else {
                    match_score(&state_matrix(&cells_of(&b)), &dense)
                };
                let got = m.score(t);
                assert!(
                    (got == expect) || (got - expect).abs() < 1e-9,
                    "{pair:?}: {got} vs {expect} on\n{b:?}"
                );
                let mut inc = t.match_board(&before);
                inc.add_new(t, &before, &b);
                assert!(inc.score(t) == got || (inc.score(t) - got).abs() < 1e-9);
            }
        }
    }

    /// With the minimum, a pair of a body and a boundary label weighs the
    /// boundary's weight: the chain body alone scores more of the total.
    #[test]
    fn min_weights_give_the_body_more_of_the_score() {
        let src = SMALL.replace('R', "A").replace('G', "B");
        let mean = &parse_set(&src).unwrap()[0];
        let min = &mean.clone().with_pair_weight(PairWeight::Min);
        let body = mean.coloured_board(false).unwrap();
        let (a, b) = (
            mean.match_board(&body).score(mean),
            min.match_board(&body).score(min),
        );
        assert!(b > a && b < 1.0, "{a} {b}");
        assert!(PairWeight::parse("median").is_err());
    }

    #[test]
    fn bad_drawings_are_errors() {
        assert!(parse_set("template x\nAB\n").unwrap_err().contains("wide"));
        assert!(parse_set("template x\nA.....\nA.....\nA.....\n")
            .unwrap_err()
            .contains("'*'"));
        assert!(parse_set("template x\n*.....\nAC....\n")
            .unwrap_err()
            .contains("gaps"));
        assert!(parse_set("AAA...\n").unwrap_err().contains("before"));
        let e = parse_set("template x\nA.....\n*.....\nA.....\n").unwrap_err();
        assert!(e.contains("puyos") || e.contains("group"), "{e}");
    }

    /// Every shipped template's drawing, coloured from its truth table,
    /// fires exactly its chain: one link per label, each clearing exactly
    /// its cells (the domino, not a chain, stands without vanishing).
    #[test]
    fn every_shipped_template_fires_exactly_its_chain() {
        for name in ["stairs", "sandwich", "domino"] {
            let set = super::set(name).unwrap();
            for t in &set {
                {
                    let mut b = t
                        .coloured_board(false)
                        .unwrap_or_else(|| panic!("{}: four colours do not suffice", t.name));
                    assert!(
                        !b.would_vanish(),
                        "{}: vanishes before firing\n{b:?}",
                        t.name
                    );
                    if !t.chain {
                        assert_eq!(b.resolve().links, 0);
                        continue;
                    }
                    let trig = t.trigger.unwrap();
                    b.set(trig / ROWS, trig % ROWS, t.trigger_colour());
                    let chain = b.resolve();
                    assert_eq!(chain.links as usize, t.links, "{}", t.name);
                    for (k, label) in t.labels.iter().filter(|l| l.body).enumerate() {
                        // The firing puyo is one of A's cells.
                        assert_eq!(
                            chain.cleared[k] as usize,
                            label.cells.len(),
                            "{} link {k}",
                            t.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn shipped_sets_have_the_seeds_sizes() {
        assert_eq!(set("stairs").unwrap().len(), 10);
        assert_eq!(set("sandwich").unwrap().len(), 12);
        assert_eq!(set("domino").unwrap().len(), 1);
        assert_eq!(set("all").unwrap().len(), 23);
        for t in set("stairs")
            .unwrap()
            .iter()
            .chain(&set("sandwich").unwrap())
        {
            assert_eq!(t.links, 8, "{}", t.name);
            assert!(t.chain);
        }
        assert!(set("nope").is_err());
    }
}
