//! `ladderbot merge --of NAME`: one player's results over game records of
//! any origin (`serve --records`, `serve-gat --out`, `referee --out`,
//! `play --records`, `match --out`), against whoever it met.
//!
//! Players are told apart by name: a game counts when exactly one of its
//! seats is NAME; a game where both seats or neither are is skipped. A game
//! cut off before its end ([`cut_off`]: nobody is at fault) is left out.
//! Games lost on time, by an illegal move or by a disconnection count: on a
//! platform they are results, listed by how they ended.
//!
//! Score, Elo with its 95% interval, LOS and the SPRT are the runner's own
//! ([`Strength`], [`super::report::sprt_result`]) over the games as
//! trinomial observations: games on a platform come in no seat-swapped
//! pairs, so there is no pentanomial count.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use super::report::{elo_bound, signed, sprt_result, Strength};
use super::{stats, SprtConfig, SprtResult};
use crate::records::{read_record_files, EndReason, GameRecord};

/// The ways a counted game ends, in report order (always shown, zeros
/// too).
const ENDINGS: [EndReason; 4] = [
    EndReason::Rules,
    EndReason::Timeout,
    EndReason::IllegalMove,
    EndReason::Disconnect,
];

/// Opponents named in the text report; the rest are counted.
const OPPONENTS_SHOWN: usize = 10;
/// Players named in the error for a name no game has.
const PLAYERS_SHOWN: usize = 20;

/// Games, wins, draws and losses, from the judged player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    fn add(&mut self, result: GameResult) {
        self.games += 1;
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameResult {
    Win,
    Draw,
    Loss,
}

/// One player's results over some records, from its side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerResults {
    /// The player judged (`--of`).
    pub player: String,
    /// Records files read.
    pub files: usize,
    /// Records read (every game, counted or not).
    pub records: u32,
    /// Games counted: the player in exactly one seat, not cut off.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Score, Elo (the player less its opponents) with its 95% interval
    /// (trinomial: the games), LOS.
    #[serde(flatten)]
    pub strength: Strength,
    /// Counted games the player had seat 0 (moves first) and seat 1 in.
    pub seats: [u32; 2],
    /// Counted games by game (`four3d`...): several games are pooled.
    pub by_game: BTreeMap<String, u32>,
    /// The player's results against each opponent, by name.
    pub opponents: BTreeMap<String, Wdl>,
    /// Counted games by how they ended (`rules`, `timeout`,
    /// `illegal_move`, `disconnect`), whoever lost.
    pub endings: BTreeMap<String, u32>,
    /// Counted games the player lost other than by the rules, by reason.
    pub forfeited: BTreeMap<String, u32>,
    /// The player's games left out as cut off (nobody at fault).
    pub aborted: u32,
    /// Games left out as not the player's alone: it holds neither seat or
    /// both.
    pub skipped: u32,
    /// Of `skipped`, the games it holds both seats in.
    pub skipped_both_seats: u32,
    /// The SPRT over the counted games; its decision is `H1`, `H0` or
    /// `undecided` (the records are all there is).
    pub sprt: Option<SprtResult>,
    /// Earlier games known only by their totals (`merge --prior`), counted
    /// in the games, wins, draws, losses, score, Elo and SPRT above, not
    /// in the seats, opponents or endings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior: Option<Wdl>,
}

impl PlayerResults {
    /// Adds `prior`, earlier games known only by their totals (their
    /// records lost, say), to the counts, and judges again with `sprt`.
    pub fn with_prior(mut self, prior: Wdl, sprt: Option<SprtConfig>) -> Self {
        self.games += prior.wins + prior.draws + prior.losses;
        self.wins += prior.wins;
        self.draws += prior.draws;
        self.losses += prior.losses;
        self.prior = Some(Wdl {
            games: prior.wins + prior.draws + prior.losses,
            ..prior
        });
        self.judge(sprt);
        self
    }

    /// Score, Elo, LOS and the SPRT of the counts.
    fn judge(&mut self, sprt: Option<SprtConfig>) {
        let sample = stats::Sample::trinomial(self.wins, self.draws, self.losses);
        self.strength = Strength::of(self.wins, self.draws, self.losses, &sample);
        self.sprt = sprt.map(|s| sprt_result(&sample, &s, None, "undecided"));
    }
}

