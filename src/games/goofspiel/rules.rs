//! Goofspiel's rules: the true state ([`Goofspiel`]), what one seat
//! observes ([`GoofObs`]) and the [`Model`]. Pure: no I/O, no clock, no
//! randomness but the seed of [`Goofspiel::new`].

use std::cmp::Ordering;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::model::{Joint, Model, Outcome, Seat, Turn};

/// The number of cards (per hand, and prizes) of [`Goofspiel::new`]'s
/// standard game and of `start`.
pub const DEFAULT_CARDS: u8 = 13;

/// The largest game: cards 1..=13.
pub const MAX_CARDS: u8 = 13;

/// One played round: the prize and the two bids (seat 0's, seat 1's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    pub prize: u8,
    pub bids: [u8; 2],
}

impl Played {
    /// The seat that took the prize, `None` when the bids were equal (the
    /// prize was discarded).
    pub fn winner(self) -> Option<Seat> {
        match self.bids[0].cmp(&self.bids[1]) {
            Ordering::Greater => Some(0),
            Ordering::Less => Some(1),
            Ordering::Equal => None,
        }
    }
}

/// A set of cards in 1..=13, bit `c` for card `c`.
type Cards = u16;

/// The cards 1..=n (n <= 13).
fn all_cards(n: u8) -> Cards {
    (((1u32 << (n as u32 + 1)) - 2) & 0xfffe) as Cards
}

/// The bit of card `c`, 0 for a card outside 1..=13.
fn bit(c: u8) -> Cards {
    if (1..=MAX_CARDS).contains(&c) {
        1 << c
    } else {
        0
    }
}

/// The cards of `set`, ascending.
fn cards_of(set: Cards) -> Vec<u8> {
    (1..=MAX_CARDS).filter(|&c| set & bit(c) != 0).collect()
}

/// What a history of rounds leaves: the hands, the scores and the prizes
/// used; or why it is impossible in a game of `n` cards (a card outside
/// 1..=n, a card bid or a prize drawn twice, more rounds than cards).
fn check_history(n: u8, history: &[Played]) -> Result<([Cards; 2], [u32; 2], Cards), String> {
    if !(1..=MAX_CARDS).contains(&n) {
        return Err(format!("cards: {n} is outside 1..={MAX_CARDS}"));
    }
    if history.len() > n as usize {
        return Err(format!(
            "history: {} rounds in a game of {n} cards",
            history.len()
        ));
    }
    let full = all_cards(n);
    let mut hands = [full; 2];
    let mut scores = [0u32; 2];
    let mut prizes = 0 as Cards;
    for (i, p) in history.iter().enumerate() {
        if full & bit(p.prize) == 0 {
            return Err(format!(
                "history[{i}]: prize {} is outside 1..={n}",
                p.prize
            ));
        }
        if prizes & bit(p.prize) != 0 {
            return Err(format!("history[{i}]: prize {} was already drawn", p.prize));
        }
        prizes |= bit(p.prize);
        for (seat, &b) in p.bids.iter().enumerate() {
            if full & bit(b) == 0 {
                return Err(format!(
                    "history[{i}]: seat {seat}'s bid {b} is outside 1..={n}"
                ));
            }
            if hands[seat] & bit(b) == 0 {
                return Err(format!("history[{i}]: seat {seat} bids {b} a second time"));
            }
            hands[seat] &= !bit(b);
        }
        if let Some(w) = p.winner() {
            scores[w] += p.prize as u32;
        }
    }
    Ok((hands, scores, prizes))
}

/// The outcome by points: more wins, equal is a draw.
fn outcome_of(scores: [u32; 2]) -> Outcome {
    match scores[0].cmp(&scores[1]) {
        Ordering::Greater => Outcome::Win(0),
        Ordering::Less => Outcome::Win(1),
        Ordering::Equal => Outcome::Draw,
    }
}

/// A game of Goofspiel: the whole truth, the order of the prizes to come
/// included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goofspiel {
    /// Cards per hand and prizes: 1..=n.
    n: u8,
    /// The prizes still to come, in order; `deck[0]` is the current prize.
    deck: Vec<u8>,
    /// The rounds played, in order.
    history: Vec<Played>,
    /// Derived from `n` and `history`: each seat's hand.
    hands: [Cards; 2],
    /// Derived from `history`: each seat's points.
    scores: [u32; 2],
}

