//! Goofspiel on the match server and in records.
//!
//! - A move is the card bid, a JSON number: `7`.
//! - A round of the history is `[prize, seat 0's bid, seat 1's bid]`.
//! - The state (the whole truth):
//!   `{"cards":13,"round":1,"deck":[4,…],"history":[[9,13,2]],"hands":[[1,…],[1,…]],"scores":[9,0]}`
//!   where `deck` is the prizes still to come in order (current first);
//!   `round`, `hands` and `scores` follow from the rest and are checked.
//! - An observation (no deck order):
//!   `{"seat":0,"cards":13,"round":1,"prize":4,"hand":[…],"opponent_hand":[…],"scores":[9,0],"history":[[9,13,2]]}`,
//!   `prize` null once the game is over.
//!
//! Reading rejects unknown keys, missing keys and anything inconsistent,
//! with an error naming the key; it never panics.

use serde_json::{json, Map, Value};

use super::rules::{GoofObs, Goofspiel, Played, DEFAULT_CARDS, MAX_CARDS};
use crate::games::{AgentParams, PlayableGame};
use crate::model::Model;
use crate::search::Agent;

const STATE_KEYS: &[&str] = &["cards", "round", "deck", "history", "hands", "scores"];
const OBS_KEYS: &[&str] = &[
    "seat",
    "cards",
    "round",
    "prize",
    "hand",
    "opponent_hand",
    "scores",
    "history",
];

impl PlayableGame for Goofspiel {
    const ID: &'static str = "goofspiel";
    fn agent_names() -> &'static [&'static str] {
        super::agents::NAMES
    }
    /// `match` (the default) against itself bids the same cards every game:
    /// always a draw.
    fn house_agent() -> &'static str {
        "random"
    }
    /// The standard game: 13 cards, the prizes shuffled from `seed`.
    fn start(seed: u64) -> Self {
        Goofspiel::new(DEFAULT_CARDS, seed)
    }
    fn state_to_json(&self) -> Value {
        json!({
            "cards": self.cards(),
            "round": self.round(),
            "deck": self.deck(),
            "history": history_to_json(self.history()),
            "hands": [self.hand(0), self.hand(1)],
            "scores": self.scores(),
        })
    }
    /// The state with only the prize up for bidding of the deck (the
    /// order of the prizes to come is hidden from the seats).
    fn public_json(&self) -> Value {
        json!({
            "cards": self.cards(),
            "round": self.round(),
            "deck": self.deck().iter().take(1).collect::<Vec<_>>(),
            "prizes_hidden": self.deck().len().saturating_sub(1),
            "history": history_to_json(self.history()),
            "hands": [self.hand(0), self.hand(1)],
            "scores": self.scores(),
        })
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        let m = object(v, "state", STATE_KEYS)?;
        let n = card(field(m, "cards")?, "cards")?;
        let history = history_from_json(field(m, "history")?)?;
        let deck = card_list(field(m, "deck")?, "deck")?;
        let g = Goofspiel::from_parts(n, history, deck)?;
        let round = uint(field(m, "round")?, "round", MAX_CARDS as u64)?;
        if round != g.round() as u64 {
            return Err(format!(
                "round: {round} but {} rounds in the history",
                g.round()
            ));
        }
        let hands = pair(field(m, "hands")?, "hands")?;
        for (seat, h) in hands.iter().enumerate() {
            let what = format!("hands[{seat}]");
            if card_list(h, &what)? != g.hand(seat) {
                return Err(format!(
                    "{what}: {h} does not follow from the history (expected {:?})",
                    g.hand(seat)
                ));
            }
        }
        let sv = field(m, "scores")?;
        if scores(sv)? != g.scores() {
            return Err(format!(
                "scores: {sv} do not follow from the history (expected {:?})",
                g.scores()
            ));
        }
        Ok(g)
    }
    fn obs_to_json(obs: &GoofObs) -> Value {
        json!({
            "seat": obs.seat,
            "cards": obs.cards,
            "round": obs.round,
            "prize": obs.prize,
            "hand": obs.hand,
            "opponent_hand": obs.opponent_hand,
            "scores": obs.scores,
            "history": history_to_json(&obs.history),
        })
    }
    fn obs_from_json(v: &Value) -> Result<GoofObs, String> {
        let m = object(v, "observation", OBS_KEYS)?;
        let prize = match field(m, "prize")? {
            Value::Null => None,
            p => Some(card(p, "prize")?),
        };
        let obs = GoofObs {
            seat: uint(field(m, "seat")?, "seat", 1)? as usize,
            cards: card(field(m, "cards")?, "cards")?,
            round: uint(field(m, "round")?, "round", MAX_CARDS as u64)? as usize,
            prize,
            hand: card_list(field(m, "hand")?, "hand")?,
            opponent_hand: card_list(field(m, "opponent_hand")?, "opponent_hand")?,
            scores: scores(field(m, "scores")?)?,
            history: history_from_json(field(m, "history")?)?,
        };
        obs.check()?;
        Ok(obs)
    }
    /// The card, a JSON number.
    fn move_to_json(mv: u8) -> Value {
        json!(mv)
    }
    fn move_from_json(v: &Value) -> Result<u8, String> {
        card(v, "move")
    }
    fn render(&self) -> String {
        let mut s = match self.prize() {
            Some(p) => format!(
                "goofspiel, {} cards: round {} of {}, prize {p} ({} prizes left)\n",
                self.cards(),
                self.round() + 1,
                self.cards(),
                self.deck().len()
            ),
            None => format!(
                "goofspiel, {} cards: over after {} rounds, {}\n",
                self.cards(),
                self.round(),
                match self.turn().outcome().and_then(|o| o.winner()) {
                    Some(w) => format!("seat {w} wins"),
                    None => "a draw".to_string(),
                }
            ),
        };
        for seat in 0..2 {
            let hand: Vec<String> = self.hand(seat).iter().map(u8::to_string).collect();
            s += &format!(
                "seat {seat}: {:>2} points, hand [{}]\n",
                self.scores()[seat],
                hand.join(" ")
            );
        }
        if let Some(p) = self.history().last() {
            s += &format!(
                "last round: prize {}, bids {} vs {}, {}\n",
                p.prize,
                p.bids[0],
                p.bids[1],
                match p.winner() {
                    Some(w) => format!("seat {w} takes it"),
                    None => "tie, discarded".to_string(),
                }
            );
        }
        s
    }
    fn view_js() -> &'static str {
        include_str!("view.js")
    }
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String> {
        super::agents::build(name, params, seed)
    }
    fn agent_decl(name: &str) -> Result<crate::games::params::Decl, String> {
        super::agents::decl(name)
    }
    /// 13 prizes, two bids each: the first four, the middle five, the last four.
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (8, "middle game"), (18, "endgame")]
    }
}