/// Whether a game was cut off rather than played to a result, nobody at
/// fault: recorded as aborted (reason `aborted`, or result `*`), or ended
/// by a disconnection without a winner.
pub fn cut_off(r: &GameRecord) -> bool {
    r.is_aborted()
        || r.result == GameRecord::ABORTED
        || (r.winner.is_none() && r.reason == EndReason::Disconnect)
}

/// Reads `files` (records files, or folders of `.jsonl` files) by the one
/// reader ([`crate::records::read_json_lines`]: a torn last line skipped
/// with a warning) and judges `player` over them.
pub fn player_results_of_files(
    files: &[PathBuf],
    player: &str,
    sprt: Option<SprtConfig>,
) -> Result<PlayerResults, String> {
    let paths = super::merge::record_paths(files)?;
    let read = read_record_files(&paths)?;
    let records: Vec<GameRecord> = read.records.into_iter().map(|r| r.record).collect();
    player_results(&records, player, paths.len(), sprt)
}

/// `player`'s results over `records` (read from `files` files). Refused:
/// no records, no game with `player` in exactly one seat, bad SPRT bounds.
pub fn player_results(
    records: &[GameRecord],
    player: &str,
    files: usize,
    sprt: Option<SprtConfig>,
) -> Result<PlayerResults, String> {
    if let Some(s) = &sprt {
        s.check()?;
    }
    if records.is_empty() {
        return Err("merge: the files hold no game records".into());
    }
    let mut total = Wdl::default();
    let mut out = PlayerResults {
        player: player.to_string(),
        files,
        records: records.len() as u32,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        strength: Strength::of(0, 0, 0, &stats::Sample::trinomial(0, 0, 0)),
        seats: [0, 0],
        by_game: BTreeMap::new(),
        opponents: BTreeMap::new(),
        endings: ENDINGS.iter().map(|e| (e.key().to_string(), 0)).collect(),
        forfeited: BTreeMap::new(),
        aborted: 0,
        skipped: 0,
        skipped_both_seats: 0,
        sprt: None,
        prior: None,
    };
    for r in records {
        let seat = match [0, 1].map(|s| is_named(&r.players[s], player)) {
            [true, false] => 0,
            [false, true] => 1,
            both_or_neither => {
                out.skipped += 1;
                if both_or_neither[0] {
                    out.skipped_both_seats += 1;
                }
                continue;
            }
        };
        if cut_off(r) {
            out.aborted += 1;
            continue;
        }
        let result = match r.winner {
            Some(w) if w == seat => GameResult::Win,
            Some(_) => GameResult::Loss,
            None => GameResult::Draw,
        };
        total.add(result);
        out.seats[seat] += 1;
        *out.by_game.entry(r.game.clone()).or_default() += 1;
        out.opponents
            .entry(r.players[1 - seat].clone())
            .or_default()
            .add(result);
        let how = r.reason.key().to_string();
        if result == GameResult::Loss && r.reason != EndReason::Rules {
            *out.forfeited.entry(how.clone()).or_default() += 1;
        }
        *out.endings.entry(how).or_default() += 1;
    }
    if total.games == 0 && out.aborted == 0 {
        if out.skipped_both_seats > 0 {
            return Err(format!(
                "merge --of {player}: {player} holds both seats in every game it is in ({}): \
                 there is no opponent to judge it against",
                out.skipped_both_seats
            ));
        }
        let seen: BTreeSet<&str> = records
            .iter()
            .flat_map(|r| r.players.iter().map(String::as_str))
            .collect();
        let mut names: Vec<&str> = seen.iter().copied().take(PLAYERS_SHOWN).collect();
        let more = seen.len().saturating_sub(PLAYERS_SHOWN);
        let more = if more > 0 {
            format!(", ... ({more} more)")
        } else {
            String::new()
        };
        if names.is_empty() {
            names.push("none");
        }
        return Err(format!(
            "merge --of {player}: no game has a player named {player} (players seen: {}{more})",
            names.join(", ")
        ));
    }
    out.games = total.games;
    out.wins = total.wins;
    out.draws = total.draws;
    out.losses = total.losses;
    out.judge(sprt);
    Ok(out)
}