impl Goofspiel {
    /// A new game of `n` cards whose prize deck is shuffled from `seed`.
    /// `n` is clamped to 1..=[`MAX_CARDS`] (0 plays 1 card, 20 plays 13).
    pub fn new(n: u8, seed: u64) -> Self {
        let n = n.clamp(1, MAX_CARDS);
        let mut deck: Vec<u8> = (1..=n).collect();
        deck.shuffle(&mut SmallRng::seed_from_u64(seed));
        Goofspiel::fresh(n, deck)
    }

    /// A new game whose prizes come in the order of `deck`, which must be
    /// an ordering of 1..=n for some n in 1..=13 (n = its length).
    pub fn with_deck(deck: Vec<u8>) -> Result<Self, String> {
        if deck.is_empty() || deck.len() > MAX_CARDS as usize {
            return Err(format!(
                "deck: {} prizes, expected 1..={MAX_CARDS}",
                deck.len()
            ));
        }
        let n = deck.len() as u8;
        Goofspiel::from_parts(n, Vec::new(), deck)
    }

    /// A game of `n` cards after `history`, with the prizes `deck` still to
    /// come (in order): the history's prizes and the deck together must be
    /// an ordering of 1..=n, and each seat's bids distinct cards of 1..=n.
    pub fn from_parts(n: u8, history: Vec<Played>, deck: Vec<u8>) -> Result<Self, String> {
        let (hands, scores, mut prizes) = check_history(n, &history)?;
        if history.len() + deck.len() != n as usize {
            return Err(format!(
                "deck: {} prizes left after {} rounds of a game of {n} cards",
                deck.len(),
                history.len()
            ));
        }
        for (i, &p) in deck.iter().enumerate() {
            if all_cards(n) & bit(p) == 0 {
                return Err(format!("deck[{i}]: prize {p} is outside 1..={n}"));
            }
            if prizes & bit(p) != 0 {
                return Err(format!("deck[{i}]: prize {p} appears twice"));
            }
            prizes |= bit(p);
        }
        Ok(Goofspiel {
            n,
            deck,
            history,
            hands,
            scores,
        })
    }

    fn fresh(n: u8, deck: Vec<u8>) -> Self {
        Goofspiel {
            n,
            deck,
            history: Vec::new(),
            hands: [all_cards(n); 2],
            scores: [0, 0],
        }
    }

    /// Cards per hand (and prizes).
    pub fn cards(&self) -> u8 {
        self.n
    }

    /// Rounds played so far (0-based index of the current round).
    pub fn round(&self) -> usize {
        self.history.len()
    }

    /// The prize bid for now, `None` once the game is over.
    pub fn prize(&self) -> Option<u8> {
        self.deck.first().copied()
    }

    /// The prizes still to come, in order (the current one first). Hidden
    /// from the seats.
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// The rounds played, in order.
    pub fn history(&self) -> &[Played] {
        &self.history
    }

    /// `seat`'s cards, ascending (empty for a seat other than 0 and 1).
    pub fn hand(&self, seat: Seat) -> Vec<u8> {
        self.hands.get(seat).map_or_else(Vec::new, |&h| cards_of(h))
    }

    /// Whether `seat` still holds `card`.
    pub fn holds(&self, seat: Seat, card: u8) -> bool {
        self.hands.get(seat).is_some_and(|&h| h & bit(card) != 0)
    }

    /// Both seats' points.
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// Whether all n rounds have been played.
    pub fn is_over(&self) -> bool {
        self.deck.is_empty()
    }
}

impl Model for Goofspiel {
    /// A bid: the card played.
    type Action = u8;
    type Obs = GoofObs;

    /// [`Turn::Both`] every round; over after n rounds, won by more points.
    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over(outcome_of(self.scores))
        } else {
            Turn::Both
        }
    }

    /// Everything but the order of the prizes to come. Panics for a seat
    /// other than 0 and 1.
    fn observe(&self, seat: Seat) -> GoofObs {
        assert!(seat < 2, "goofspiel has seats 0 and 1, not {seat}");
        GoofObs {
            seat,
            cards: self.n,
            round: self.round(),
            prize: self.prize(),
            hand: cards_of(self.hands[seat]),
            opponent_hand: cards_of(self.hands[1 - seat]),
            scores: self.scores,
            history: self.history.clone(),
        }
    }

    /// The seat's hand, ascending, while the game is on; else empty.
    fn legal_actions(&self, seat: Seat) -> Vec<u8> {
        if self.is_over() {
            Vec::new()
        } else {
            self.hand(seat)
        }
    }

    fn is_legal_action(&self, seat: Seat, action: u8) -> bool {
        !self.is_over() && self.holds(seat, action)
    }

    /// Plays one round. Both bids must be `Some` and legal; otherwise (or
    /// once the game is over) nothing changes.
    fn apply(&mut self, joint: Joint<u8>) {
        let [Some(a), Some(b)] = joint else {
            return;
        };
        if !self.is_legal_action(0, a) || !self.is_legal_action(1, b) {
            return;
        }
        let prize = self.deck.remove(0);
        self.hands[0] &= !bit(a);
        self.hands[1] &= !bit(b);
        let played = Played {
            prize,
            bids: [a, b],
        };
        if let Some(w) = played.winner() {
            self.scores[w] += prize as u32;
        }
        self.history.push(played);
    }
}