fn history_to_json(history: &[Played]) -> Value {
    history
        .iter()
        .map(|p| json!([p.prize, p.bids[0], p.bids[1]]))
        .collect()
}

fn history_from_json(v: &Value) -> Result<Vec<Played>, String> {
    let rounds = v
        .as_array()
        .ok_or_else(|| format!("history: expected an array of [prize, bid, bid], got {v}"))?;
    rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let what = format!("history[{i}]");
            match r.as_array().map(Vec::as_slice) {
                Some([p, a, b]) => Ok(Played {
                    prize: card(p, &what)?,
                    bids: [card(a, &what)?, card(b, &what)?],
                }),
                _ => Err(format!("{what}: expected [prize, bid, bid], got {r}")),
            }
        })
        .collect()
}

/// `v` as an object with only `keys` (each required by [`field`]).
fn object<'a>(v: &'a Value, what: &str, keys: &[&str]) -> Result<&'a Map<String, Value>, String> {
    let m = v
        .as_object()
        .ok_or_else(|| format!("{what}: expected an object, got {v}"))?;
    if let Some(k) = m.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!("{what}: unknown key '{k}'"));
    }
    Ok(m)
}

fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    m.get(key).ok_or_else(|| format!("{key}: missing"))
}

/// A whole number in 0..=max.
fn uint(v: &Value, what: &str, max: u64) -> Result<u64, String> {
    match v.as_u64() {
        Some(x) if x <= max => Ok(x),
        _ => Err(format!(
            "{what}: expected a whole number in 0..={max}, got {v}"
        )),
    }
}

/// A card: a whole number in 1..=13.
fn card(v: &Value, what: &str) -> Result<u8, String> {
    match v.as_u64() {
        Some(x) if (1..=MAX_CARDS as u64).contains(&x) => Ok(x as u8),
        _ => Err(format!("{what}: expected a card 1..={MAX_CARDS}, got {v}")),
    }
}

