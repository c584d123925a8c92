//! The bot profiles shipped in `bots/`, built into the binary: a copy of
//! the binary alone still finds `--profile four3d-pmc`. A file on disk of
//! the same name wins (see [`super::resolve_profile`]).

macro_rules! shipped {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../bots/", $name, ".toml")))),*]
    };
}

/// (name, TOML text) of every file `bots/NAME.toml`; a test checks the
/// list against the folder.
pub const SHIPPED: &[(&str, &str)] = shipped![
    "floodit-alphabeta",
    "floodit-best",
    "floodit-greedy",
    "floodit-mc",
    "floodit-mc-area",
    "floodit-random",
    "floodit-uct",
    "four3d-best",
    "four3d-pmc",
    "four3d-random",
    "four3d-ucb1",
    "four3d-uct",
    "four3d-uct-es",
    "geister-best",
    "geister-charge",
    "geister-dmc-v1",
    "geister-gat",
    "geister-random",
    "geister-rule",
    "golad-ai1",
    "golad-ai2",
    "golad-ai3",
    "golad-best",
    "golad-best-bank",
    "golad-mcts-v1",
    "goofspiel-match",
    "puyo-beam-v1",
    "puyo-best",
    "puyo-combined",
    "puyo-potential",
    "puyo-random",
    "puyo-template",
];

/// The shipped profile called `name` (with or without `.toml`).
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    let stem = name.strip_suffix(".toml").unwrap_or(name);
    SHIPPED.iter().copied().find(|(n, _)| *n == stem)
}

/// The shipped profile a game is played with when none is given
/// (`play GAME`): `GAME-best`, where there is one.
pub fn best_for(game: crate::games::GameKind) -> Option<(&'static str, &'static str)> {
    find(&format!("{game}-best"))
}