/// What one seat knows: everything but the order of the prizes to come.
/// The opponent's hand is public (it follows from the revealed bids), and
/// so is the set of prizes to come ([`GoofObs::prizes_left`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoofObs {
    /// The observing seat.
    pub seat: Seat,
    /// Cards per hand (and prizes): 1..=cards.
    pub cards: u8,
    /// Rounds played (= `history.len()`).
    pub round: usize,
    /// The prize bid for now, `None` once the game is over.
    pub prize: Option<u8>,
    /// The seat's own cards, ascending.
    pub hand: Vec<u8>,
    /// The opponent's cards, ascending.
    pub opponent_hand: Vec<u8>,
    /// Points by seat (seat 0's first, whoever observes).
    pub scores: [u32; 2],
    /// The rounds played, in order.
    pub history: Vec<Played>,
}

impl GoofObs {
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.prize.is_none()
    }

    /// The prizes not yet drawn, the current one included, ascending (their
    /// order is hidden).
    pub fn prizes_left(&self) -> Vec<u8> {
        let drawn = self.history.iter().fold(0, |s, p| s | bit(p.prize));
        cards_of(all_cards(self.cards.clamp(1, MAX_CARDS)) & !drawn)
    }

    /// Whether this observation is one some game can show: the hands and
    /// scores follow from the history, the prize is one not yet drawn.
    pub fn check(&self) -> Result<(), String> {
        if self.seat > 1 {
            return Err(format!("seat: {} is not 0 or 1", self.seat));
        }
        let n = self.cards;
        let (hands, scores, drawn) = check_history(n, &self.history)?;
        if self.round != self.history.len() {
            return Err(format!(
                "round: {} but {} rounds in the history",
                self.round,
                self.history.len()
            ));
        }
        if self.hand != cards_of(hands[self.seat]) {
            return Err(format!(
                "hand: {:?} does not follow from the history (expected {:?})",
                self.hand,
                cards_of(hands[self.seat])
            ));
        }
        if self.opponent_hand != cards_of(hands[1 - self.seat]) {
            return Err(format!(
                "opponent_hand: {:?} does not follow from the history (expected {:?})",
                self.opponent_hand,
                cards_of(hands[1 - self.seat])
            ));
        }
        if self.scores != scores {
            return Err(format!(
                "scores: {:?} do not follow from the history (expected {scores:?})",
                self.scores
            ));
        }
        match self.prize {
            None if self.round < n as usize => {
                Err(format!("prize: missing in round {} of {n}", self.round))
            }
            Some(p) if self.round == n as usize => {
                Err(format!("prize: {p} but all {n} rounds are played"))
            }
            Some(p) if all_cards(n) & bit(p) == 0 => Err(format!("prize: {p} is outside 1..={n}")),
            Some(p) if drawn & bit(p) != 0 => Err(format!("prize: {p} was already drawn")),
            _ => Ok(()),
        }
    }

    /// The outcome once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| outcome_of(self.scores))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &mut Goofspiel, a: u8, b: u8) {
        assert!(
            g.is_legal_action(0, a) && g.is_legal_action(1, b),
            "{a} {b}"
        );
        g.apply([Some(a), Some(b)]);
    }

    #[test]
    fn scoring_and_ties_on_a_fixed_deck() {
        let mut g = Goofspiel::with_deck(vec![3, 1, 2]).unwrap();
        assert_eq!(g.turn(), Turn::Both);
        assert_eq!(g.prize(), Some(3));
        play(&mut g, 1, 2); // seat 1 takes 3
        assert_eq!(g.scores(), [0, 3]);
        assert_eq!(g.prize(), Some(1));
        play(&mut g, 3, 3); // tie: prize 1 discarded
        assert_eq!(g.scores(), [0, 3]);
        assert_eq!(g.history()[1].winner(), None);
        assert_eq!(g.hand(0), vec![2]);
        assert_eq!(g.hand(1), vec![1]);
        play(&mut g, 2, 1); // seat 0 takes 2
        assert_eq!(g.scores(), [2, 3]);
        assert_eq!(
            g.history(),
            &[
                Played {
                    prize: 3,
                    bids: [1, 2]
                },
                Played {
                    prize: 1,
                    bids: [3, 3]
                },
                Played {
                    prize: 2,
                    bids: [2, 1]
                },
            ]
        );
        assert_eq!(g.turn(), Turn::Over(Outcome::Win(1)));
    }

    #[test]
    fn the_game_ends_after_n_rounds_with_the_right_outcome() {
        for n in 1..=MAX_CARDS {
            let deck: Vec<u8> = (1..=n).rev().collect();
            // Both mirror the prize: every round ties, a 0-0 draw.
            let mut g = Goofspiel::with_deck(deck.clone()).unwrap();
            for r in 0..n as usize {
                assert_eq!(g.turn(), Turn::Both, "n {n} round {r}");
                let p = g.prize().unwrap();
                play(&mut g, p, p);
            }
            assert_eq!(g.round(), n as usize);
            assert!(g.is_over() && g.prize().is_none());
            assert_eq!(g.turn(), Turn::Over(Outcome::Draw));
            assert_eq!(g.scores(), [0, 0]);
            // Seat 1 bids the prize, seat 0 the card after it (cyclic):
            // seat 0 wins every round but the one where it bids 1.
            let mut g = Goofspiel::with_deck(deck).unwrap();
            while let Some(p) = g.prize() {
                play(&mut g, p % n + 1, p);
            }
            let total = n as u32 * (n as u32 + 1) / 2;
            assert_eq!(
                g.scores(),
                [total - n as u32, if n == 1 { 0 } else { n as u32 }]
            );
            let want = match n {
                1 => Outcome::Draw,
                2 => Outcome::Win(1), // 1 against 2
                3 => Outcome::Draw,   // 3 against 3
                _ => Outcome::Win(0),
            };
            assert_eq!(g.turn(), Turn::Over(want), "n {n}");
        }
    }

    #[test]
    fn legal_actions_are_the_hand_ascending_and_empty_when_over() {
        let mut g = Goofspiel::with_deck(vec![2, 4, 1, 3]).unwrap();
        assert_eq!(g.legal_actions(0), vec![1, 2, 3, 4]);
        play(&mut g, 3, 1);
        assert_eq!(g.legal_actions(0), vec![1, 2, 4]);
        assert_eq!(g.legal_actions(1), vec![2, 3, 4]);
        assert!(!g.is_legal_action(0, 3));
        assert!(!g.is_legal_action(0, 0) && !g.is_legal_action(0, 5));
        assert!(!g.is_legal_action(0, 200) && !g.is_legal_action(2, 1));
        assert!(g.legal_actions(2).is_empty());
        play(&mut g, 1, 2);
        play(&mut g, 2, 3);
        play(&mut g, 4, 4);
        assert!(g.legal_actions(0).is_empty() && g.legal_actions(1).is_empty());
        assert!(!g.is_legal_action(0, 4));
    }

    #[test]
    fn missing_or_illegal_bids_change_nothing() {
        let mut g = Goofspiel::with_deck(vec![2, 1, 3]).unwrap();
        let before = g.clone();
        for joint in [
            [None, None],
            [Some(1), None],
            [None, Some(1)],
            [Some(0), Some(1)],
            [Some(4), Some(1)],
            [Some(1), Some(255)],
        ] {
            g.apply(joint);
            assert_eq!(g, before, "{joint:?}");
        }
        play(&mut g, 1, 1);
        let after = g.clone();
        g.apply([Some(1), Some(2)]); // seat 0 no longer holds 1
        assert_eq!(g, after);
        play(&mut g, 2, 3);
        play(&mut g, 3, 2);
        let over = g.clone();
        g.apply([Some(1), Some(1)]);
        assert_eq!(g, over);
    }

    #[test]
    fn new_clamps_n_and_shuffles_by_seed() {
        for n in 1..=MAX_CARDS {
            let g = Goofspiel::new(n, 7);
            assert_eq!(g.cards(), n);
            let mut d = g.deck().to_vec();
            d.sort_unstable();
            assert_eq!(d, (1..=n).collect::<Vec<_>>());
            assert_eq!(g.hand(0), d);
            assert_eq!(g.hand(1), d);
        }
        assert_eq!(Goofspiel::new(0, 1).cards(), 1);
        assert_eq!(Goofspiel::new(200, 1).cards(), MAX_CARDS);
        assert_eq!(Goofspiel::new(13, 5), Goofspiel::new(13, 5));
        let decks: std::collections::HashSet<Vec<u8>> = (0..20)
            .map(|s| Goofspiel::new(13, s).deck().to_vec())
            .collect();
        assert!(decks.len() > 15, "seeds should shuffle differently");
    }

    #[test]
    fn bad_decks_and_histories_are_rejected() {
        for deck in [
            vec![],
            vec![0],
            vec![2],
            vec![1, 1],
            vec![1, 3],
            (1..=14).collect(),
        ] {
            assert!(Goofspiel::with_deck(deck.clone()).is_err(), "{deck:?}");
        }
        let p = |prize, a, b| Played {
            prize,
            bids: [a, b],
        };
        assert!(Goofspiel::from_parts(3, vec![p(1, 1, 2)], vec![2, 3]).is_ok());
        for (n, hist, deck) in [
            (0, vec![], vec![]),
            (14, vec![], (1..=14).collect()),
            (3, vec![p(1, 1, 2)], vec![2]),    // too few prizes
            (3, vec![p(1, 1, 2)], vec![1, 3]), // prize twice
            (3, vec![p(1, 1, 2)], vec![2, 4]), // prize out of range
            (3, vec![p(4, 1, 2)], vec![2, 3]), // drawn prize out of range
            (3, vec![p(1, 1, 2), p(2, 1, 3)], vec![3]), // seat 0 bids 1 twice
            (3, vec![p(1, 1, 2), p(2, 3, 0)], vec![3]), // bid 0
            (2, vec![p(1, 1, 2), p(2, 2, 1), p(3, 3, 3)], vec![]),
        ] {
            assert!(
                Goofspiel::from_parts(n, hist.clone(), deck.clone()).is_err(),
                "{n} {hist:?} {deck:?}"
            );
        }
    }

    #[test]
    fn a_seat_observes_all_but_the_deck_order() {
        let mut g = Goofspiel::with_deck(vec![4, 2, 5, 1, 3]).unwrap();
        play(&mut g, 5, 1);
        let o = g.observe(1);
        assert_eq!(o.seat, 1);
        assert_eq!(o.cards, 5);
        assert_eq!(o.round, 1);
        assert_eq!(o.prize, Some(2));
        assert_eq!(o.hand, vec![2, 3, 4, 5]);
        assert_eq!(o.opponent_hand, vec![1, 2, 3, 4]);
        assert_eq!(o.scores, [4, 0]);
        assert_eq!(o.prizes_left(), vec![1, 2, 3, 5]);
        assert_eq!(o.outcome(), None);
        o.check().unwrap();
        g.observe(0).check().unwrap();
        // The same game with the later prizes in another order looks the same.
        let mut h = Goofspiel::with_deck(vec![4, 2, 1, 3, 5]).unwrap();
        play(&mut h, 5, 1);
        assert_eq!(h.observe(0), g.observe(0));
        assert_eq!(h.observe(1), g.observe(1));
    }

    #[test]
    fn inconsistent_observations_fail_the_check() {
        let mut g = Goofspiel::with_deck(vec![3, 1, 2]).unwrap();
        play(&mut g, 2, 3);
        let good = g.observe(0);
        good.check().unwrap();
        let mut bad: Vec<GoofObs> = Vec::new();
        let mut o = good.clone();
        o.seat = 2;
        bad.push(o);
        let mut o = good.clone();
        o.round = 2;
        bad.push(o);
        let mut o = good.clone();
        o.hand = vec![1, 2];
        bad.push(o);
        let mut o = good.clone();
        o.hand = vec![3, 1];
        bad.push(o);
        let mut o = good.clone();
        o.opponent_hand = vec![1, 2, 3];
        bad.push(o);
        let mut o = good.clone();
        o.scores = [3, 0];
        bad.push(o);
        let mut o = good.clone();
        o.prize = None;
        bad.push(o);
        let mut o = good.clone();
        o.prize = Some(3);
        bad.push(o);
        let mut o = good.clone();
        o.prize = Some(9);
        bad.push(o);
        let mut o = good.clone();
        o.cards = 0;
        bad.push(o);
        let mut o = good.clone();
        o.cards = 40;
        bad.push(o);
        for o in bad {
            assert!(o.check().is_err(), "{o:?}");
        }
        play(&mut g, 1, 1);
        play(&mut g, 3, 2);
        let end = g.observe(1);
        end.check().unwrap();
        assert_eq!(g.scores(), [2, 3]);
        assert_eq!(end.outcome(), Some(Outcome::Win(1)));
        assert_eq!(end.prizes_left(), Vec::<u8>::new());
    }
}
