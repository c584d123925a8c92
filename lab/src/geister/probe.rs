//! The capture probe (issue 60's fast measure): recorded games replayed
//! from one seat, `best` observing each turn as in play, and asked, at each
//! turn where it could take an opponent piece whose colour it does not
//! know, which move it would choose. The move the record made is the one
//! that goes on, so every setting is asked about the same positions
//! (paired); the true colours, known to the record, say whether what it
//! would take is red or blue.
//!
//! What it counts, by ply band: the turns with such a capture on offer, the
//! ones where a red (a blue) was among the pieces within reach, and how
//! often the agent would take a red, or a blue; beside it what the recorded
//! player took. A first game is lost to bait by taking reds early (issue
//! 50: 199 reds and no blue in plies 0-19 of 200 first games against
//! Naotti-2020): fewer reds taken with as many blues is the aim.

use ladderbot::games::geister::best::learned::each_turn_of;
use ladderbot::games::geister::best::risk::unknown_target;
use ladderbot::games::geister::best::Best;
use ladderbot::games::geister::geometry::{dist, THEIR_EXITS};
use ladderbot::games::geister::rules::{Colour, Move, Setup};
use ladderbot::games::geister::view::View;
use ladderbot::search::Limits;

/// Plies in a band of the tally.
pub const BAND: u32 = 20;
/// Bands: 0-19, 20-39, 40-59, 60-79 and 80 on.
pub const BANDS: usize = 5;

/// One turn with a capture of an unknown piece on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The game's ply (both sides counted, from 0).
    pub ply: u32,
    /// The opponent's reds we had taken before this turn.
    pub reds_taken: u32,
    /// Whether a red, and a blue, were among the unknown pieces in reach.
    pub red_in_reach: bool,
    pub blue_in_reach: bool,
    /// The colour of what the agent's move would take (`None`: no capture).
    pub chose: Option<Colour>,
    /// The colour of what the record's move took.
    pub played: Option<Colour>,
    /// Steps from what the agent would take to the nearer of its exits
    /// (our back corners).
    pub chose_dist: Option<u32>,
}

/// The colour of the unknown piece `mv` takes in `view`, by the true
/// colours of the opponent's `setup`.
fn takes(view: &View, mv: Move, setup: &Setup) -> Option<Colour> {
    unknown_target(view, mv).map(|q| setup.colour(q))
}

/// Replays one game (`setups`, seat 0 first, and its `moves`) from
/// `observer`'s seat with `agent` (a fresh game), asking it at each turn
/// with a capture of an unknown piece on offer; its answers, in order.
pub fn probe_game(
    agent: &mut Best,
    setups: [Setup; 2],
    moves: &[Move],
    observer: usize,
    limits: &Limits,
) -> Vec<Offer> {
    let theirs = setups[1 - observer];
    let mut out = Vec::new();
    agent.new_game();
    each_turn_of(setups, moves, observer, |view, played| {
        let legal = view.legal_moves();
        let reach: Vec<Colour> = legal
            .iter()
            .filter_map(|&m| takes(view, m, &theirs))
            .collect();
        let mine = agent.replay_turn(view, played, !reach.is_empty(), limits);
        let Some(mine) = mine else {
            return;
        };
        let chose = takes(view, mine, &theirs);
        let chose_dist = unknown_target(view, mine)
            .and_then(|q| view.opp(q).square())
            .map(|sq| {
                THEIR_EXITS
                    .iter()
                    .map(|&e| u32::from(dist(sq, e)))
                    .min()
                    .unwrap_or(0)
            });
        out.push(Offer {
            ply: view.ply(),
            reds_taken: view.opp_captured(Colour::Red),
            red_in_reach: reach.contains(&Colour::Red),
            blue_in_reach: reach.contains(&Colour::Blue),
            chose,
            played: takes(view, played, &theirs),
            chose_dist,
        });
    });
    out
}

/// The probe's counts for one band (or all of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Turns with a capture of an unknown piece on offer.
    pub offers: u32,
    /// ...with a red in reach, with a blue in reach.
    pub red_offers: u32,
    pub blue_offers: u32,
    /// The agent would take a red, a blue.
    pub took_red: u32,
    pub took_blue: u32,
    /// The recorded player took a red, a blue.
    pub played_red: u32,
    pub played_blue: u32,
}