fn card_list(v: &Value, what: &str) -> Result<Vec<u8>, String> {
    let a = v
        .as_array()
        .ok_or_else(|| format!("{what}: expected an array of cards, got {v}"))?;
    if a.len() > MAX_CARDS as usize {
        return Err(format!("{what}: {} cards, at most {MAX_CARDS}", a.len()));
    }
    a.iter()
        .enumerate()
        .map(|(i, c)| card(c, &format!("{what}[{i}]")))
        .collect()
}

fn pair<'a>(v: &'a Value, what: &str) -> Result<&'a [Value; 2], String> {
    v.as_array()
        .and_then(|a| <&[Value; 2]>::try_from(a.as_slice()).ok())
        .ok_or_else(|| format!("{what}: expected an array of two, got {v}"))
}

fn scores(v: &Value) -> Result<[u32; 2], String> {
    let [a, b] = pair(v, "scores")?;
    Ok([
        uint(a, "scores[0]", u32::MAX as u64)? as u32,
        uint(b, "scores[1]", u32::MAX as u64)? as u32,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::replay;
    use crate::model::{Outcome, Turn};
    use rand::rngs::SmallRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Every position of a random game of `n` cards, start and end included.
    fn random_game(n: u8, seed: u64) -> Vec<Goofspiel> {
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x9e37);
        let mut g = Goofspiel::new(n, seed);
        let mut all = vec![g.clone()];
        while g.turn() == Turn::Both {
            let a = *g.legal_actions(0).choose(&mut rng).unwrap();
            let b = *g.legal_actions(1).choose(&mut rng).unwrap();
            g.apply([Some(a), Some(b)]);
            all.push(g.clone());
        }
        all
    }

    #[test]
    fn start_deals_13_cards_from_the_seed() {
        let g = Goofspiel::start(42);
        assert_eq!(g.cards(), DEFAULT_CARDS);
        assert_eq!(g, Goofspiel::start(42));
        assert_eq!(g.legal_actions(0), (1..=13).collect::<Vec<_>>());
        assert_eq!(g.turn(), Turn::Both);
        assert_eq!(Goofspiel::ID, "goofspiel");
    }

    #[test]
    fn state_json_round_trips() {
        for seed in 0..40 {
            for g in random_game(1 + (seed % 13) as u8, seed) {
                let v = g.state_to_json();
                let back = Goofspiel::state_from_json(&v).unwrap_or_else(|e| panic!("{e}: {v}"));
                assert_eq!(back, g);
                assert_eq!(back.state_to_json(), v);
                // The deck's order is in the state.
                assert_eq!(v["deck"], json!(g.deck()));
            }
        }
    }

    #[test]
    fn obs_json_round_trips() {
        for seed in 0..40 {
            for g in random_game(1 + (seed % 13) as u8, seed) {
                for seat in 0..2 {
                    let o = g.observe(seat);
                    let v = Goofspiel::obs_to_json(&o);
                    let back = Goofspiel::obs_from_json(&v).unwrap_or_else(|e| panic!("{e}: {v}"));
                    assert_eq!(back, o);
                    assert_eq!(Goofspiel::obs_to_json(&back), v);
                }
            }
        }
    }

    #[test]
    fn obs_json_does_not_contain_the_deck_order() {
        let deck = vec![5, 9, 1, 13, 2, 12, 3, 11, 4, 10, 6, 8, 7];
        let mut g = Goofspiel::with_deck(deck).unwrap();
        g.apply([Some(13), Some(1)]);
        g.apply([Some(2), Some(2)]);
        // The same game, its remaining prizes in another order.
        let mut rest = g.deck().to_vec();
        rest[1..].reverse();
        let h = Goofspiel::from_parts(13, g.history().to_vec(), rest).unwrap();
        assert_ne!(g.deck(), h.deck());
        for seat in 0..2 {
            let v = Goofspiel::obs_to_json(&g.observe(seat));
            let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            let mut want = OBS_KEYS.to_vec();
            want.sort_unstable();
            assert_eq!(keys, want);
            assert_eq!(v["prize"], json!(1));
            assert_eq!(v, Goofspiel::obs_to_json(&h.observe(seat)));
            let text = v.to_string();
            assert!(!text.contains("deck"), "{text}");
            let order = serde_json::to_string(&g.deck()[1..]).unwrap();
            assert!(!text.contains(&order[1..order.len() - 1]), "{text}");
        }
        let v = g.state_to_json();
        assert_ne!(v, h.state_to_json());
    }

    #[test]
    fn moves_are_numbers_and_bad_ones_are_errors() {
        for c in 1..=13u8 {
            assert_eq!(
                Goofspiel::move_from_json(&Goofspiel::move_to_json(c)),
                Ok(c)
            );
        }
        assert_eq!(Goofspiel::move_to_json(7), json!(7));
        for bad in [
            json!(0),
            json!(14),
            json!(-1),
            json!(256),
            json!(u64::MAX),
            json!(7.5),
            json!(3.0),
            json!("7"),
            json!(null),
            json!([7]),
            json!({"card": 7}),
        ] {
            let e = Goofspiel::move_from_json(&bad).unwrap_err();
            assert!(e.contains("move"), "{e}");
        }
    }

    #[test]
    fn bad_state_json_gives_errors() {
        let mut g = Goofspiel::with_deck(vec![2, 3, 1]).unwrap();
        g.apply([Some(3), Some(1)]);
        let good = g.state_to_json();
        let edits: Vec<(&str, Value)> = vec![
            ("cards", json!(0)),
            ("cards", json!(14)),
            ("cards", json!(4)),
            ("cards", json!("3")),
            ("round", json!(0)),
            ("round", json!(-1)),
            ("deck", json!([3])),
            ("deck", json!([1, 2])),
            ("deck", json!([3, 3])),
            ("deck", json!([3, 4])),
            ("deck", json!("31")),
            ("history", json!([])),
            ("history", json!([[2, 3]])),
            ("history", json!([[2, 3, 1, 0]])),
            ("history", json!([[2, 3, 0]])),
            ("history", json!([[2, 3, 1], [3, 3, 2]])),
            ("history", json!({})),
            ("hands", json!([[1, 3], [2, 3]])),
            ("hands", json!([[1, 2]])),
            ("hands", json!([[2, 1], [2, 3]])),
            ("hands", json!([[1, 2], [2, 3], []])),
            ("scores", json!([0, 2])),
            ("scores", json!([2])),
            ("scores", json!([2, -1])),
            ("scores", json!(null)),
            ("extra", json!(1)),
        ];
        for (k, val) in edits {
            let mut v = good.clone();
            v[k] = val.clone();
            assert!(Goofspiel::state_from_json(&v).is_err(), "{k} = {val}");
        }
        for k in STATE_KEYS {
            let mut v = good.clone();
            v.as_object_mut().unwrap().remove(*k);
            let e = Goofspiel::state_from_json(&v).unwrap_err();
            assert!(e.contains(k), "{e}");
        }
        for v in [json!(null), json!(3), json!("x"), json!([]), json!({})] {
            assert!(Goofspiel::state_from_json(&v).is_err(), "{v}");
        }
        assert_eq!(Goofspiel::state_from_json(&good), Ok(g));
    }

    #[test]
    fn bad_obs_json_gives_errors() {
        let mut g = Goofspiel::with_deck(vec![2, 3, 1]).unwrap();
        g.apply([Some(3), Some(1)]);
        let good = Goofspiel::obs_to_json(&g.observe(1));
        let edits: Vec<(&str, Value)> = vec![
            ("seat", json!(2)),
            ("seat", json!(-1)),
            ("seat", json!(0)), // then the hands are the wrong way round
            ("cards", json!(4)),
            ("cards", json!(0)),
            ("round", json!(2)),
            ("prize", json!(2)),
            ("prize", json!(0)),
            ("prize", json!(null)),
            ("prize", json!("3")),
            ("hand", json!([1, 2, 3])),
            ("hand", json!([2, 1])),
            (
                "hand",
                json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1]),
            ),
            ("opponent_hand", json!([1, 2, 3])),
            ("scores", json!([0, 2])),
            ("scores", json!([0, 2, 0])),
            ("history", json!([[2, 1, 3]])),
            ("history", json!("[]")),
            ("deck", json!([3, 1])),
        ];
        for (k, val) in edits {
            let mut v = good.clone();
            v[k] = val.clone();
            assert!(Goofspiel::obs_from_json(&v).is_err(), "{k} = {val}");
        }
        for k in OBS_KEYS {
            let mut v = good.clone();
            v.as_object_mut().unwrap().remove(*k);
            let e = Goofspiel::obs_from_json(&v).unwrap_err();
            assert!(e.contains(k), "{e}");
        }
        for v in [json!(null), json!(true), json!([1, 2]), json!({})] {
            assert!(Goofspiel::obs_from_json(&v).is_err(), "{v}");
        }
        assert_eq!(Goofspiel::obs_from_json(&good), Ok(g.observe(1)));
    }

    /// A random JSON value that often looks almost right.
    fn garbage(rng: &mut SmallRng) -> Value {
        let card = |rng: &mut SmallRng| json!(rng.gen_range(0..16u8));
        match rng.gen_range(0..7) {
            0 => card(rng),
            1 => {
                let k = rng.gen_range(0..15);
                Value::Array((0..k).map(|_| card(rng)).collect())
            }
            2 => {
                let k = rng.gen_range(0..4);
                Value::Array(
                    (0..k)
                        .map(|_| json!([card(rng), card(rng), card(rng)]))
                        .collect(),
                )
            }
            3 => json!([rng.gen_range(0..100u32), rng.gen_range(0..100u32)]),
            4 => json!(null),
            5 => json!(-3),
            _ => json!("x"),
        }
    }

    #[test]
    fn edited_json_never_panics_and_what_is_accepted_plays() {
        let mut rng = SmallRng::seed_from_u64(11);
        for seed in 0..60 {
            for g in random_game(1 + (seed % 5) as u8, seed) {
                for _ in 0..20 {
                    let mut v = g.state_to_json();
                    let k = STATE_KEYS[rng.gen_range(0..STATE_KEYS.len())];
                    v[k] = garbage(&mut rng);
                    if let Ok(mut h) = Goofspiel::state_from_json(&v) {
                        assert_eq!(h.state_to_json(), v);
                        let _ = h.render();
                        for seat in 0..2 {
                            let o = h.observe(seat);
                            assert_eq!(
                                Goofspiel::obs_from_json(&Goofspiel::obs_to_json(&o)),
                                Ok(o)
                            );
                        }
                        while h.turn() == Turn::Both {
                            let a = h.legal_actions(0)[0];
                            let b = *h.legal_actions(1).last().unwrap();
                            h.apply([Some(a), Some(b)]);
                        }
                    }
                    let mut o = Goofspiel::obs_to_json(&g.observe((seed % 2) as usize));
                    let k = OBS_KEYS[rng.gen_range(0..OBS_KEYS.len())];
                    o[k] = garbage(&mut rng);
                    if let Ok(obs) = Goofspiel::obs_from_json(&o) {
                        assert_eq!(Goofspiel::obs_to_json(&obs), o);
                        let _ = obs.prizes_left();
                    }
                }
            }
        }
    }

    #[test]
    fn replay_plays_both_bids_of_each_round() {
        let g = Goofspiel::with_deck(vec![2, 3, 1]).unwrap();
        let start = g.state_to_json();
        let moves: Vec<Value> = [3, 1, 1, 3, 2, 2].iter().map(|&c| json!(c)).collect();
        let end: Goofspiel = replay(&start, &moves).unwrap();
        assert_eq!(end.scores(), [2, 3]);
        assert_eq!(end.turn(), Turn::Over(Outcome::Win(1)));
        assert!(replay::<Goofspiel>(&start, &moves[..1]).is_err());
        assert!(replay::<Goofspiel>(&start, &[json!(3), json!(1), json!(3), json!(2)]).is_err());
        let mut more = moves.clone();
        more.push(json!(1));
        assert!(replay::<Goofspiel>(&start, &more).is_err());
    }

    #[test]
    fn render_shows_the_round_scores_and_last_bids() {
        let mut g = Goofspiel::with_deck(vec![2, 3, 1]).unwrap();
        assert!(
            g.render().contains("round 1 of 3, prize 2"),
            "{}",
            g.render()
        );
        g.apply([Some(3), Some(1)]);
        let r = g.render();
        assert!(r.contains("seat 0:  2 points, hand [1 2]"), "{r}");
        assert!(r.contains("bids 3 vs 1, seat 0 takes it"), "{r}");
        g.apply([Some(1), Some(3)]);
        g.apply([Some(2), Some(2)]);
        let r = g.render();
        assert!(r.contains("seat 1 wins") && r.contains("tie"), "{r}");
    }

    #[test]
    fn agents_build_by_name_through_the_game() {
        for name in Goofspiel::agent_names() {
            let a = Goofspiel::build_agent(name, &AgentParams::new(), 1).unwrap();
            assert_eq!(a.name(), *name);
        }
        let a = Goofspiel::build_agent("default", &AgentParams::new(), 1).unwrap();
        assert_eq!(a.name(), "match");
        assert!(Goofspiel::build_agent("nobody", &AgentParams::new(), 1).is_err());
    }
}
