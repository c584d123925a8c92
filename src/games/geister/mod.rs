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

/// Every Geister agent's [`crate::search::Agent`] impl, one shape: its
/// setup (`setup()`) on the setup turn, its move (`choose(view, limits,
/// stop)`, with `last_playouts()`) on every other; `new_game()` between
/// games; with `learns`, `game_over(view)` after each.
macro_rules! geister_agent {
    ($ty:ty, $name:literal) => {
        geister_agent!(@impl $ty, $name, {});
    };
    // An agent that learns from game to game: `game_over(view)` gets its
    // view of every finished game.
    ($ty:ty, $name:literal, learns) => {
        geister_agent!(@impl $ty, $name, {
            fn game_over(&mut self, obs: &crate::games::geister::Obs) {
                if let crate::games::geister::Obs::Play(view) = obs {
                    <$ty>::game_over(self, view)
                }
            }
        });
    };
    // An agent that learns and thinks on the opponent's time:
    // `ponder(limits, stop)` after each of its moves.
    ($ty:ty, $name:literal, learns, ponders) => {
        geister_agent!(@impl $ty, $name, {
            fn game_over(&mut self, obs: &crate::games::geister::Obs) {
                if let crate::games::geister::Obs::Play(view) = obs {
                    <$ty>::game_over(self, view)
                }
            }
            fn ponders(&self) -> bool {
                true
            }
            fn ponder(
                &mut self,
                obs: &crate::games::geister::Obs,
                _ours: &crate::games::geister::Action,
                limits: &crate::search::Limits,
                stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
            ) -> u64 {
                match obs {
                    crate::games::geister::Obs::Play(_) => <$ty>::ponder(self, limits, stop),
                    crate::games::geister::Obs::Setup => 0,
                }
            }
        });
    };
    (@impl $ty:ty, $name:literal, { $($extra:tt)* }) => {
        impl crate::search::Agent<crate::games::geister::GeisterGame> for $ty {
            fn name(&self) -> &str {
                $name
            }
            fn new_game(&mut self) {
                <$ty>::new_game(self)
            }
            fn select(
                &mut self,
                obs: &crate::games::geister::Obs,
                limits: &crate::search::Limits,
                stop: &std::sync::atomic::AtomicBool,
            ) -> crate::search::Decision<crate::games::geister::Action> {
                use crate::games::geister::game::decided;
                use crate::games::geister::{Action, Obs};
                match obs {
                    Obs::Setup => decided(Action::Setup(self.setup()), 0),
                    Obs::Play(view) => {
                        let mv = self.choose(view, limits, stop);
                        let mut d = decided(Action::Move(mv), self.last_playouts());
                        d.value = self.last_value();
                        d
                    }
                }
            }
            $($extra)*
        }
    };
}

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
pub mod styles;
#[cfg(test)]
mod testing;
pub mod view;
pub mod wire;

pub use game::{Action, GeisterGame, Obs};
pub use rules::{Colour, Dir, Geister, Move, MoveReport, Place, Setup, Square, MAX_PLIES, PIECES};
pub use view::View;