/// `N things` / `1 thing`.
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `alice` and a human summary of its results, several lines.
pub fn render_player_results(r: &PlayerResults) -> String {
    let p = &r.player;
    let mut s = String::new();
    let of = match r.by_game.len() {
        0 => String::new(),
        1 => format!(" of {}", r.by_game.keys().next().unwrap_or(&String::new())),
        _ => {
            let each: Vec<String> = r.by_game.iter().map(|(g, n)| format!("{g} {n}")).collect();
            format!(" ({}; pooled)", each.join(", "))
        }
    };
    let _ = writeln!(
        s,
        "{p}: {}{of}, from {} in {}",
        count(r.games, "game", "games"),
        count(r.records, "record", "records"),
        count(r.files as u32, "file", "files")
    );
    if let Some(w) = &r.prior {
        let _ = writeln!(
            s,
            "with {} known only by their totals (--prior): +{} ={} -{}, counted in the score, \
             Elo and SPRT, not in the seats or endings",
            count(w.games, "earlier game", "earlier games"),
            w.wins,
            w.draws,
            w.losses
        );
    }
    if !r.opponents.is_empty() {
        let mut opponents: Vec<(&String, &Wdl)> = r.opponents.iter().collect();
        opponents.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
        let mut shown: Vec<String> = opponents
            .iter()
            .take(OPPONENTS_SHOWN)
            .map(|(name, w)| {
                format!(
                    "{name} {} (+{} ={} -{})",
                    w.games, w.wins, w.draws, w.losses
                )
            })
            .collect();
        if opponents.len() > OPPONENTS_SHOWN {
            shown.push(format!("{} more", opponents.len() - OPPONENTS_SHOWN));
        }
        let _ = writeln!(s, "against: {}", shown.join(", "));
    }
    let _ = writeln!(
        s,
        "{p}: {}, {}, {}; score {:.4} ({:.1}%)",
        count(r.wins, "win", "wins"),
        count(r.draws, "draw", "draws"),
        count(r.losses, "loss", "losses"),
        r.strength.score,
        100.0 * r.strength.score
    );
    let capped = if r.strength.elo.abs() >= stats::ELO_CAP {
        " (capped)"
    } else {
        ""
    };
    let model = format!(
        "{}, {} {}",
        r.strength.model,
        r.games,
        r.strength.model.unit(r.games.into())
    );
    let _ = writeln!(
        s,
        "Elo {p}-opponents: {}{capped}, 95% interval [{}, {}] ({model}); LOS {:.2}%",
        signed(r.strength.elo),
        elo_bound(r.strength.score_lo),
        elo_bound(r.strength.score_hi),
        100.0 * r.strength.los
    );
    let [first, second] = r.seats;
    let balance = if first.abs_diff(second) > 1 {
        "; unbalanced: alternate the seats for a fair measure"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "seats: {p} had seat 0 in {}, seat 1 in {second}{balance}",
        count(first, "game", "games")
    );
    let mut keys: Vec<&str> = ENDINGS.iter().map(|e| e.key()).collect();
    keys.extend(
        r.endings
            .keys()
            .map(String::as_str)
            .filter(|k| !ENDINGS.iter().any(|e| e.key() == *k)),
    );
    let endings: Vec<String> = keys
        .iter()
        .map(|k| {
            let n = r.endings.get(*k).copied().unwrap_or(0);
            format!("{} {n}", k.replace('_', " "))
        })
        .collect();
    let _ = write!(s, "endings: {}", endings.join(", "));
    if !r.forfeited.is_empty() {
        let lost: Vec<String> = r
            .forfeited
            .iter()
            .map(|(k, n)| format!("{} {n}", k.replace('_', " ")))
            .collect();
        let _ = write!(s, " ({p} lost by {})", lost.join(", "));
    }
    s.push('\n');
    let _ = write!(s, "left out: {} aborted, {} skipped", r.aborted, r.skipped);
    if r.skipped > 0 {
        let _ = write!(
            s,
            " ({} without {p}, {} with {p} in both seats)",
            r.skipped - r.skipped_both_seats,
            r.skipped_both_seats
        );
    }
    if let Some(t) = &r.sprt {
        let verdict = match t.decision.as_str() {
            "H1" => "accept H1",
            "H0" => "accept H0",
            other => other,
        };
        let _ = write!(
            s,
            "\nSPRT elo0={} elo1={} ({model}): LLR {:.3} in [{:.3}, {:.3}] -> {verdict}",
            t.elo0, t.elo1, t.llr, t.lower, t.upper
        );
    }
    s
}

