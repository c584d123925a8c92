//! Goofspiel, the bidding card game: the crate's simultaneous-move game.
//!
//! # Rules
//!
//! - Each of the two seats holds the cards 1..=n; a prize deck of the cards
//!   1..=n is shuffled from the seed (`SmallRng::seed_from_u64(seed)` and
//!   `SliceRandom::shuffle`, rand 0.8). The standard game has
//!   n = [`DEFAULT_CARDS`] = 13.
//! - Every round is [`Turn::Both`](crate::model::Turn::Both): the top
//!   prize is shown and both seats bid one card of their own hand at once.
//!   The higher bid scores the prize's value in points; on equal bids the
//!   prize is discarded and nobody scores. Bid cards are gone.
//! - After n rounds the game is over: more points wins, equal points is a
//!   draw.
//!
//! # Choices
//!
//! - An action is the card bid (`u8`); on the wire a JSON number. Reading a
//!   move accepts only whole numbers in 1..=13; whether the seat holds the
//!   card is the legality check's business.
//! - [`Goofspiel::new`] clamps n to 1..=13 rather than failing;
//!   [`Goofspiel::with_deck`] (a fixed prize order, for tests) and
//!   [`Goofspiel::from_parts`] (a position after some rounds) validate and
//!   return errors.
//! - `legal_actions(seat)` is the seat's hand, ascending, while the game is
//!   on, else empty (also for seats other than 0 and 1).
//! - `apply` plays a round only if both bids are `Some` and legal; anything
//!   else (a missing or illegal bid, a finished game) leaves the state
//!   unchanged. It never panics. `observe` panics for a seat other than 0
//!   and 1.
//! - An observation ([`GoofObs`]) holds the seat, n, the rounds played, the
//!   current prize (`None` once over), both hands (the opponent's follows
//!   from its revealed bids), both scores (seat 0's first) and the history
//!   of rounds `(prize, seat 0's bid, seat 1's bid)`; never the order of
//!   the prizes to come (their set is public: [`GoofObs::prizes_left`]).
//! - The state's JSON holds the prizes to come in order; its redundant
//!   parts (round, hands, scores) are checked against the history when read.
//!   Both JSON readers reject unknown and missing keys and anything
//!   inconsistent; `to_json(from_json(v)) == v` for what they accept. See
//!   [`wire`] for the shapes.
//! - The bids of a round are shown to both seats once the round is played
//!   (the default `shown_move`).
//! - Agents ([`agents`]): `random` and `match` (the default); an agent asked
//!   to bid from an empty hand (a finished game) panics.
//!
//! # Files
//!
//! - [`rules`]: the state, the observation and the [`Model`](crate::model::Model).
//! - [`wire`]: [`PlayableGame`](crate::games::PlayableGame) (id `goofspiel`), JSON.
//! - [`agents`]: the agents by name.

pub mod agents;
pub mod rules;
pub mod wire;

pub use agents::{build, match_bid, MatchBidder, RandomBidder};
pub use rules::{GoofObs, Goofspiel, Played, DEFAULT_CARDS, MAX_CARDS};
