//! Goofspiel agents by name. Neither takes parameters.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | a uniformly random card of its hand |
//! | `match` (default) | the card equal to the prize if it still holds it, else the smallest card above it, else the largest below |

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::rules::{GoofObs, Goofspiel};
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::{Agent, Decision, Limits};

/// The agent `default` stands for.
pub const DEFAULT: &str = "match";

/// The agent names [`build`] accepts (and `default`).
pub const NAMES: &[&str] = &["random", "match"];

/// The parameters of every agent, declared once: neither takes any.
pub fn decl(name: &str) -> Result<Decl, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    match name {
        "random" | "match" => Ok(Decl::new(name)),
        other => Err(crate::games::unknown_agent("goofspiel", other, NAMES)),
    }
}

/// Builds a named agent (`default` is [`DEFAULT`]); `params` must be empty.
pub fn build(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Goofspiel>>, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    decl(name)?.read(params)?;
    match name {
        "random" => Ok(Box::new(RandomBidder::new(seed))),
        "match" => Ok(Box::new(MatchBidder)),
        other => Err(crate::games::unknown_agent("goofspiel", other, NAMES)),
    }
}

/// Bids a uniformly random card of its hand.
pub struct RandomBidder {
    rng: SmallRng,
}

impl RandomBidder {
    pub fn new(seed: u64) -> Self {
        RandomBidder {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Agent<Goofspiel> for RandomBidder {
    fn name(&self) -> &str {
        "random"
    }
    /// Panics when the hand is empty (the game is over: nothing to bid).
    fn select(&mut self, obs: &GoofObs, _limits: &Limits, _stop: &AtomicBool) -> Decision<u8> {
        let mv = *obs
            .hand
            .choose(&mut self.rng)
            .expect("select called on a finished game");
        Decision {
            mv,
            playouts: 0,
            value: None,
        }
    }
}

/// Bids the prize's own value when it can, else the nearest card above,
/// else the nearest below.
pub struct MatchBidder;

/// `match`'s bid for `prize` from `hand` (ascending), `None` for an empty
/// hand.
pub fn match_bid(hand: &[u8], prize: u8) -> Option<u8> {
    hand.iter()
        .copied()
        .find(|&c| c >= prize)
        .or_else(|| hand.last().copied())
}

impl Agent<Goofspiel> for MatchBidder {
    fn name(&self) -> &str {
        "match"
    }
    /// Panics when the hand is empty (the game is over: nothing to bid).
    fn select(&mut self, obs: &GoofObs, _limits: &Limits, _stop: &AtomicBool) -> Decision<u8> {
        let prize = obs.prize.unwrap_or(0);
        let mv = match_bid(&obs.hand, prize).expect("select called on a finished game");
        Decision {
            mv,
            playouts: 0,
            value: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Outcome, Turn};

    /// Plays one game of `n` cards between two agents (seat 0 first) the
    /// way a runner does, checking every bid is legal; its outcome.
    fn play(agents: &mut [Box<dyn Agent<Goofspiel>>; 2], n: u8, seed: u64) -> Outcome {
        let mut g = Goofspiel::new(n, seed);
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(1);
        for a in agents.iter_mut() {
            a.new_game();
        }
        loop {
            match g.turn() {
                Turn::Over(o) => return o,
                Turn::Both => {
                    let mut joint = [None, None];
                    for (seat, a) in agents.iter_mut().enumerate() {
                        let mv = a.select(&g.observe(seat), &limits, &stop).mv;
                        assert!(
                            g.is_legal_action(seat, mv),
                            "{} bid {mv} for seat {seat} in {g:?}",
                            a.name()
                        );
                        joint[seat] = Some(mv);
                    }
                    g.apply(joint);
                }
                Turn::One(s) => panic!("goofspiel asked seat {s} alone"),
            }
        }
    }

    fn agent(name: &str, seed: u64) -> Box<dyn Agent<Goofspiel>> {
        build(name, &AgentParams::new(), seed).unwrap()
    }

    #[test]
    fn every_agent_builds_and_default_is_match() {
        for name in NAMES {
            assert_eq!(agent(name, 0).name(), *name);
        }
        assert_eq!(agent(crate::games::DEFAULT_AGENT, 0).name(), DEFAULT);
        let e = build("x", &AgentParams::new(), 0).err().unwrap();
        assert_eq!(e, "unknown goofspiel agent 'x' (known: random, match)");
        let params: AgentParams = serde_json::from_str(r#"{"depth": 2}"#).unwrap();
        for name in NAMES {
            let e = build(name, &params, 0).err().unwrap();
            assert!(e.contains("depth") && e.contains(name), "{e}");
        }
    }

    #[test]
    fn match_bids_the_prize_or_the_nearest_card_above_else_below() {
        assert_eq!(match_bid(&[1, 5, 9], 5), Some(5));
        assert_eq!(match_bid(&[1, 6, 9], 5), Some(6));
        assert_eq!(match_bid(&[1, 2, 4], 5), Some(4));
        assert_eq!(match_bid(&[7], 1), Some(7));
        assert_eq!(match_bid(&[], 3), None);
        let g = Goofspiel::with_deck(vec![3, 1, 2]).unwrap();
        let mut m = agent("match", 0);
        let d = m.select(&g.observe(1), &Limits::playouts(1), &AtomicBool::new(false));
        assert_eq!(d.mv, 3);
    }

    #[test]
    fn agents_always_bid_legal_cards() {
        let mut seed = 0;
        for a in NAMES {
            for b in NAMES {
                for n in 1..=13 {
                    for _ in 0..8 {
                        seed += 1;
                        let mut agents = [agent(a, seed), agent(b, seed + 1000)];
                        play(&mut agents, n, seed);
                    }
                }
            }
        }
    }

    #[test]
    fn match_beats_random() {
        const GAMES: u64 = 400;
        let mut points = 0.0;
        for i in 0..GAMES {
            // Alternate seats; the random bidder gets a fresh seed each game.
            let m_seat = (i % 2) as usize;
            let mut agents = [agent("match", i), agent("random", i + 7919)];
            if m_seat == 1 {
                agents.swap(0, 1);
            }
            points += play(&mut agents, 13, i).reward_for(m_seat, 0.5);
        }
        let score = points / GAMES as f64;
        println!("match vs random over {GAMES} games: {score:.3}");
        assert!(score >= 0.6, "match scored only {score:.3} against random");
    }
}