/// Whether a player's recorded name is `name`: the same, or `name:` and
/// more (`referee` names its bots `A:COMMAND` and `B:COMMAND`, so `--of A`
/// is the first bot).
pub fn is_named(recorded: &str, name: &str) -> bool {
    recorded == name
        || recorded
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::report::{undecided, ReportHead, Totals};
    use crate::search::Outcome;

    /// A four3d game between `players` (seat 0 first) won by `winner`
    /// (`None`: a draw), ended by `reason`.
    fn game(players: [&str; 2], winner: Option<usize>, reason: EndReason) -> GameRecord {
        GameRecord {
            game: "four3d".into(),
            id: format!("g-{}-{}", players[0], players[1]),
            players: players.map(String::from),
            winner,
            result: GameRecord::result_string(winner).into(),
            reason,
            detail: None,
            start: serde_json::Value::Null,
            moves: Vec::new(),
            move_ms: Vec::new(),
            opening: None,
            ending: None,
            started_ms: 1,
            finished_ms: 2,
            match_tag: None,
            analysis: None,
        }
    }

    fn aborted(players: [&str; 2]) -> GameRecord {
        let mut g = game(players, None, EndReason::Aborted);
        g.result = GameRecord::ABORTED.into();
        g
    }

    /// alice on seat 0 and seat 1, a draw, forfeits, cut-off games, games
    /// without her and one against herself.
    fn records() -> Vec<GameRecord> {
        use EndReason::*;
        vec![
            game(["alice", "bob"], Some(0), Rules),         // win, seat 0
            game(["bob", "alice"], Some(1), Rules),         // win, seat 1
            game(["alice", "bob"], Some(1), Timeout),       // loss on time, seat 0
            game(["carol", "alice"], None, Rules),          // draw, seat 1
            game(["carol", "alice"], Some(0), Disconnect),  // carol's win: alice left
            game(["alice", "carol"], Some(0), IllegalMove), // carol lost by an illegal move
            aborted(["alice", "bob"]),                      // cut off
            game(["bob", "alice"], None, Disconnect),       // no winner: nobody at fault
            game(["bob", "carol"], Some(0), Rules),         // without alice
            game(["alice", "alice"], Some(0), Rules),       // alice in both seats
        ]
    }

    #[test]
    fn counts_the_games_with_the_player_in_one_seat() {
        let r = player_results(&records(), "alice", 1, None).unwrap();
        assert_eq!((r.games, r.wins, r.draws, r.losses), (6, 3, 1, 2));
        assert_eq!(r.records, 10);
        assert_eq!(r.seats, [3, 3]);
        assert_eq!((r.aborted, r.skipped, r.skipped_both_seats), (2, 2, 1));
        assert_eq!(r.by_game, BTreeMap::from([("four3d".to_string(), 6)]));
        let wdl = |games, wins, draws, losses| Wdl {
            games,
            wins,
            draws,
            losses,
        };
        assert_eq!(
            r.opponents,
            BTreeMap::from([
                ("bob".to_string(), wdl(3, 2, 0, 1)),
                ("carol".to_string(), wdl(3, 1, 1, 1)),
            ])
        );
        let map = |pairs: &[(&str, u32)]| -> BTreeMap<String, u32> {
            pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
        };
        assert_eq!(
            r.endings,
            map(&[
                ("rules", 3),
                ("timeout", 1),
                ("illegal_move", 1),
                ("disconnect", 1)
            ])
        );
        // Lost by alice other than by the rules: the timeout and her
        // disconnection (carol's illegal move is a win).
        assert_eq!(r.forfeited, map(&[("timeout", 1), ("disconnect", 1)]));
        assert_eq!(r.strength.score, 3.5 / 6.0);
        assert_eq!(r.strength.model, stats::Model::Trinomial);
        assert!(r.sprt.is_none());
        // From bob's side: his games against alice mirrored, and the one
        // against carol; alice's game against herself is not his.
        let b = player_results(&records(), "bob", 1, None).unwrap();
        assert_eq!((b.games, b.wins, b.draws, b.losses), (4, 2, 0, 2));
        assert_eq!(b.seats, [2, 2]);
        assert_eq!((b.aborted, b.skipped, b.skipped_both_seats), (2, 4, 0));
    }

    #[test]
    fn a_name_no_game_has_is_refused_naming_the_players_seen() {
        let e = player_results(&records(), "dave", 1, None).unwrap_err();
        assert_eq!(
            e,
            "merge --of dave: no game has a player named dave (players seen: alice, bob, carol)"
        );
        let own = [game(["eve", "eve"], Some(0), EndReason::Rules)];
        let e = player_results(&own, "eve", 1, None).unwrap_err();
        assert!(
            e.contains("eve holds both seats in every game it is in (1)"),
            "{e}"
        );
        let e = player_results(&[], "eve", 1, None).unwrap_err();
        assert_eq!(e, "merge: the files hold no game records");
        // A player whose every game was cut off is judged over no games.
        let r = player_results(&[aborted(["eve", "bob"])], "eve", 1, None).unwrap();
        assert_eq!((r.games, r.aborted, r.strength.score), (0, 1, 0.5));
    }

    /// The runner's report of a match with `wins, draws, losses` for A,
    /// every game played, none in a complete pair (as platform games).
    fn runner_report(
        wins: u32,
        draws: u32,
        losses: u32,
        s: SprtConfig,
    ) -> super::super::MatchReport {
        let n = wins + draws + losses;
        let mut totals = Totals::new(n, None);
        let results = std::iter::repeat_n(Outcome::Win(0), wins as usize)
            .chain(std::iter::repeat_n(Outcome::Draw, draws as usize))
            .chain(std::iter::repeat_n(Outcome::Win(1), losses as usize));
        for (i, result) in results.enumerate() {
            // Even numbers only: no game has its pair.
            totals.add(2 * i as u32, result, None, &Default::default());
        }
        totals.report(ReportHead {
            game: "four3d",
            a: "a".into(),
            b: "b".into(),
            seed: 0,
            jobs: 1,
            sprt: Some(s),
            sprt_decision: undecided(&totals, Some(&s)),
            has_endings: false,
            transport: None,
            openings: None,
            units: ["playouts"; 2],
            budgets: None,
        })
    }

    /// `wins, draws, losses` for alice against bob, seats alternated.
    fn games(wins: u32, draws: u32, losses: u32) -> Vec<GameRecord> {
        let results = std::iter::repeat_n(Some(0), wins as usize)
            .chain(std::iter::repeat_n(None, draws as usize))
            .chain(std::iter::repeat_n(Some(1), losses as usize));
        results
            .enumerate()
            .map(|(i, from_alice)| {
                let seat = i % 2;
                let mut players = ["alice", "bob"];
                if seat == 1 {
                    players.swap(0, 1);
                }
                // Some(0): alice won; Some(1): bob won.
                let winner = from_alice.map(|w: usize| if w == 0 { seat } else { 1 - seat });
                game(players, winner, EndReason::Rules)
            })
            .collect()
    }

    #[test]
    fn score_elo_and_sprt_are_the_runners() {
        let mut seen = BTreeSet::new();
        for (w, d, l, elo0, elo1) in [
            (30, 10, 5, 0.0, 200.0), // H1
            (5, 10, 30, 0.0, 100.0), // H0
            (12, 20, 10, 0.0, 20.0), // undecided
            (3, 0, 0, -10.0, 10.0),
            (40, 2, 41, 0.0, 5.0),
        ] {
            let s = SprtConfig::new(elo0, elo1);
            let runner = runner_report(w, d, l, s);
            let r = player_results(&games(w, d, l), "alice", 1, Some(s)).unwrap();
            assert_eq!((r.wins, r.draws, r.losses), (w, d, l));
            assert_eq!(r.games, runner.games);
            assert_eq!(runner.model, stats::Model::Trinomial);
            let want = Strength {
                score: runner.score,
                elo: runner.elo,
                model: runner.model,
                score_lo: runner.score_lo,
                score_hi: runner.score_hi,
                elo_lo: runner.elo_lo,
                elo_hi: runner.elo_hi,
                los: runner.los,
            };
            assert_eq!(r.strength, want, "{w} {d} {l}");
            let (ours, theirs) = (r.sprt.unwrap(), runner.sprt.unwrap());
            assert_eq!(ours, theirs, "{w} {d} {l}");
            // And the LLR is the trinomial sample's.
            assert_eq!(ours.llr, stats::Sample::trinomial(w, d, l).llr(elo0, elo1));
            seen.insert(ours.decision);
        }
        let all: BTreeSet<String> = ["H0", "H1", "undecided"].map(String::from).into();
        assert_eq!(seen, all, "every verdict is tried");
    }

    #[test]
    fn earlier_totals_count_as_their_games_would() {
        // 30-10-5 in all: 20-6-3 from records, 10-4-2 known by totals.
        let s = SprtConfig::new(0.0, 50.0);
        let all = player_results(&games(30, 10, 5), "alice", 1, Some(s)).unwrap();
        let part = player_results(&games(20, 6, 3), "alice", 1, Some(s)).unwrap();
        let prior = Wdl {
            games: 0, // recounted
            wins: 10,
            draws: 4,
            losses: 2,
        };
        let joined = part.clone().with_prior(prior, Some(s));
        assert_eq!(
            (joined.games, joined.wins, joined.draws, joined.losses),
            (45, 30, 10, 5)
        );
        assert_eq!(joined.strength, all.strength);
        assert_eq!(joined.sprt, all.sprt);
        assert_ne!(joined.sprt, part.sprt);
        // Seats and endings are the records' only.
        assert_eq!(joined.seats, part.seats);
        assert_eq!(joined.endings, part.endings);
        assert_eq!(joined.prior.map(|w| w.games), Some(16));
        let text = render_player_results(&joined);
        assert!(
            text.contains("with 16 earlier games known only by their totals (--prior): +10 =4 -2"),
            "{text}"
        );
        assert!(!render_player_results(&part).contains("--prior"));
    }

    #[test]
    fn the_text_names_every_count() {
        let s = SprtConfig::new(0.0, 20.0);
        let r = player_results(&records(), "alice", 2, Some(s)).unwrap();
        let text = render_player_results(&r);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "alice: 6 games of four3d, from 10 records in 2 files"
        );
        assert_eq!(lines[1], "against: bob 3 (+2 =0 -1), carol 3 (+1 =1 -1)");
        assert_eq!(
            lines[2],
            "alice: 3 wins, 1 draw, 2 losses; score 0.5833 (58.3%)"
        );
        assert!(
            lines[3].starts_with("Elo alice-opponents: +58.5, 95% interval [")
                && lines[3].ends_with("(trinomial, 6 games); LOS 67.26%"),
            "{}",
            lines[3]
        );
        assert_eq!(lines[4], "seats: alice had seat 0 in 3 games, seat 1 in 3");
        assert_eq!(
            lines[5],
            "endings: rules 3, timeout 1, illegal move 1, disconnect 1 \
             (alice lost by disconnect 1, timeout 1)"
        );
        assert_eq!(
            lines[6],
            "left out: 2 aborted, 2 skipped (1 without alice, 1 with alice in both seats)"
        );
        let sprt = r.sprt.as_ref().unwrap();
        assert_eq!(
            lines[7],
            format!(
                "SPRT elo0=0 elo1=20 (trinomial, 6 games): LLR {:.3} in [-2.944, 2.944] -> undecided",
                sprt.llr
            )
        );
        assert_eq!(lines.len(), 8);
        // Unbalanced seats are pointed out.
        let mut one_seat = games(4, 0, 0);
        for g in &mut one_seat {
            if g.players[0] != "alice" {
                g.players.swap(0, 1);
                g.winner = g.winner.map(|w| 1 - w);
            }
        }
        let r = player_results(&one_seat, "alice", 1, None).unwrap();
        assert_eq!(r.seats, [4, 0]);
        assert!(render_player_results(&r)
            .contains("seats: alice had seat 0 in 4 games, seat 1 in 0; unbalanced"));
    }

    #[test]
    fn a_name_is_the_whole_name_or_what_comes_before_a_colon() {
        assert!(is_named("A:ladderbot play golad --stdio", "A"));
        assert!(is_named("alice", "alice"));
        assert!(!is_named("alice", "ali"));
        assert!(!is_named("B:ladderbot", "A"));
        assert!(!is_named("Ab:x", "A"));
    }
}
