//! Every agent kept in the engine plays the same moves with the same work
//! at a fixed budget: for each game, a few positions (the start and
//! positions after random plies from fixed seeds), each agent's move and
//! the work it reported, one thread, a fixed seed, compared with
//! `tests/fixtures/pinned_moves.json`. A change that is meant to keep
//! behaviour (a refactor, a lever removed that was off) must leave this
//! file as it is; a change of an agent's play rewrites it on purpose:
//! `PIN_WRITE=1 cargo test --release --test pinned_moves`.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use ladderbot::games::{AgentParams, GameKind, GameVisitor, PlayableGame};
use ladderbot::model::Turn;
use ladderbot::search::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The work each agent gets (playouts, nodes, evaluations...): a shallow
/// search and a deeper one, small enough for the test to take seconds.
const BUDGETS: [u64; 2] = [300, 5000];
/// Positions per game: the start, then after random plies from these seeds.
const PLIES: [(u64, usize); 5] = [(0, 0), (1, 6), (2, 14), (3, 24), (4, 34)];

/// One agent's answers, by position: `move work`.
type Pins = BTreeMap<String, Vec<String>>;

/// The players to pin: a name for the fixture, the agent, its parameters.
struct Pin(Vec<(String, String, AgentParams)>);

impl GameVisitor for Pin {
    type Output = Pins;
    fn visit<G: PlayableGame>(self) -> Pins {
        let mut positions = Vec::new();
        for (seed, plies) in PLIES {
            let mut pos = G::start_with(seed, &Default::default()).expect("a start");
            let mut rng = SmallRng::seed_from_u64(seed);
            for _ in 0..plies {
                let joint = match pos.turn() {
                    Turn::Over(_) => break,
                    turn => {
                        let mut joint = [None, None];
                        for &s in turn.movers() {
                            let legal = pos.legal_actions(s);
                            joint[s] = Some(legal[rng.gen_range(0..legal.len())]);
                        }
                        joint
                    }
                };
                pos.apply(joint);
            }
            if let Some(&seat) = pos.turn().movers().first() {
                positions.push((seat, pos));
            }
        }
        let mut pins = Pins::new();
        for (label, name, given) in self.0 {
            let decl = G::agent_decl(&name).expect("a kept agent");
            let mut params = given;
            // One thread; an agent with a clock of its own (Puyo's beam
            // searches: `ms`) gets all the time it needs for a fixed number
            // of sampled futures, so its answer does not depend on speed.
            for (key, value) in [("threads", 1), ("ms", 60_000), ("futures", 4)] {
                if decl.get(key).is_some() {
                    params.insert(key.into(), value.into());
                }
            }
            let mut answers = Vec::new();
            for budget in BUDGETS {
                for (seat, pos) in &positions {
                    let mut agent = G::build_agent(&name, &params, 7).expect("builds");
                    agent.new_game();
                    let d = agent.select(
                        &pos.observe(*seat),
                        &Limits::playouts(budget),
                        &AtomicBool::new(false),
                    );
                    answers.push(format!("{} {}", G::move_to_json(d.mv), d.playouts));
                }
            }
            pins.insert(label, answers);
        }
        pins
    }
}

/// The agents every shipped profile plays, and the named baselines that
/// targets, tests and labs compare against.
fn kept(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Four3d => &[
            "random",
            "pmc",
            "ucb1",
            "uct",
            "uct-es",
            "uct-tactics",
            "ab-v1",
            "ab-v2",
            "ab-v3",
            "ab-v4",
            "best",
        ],
        GameKind::Golad => &[
            "random", "pass", "ai1", "ai2", "ai3", "mcts-v1", "control", "ab-v1", "ab-v2", "best",
        ],
        GameKind::Geister => &[
            "random",
            "rule",
            "charge",
            "dmc-v1",
            "ismcts-v1",
            "ismcts-v2",
            "best",
        ],
        GameKind::Goofspiel => &["random", "match"],
        GameKind::FloodIt => &[
            "random",
            "greedy",
            "mc",
            "mc-area",
            "uct",
            "alphabeta",
            "best",
        ],
        GameKind::Puyo => &[
            "random",
            "template",
            "potential",
            "combined",
            "beam-v1",
            "best",
        ],
    }
}

#[test]
fn every_kept_agent_plays_its_pinned_moves() {
    let mut all: BTreeMap<String, Pins> = BTreeMap::new();
    for game in GameKind::ALL {
        let mut players: Vec<(String, String, AgentParams)> = kept(*game)
            .iter()
            .map(|a| (a.to_string(), a.to_string(), AgentParams::new()))
            .collect();
        // Every shipped profile's agent with its `[agent_params]`.
        for (name, s) in ladderbot::config::shipped_for(*game) {
            players.push((
                format!("profile {name}"),
                s.agent.clone(),
                s.agent_params.clone(),
            ));
        }
        all.insert(game.to_string(), game.visit(Pin(players)));
    }
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pinned_moves.json");
    let text = serde_json::to_string_pretty(&all).unwrap() + "\n";
    if std::env::var_os("PIN_WRITE").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let pinned: BTreeMap<String, Pins> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the pinned moves"))
            .expect("pinned moves JSON");
    let mut differ = Vec::new();
    for (game, pins) in &pinned {
        for (agent, want) in pins {
            let got = all.get(game).and_then(|p| p.get(agent));
            if got != Some(want) {
                differ.push(format!("{game} {agent}: pinned {want:?}, now {got:?}"));
            }
        }
    }
    assert!(differ.is_empty(), "moves changed:\n{}", differ.join("\n"));
}
