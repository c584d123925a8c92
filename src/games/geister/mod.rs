//! Geister (GAT Geister AI tournament): 6x6, eight pieces a side, four red
//! and four blue, colours hidden from the opponent. Rules and board string as
//! as the GAT server implements them (see `protocol/gat-geister/`).
//!
//! - [`rules`]: the true game ([`Geister`]) with both sides' colours, for
//!   servers, referees and determinized search.
//! - [`view`]: one player's [`View`] (hidden opponent colours, own frame),
//!   the GAT 48-character board and determinization.
//! - [`game`]: the whole game as one model ([`GeisterGame`]): a simultaneous
//!   setup turn, then alternating moves; its wire forms.
//! - [`agents`]: the agents by name, each an `Agent<GeisterGame>`.

pub mod agents;
pub mod best;
pub mod charge;
pub mod ending;
pub mod game;
pub mod geometry;
pub mod likelihood;
pub mod patterns;
pub mod rule_agent;
pub mod rules;
#[cfg(test)]
mod testing;
pub mod view;

pub use game::{Action, GeisterGame, Obs};
pub use rules::{Colour, Dir, Geister, Move, MoveReport, Place, Setup, Square, MAX_PLIES, PIECES};
pub use view::View;