impl Counts {
    fn add(&mut self, o: &Offer) {
        self.offers += 1;
        self.red_offers += u32::from(o.red_in_reach);
        self.blue_offers += u32::from(o.blue_in_reach);
        self.took_red += u32::from(o.chose == Some(Colour::Red));
        self.took_blue += u32::from(o.chose == Some(Colour::Blue));
        self.played_red += u32::from(o.played == Some(Colour::Red));
        self.played_blue += u32::from(o.played == Some(Colour::Blue));
    }
}

/// The probe's tally over many games.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    pub games: u32,
    /// By ply band ([`BAND`] plies each, the last open-ended).
    pub bands: [Counts; BANDS],
    /// By the reds already taken (0, 1, 2, 3).
    pub by_reds_taken: [Counts; 4],
    pub all: Counts,
}

impl Tally {
    /// Adds one game's offers.
    pub fn add_game(&mut self, offers: &[Offer]) {
        self.games += 1;
        for o in offers {
            let band = ((o.ply / BAND) as usize).min(BANDS - 1);
            self.bands[band].add(o);
            self.by_reds_taken[(o.reds_taken as usize).min(3)].add(o);
            self.all.add(o);
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        let add = |a: &mut Counts, b: &Counts| {
            a.offers += b.offers;
            a.red_offers += b.red_offers;
            a.blue_offers += b.blue_offers;
            a.took_red += b.took_red;
            a.took_blue += b.took_blue;
            a.played_red += b.played_red;
            a.played_blue += b.played_blue;
        };
        for (a, b) in self.bands.iter_mut().zip(&other.bands) {
            add(a, b);
        }
        for (a, b) in self.by_reds_taken.iter_mut().zip(&other.by_reds_taken) {
            add(a, b);
        }
        add(&mut self.all, &other.all);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::geister::best::BestConfig;
    use ladderbot::games::geister::rules::{Dir, Geister};

    #[test]
    fn a_capture_on_offer_is_asked_and_the_record_goes_on() {
        // Both sides' reds are A-D. Seat 1's A starts on (4,1) in seat 0's
        // frame and walks down its file to (4,3), next to our D on (4,4),
        // while our B steps out and back.
        let setups = [Setup::from_letters("ABCD").unwrap(); 2];
        let script = [
            Move::new(1, Dir::N), // ours: B (2,4) -> (2,3)
            Move::new(0, Dir::N), // theirs: A -> (4,2)
            Move::new(1, Dir::S), // ours: B back
            Move::new(0, Dir::N), // theirs: A -> (4,3)
            Move::new(2, Dir::N), // ours: C (3,4) -> (3,3), not the capture
        ];
        let mut g = Geister::new(setups);
        for (ply, &mv) in script.iter().enumerate() {
            if ply == 4 {
                let v = g.view(0);
                let reach: Vec<Move> = v
                    .legal_moves()
                    .into_iter()
                    .filter(|&m| unknown_target(&v, m).is_some())
                    .collect();
                assert_eq!(reach, vec![Move::new(3, Dir::N)], "only D can take");
            }
            assert!(g.is_legal(mv), "{mv:?} at ply {ply}");
            g.play(mv);
        }
        let mut agent = Best::new(
            BestConfig {
                threads: 1,
                ..BestConfig::default()
            },
            7,
        );
        let limits = Limits::playouts(300);
        let offers = probe_game(&mut agent, setups, &script, 0, &limits);
        assert_eq!(offers.len(), 1, "{offers:?}");
        let o = offers[0];
        assert_eq!((o.ply, o.reds_taken), (4, 0));
        assert!(o.red_in_reach && !o.blue_in_reach, "their A is red");
        assert_eq!(o.played, None, "the record's move took nothing");
        match o.chose {
            Some(c) => assert_eq!((c, o.chose_dist), (Colour::Red, Some(3))),
            None => assert_eq!(o.chose_dist, None),
        }
        let mut t = Tally::default();
        t.add_game(&offers);
        assert_eq!((t.games, t.all.offers, t.bands[0].offers), (1, 1, 1));
        assert_eq!(t.by_reds_taken[0].red_offers, 1);
        assert_eq!(t.all.took_red, u32::from(o.chose.is_some()));
        assert_eq!(t.all.took_blue, 0);
        // Seen from the other seat nothing is in reach at its turns.
        assert!(probe_game(&mut agent, setups, &script, 1, &limits).is_empty());
        let mut twice = t.clone();
        twice.merge(&t);
        assert_eq!((twice.games, twice.all.offers), (2, 2));
    }
}
