//! GOLAD rules: the bitboard field and game against the deliberately simple
//! array reference (property tests), and replays of games recorded from
//! the real Riddles.io engine (`protocol/riddles-golad/transcripts/`).

use std::path::{Path, PathBuf};

use ladderbot::games::golad::moves::{Cell, Move, CELLS};
use ladderbot::games::golad::reference::{RefField, RefGame};
use ladderbot::games::golad::{Field, GolState};
use ladderbot::search::{Game, Outcome};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

// ---------------------------------------------------------------------------
// Property tests against the array reference.

/// A random field: each cell lives with probability `density`/100, and a
/// living cell is player 0's with probability `p0`/100.
fn random_field(seed: u64, density: u32, p0: u32) -> Field {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut f = Field::empty();
    for i in 0..CELLS {
        if rng.gen_range(0..100) < density {
            let seat = if rng.gen_range(0..100) < p0 { 0 } else { 1 };
            f.set(Cell::from_index(i), Some(seat));
        }
    }
    f
}

fn field_strategy() -> impl Strategy<Value = Field> {
    (any::<u64>(), 0u32..=100, 0u32..=100).prop_map(|(s, d, p)| random_field(s, d, p))
}

/// A move built from raw numbers against the current field: often legal,
/// often not (dead kills, foreign or repeated sacrifices, living birth cells).
fn make_move(s: &GolState, kind: u8, a: u32, b: u32, c: u32) -> Move {
    let any = |k: u32| Cell::from_index(k as usize % CELLS);
    let own = s.field.count(s.to_move).max(1);
    let dead = (CELLS as u32 - s.field.count_all()).max(1);
    let occupied = s.field.count_all().max(1);
    match kind % 6 {
        0 => Move::Kill(any(a)),
        1 => Move::Kill(s.field.nth_occupied(a % occupied).unwrap_or(any(a))),
        2 | 3 => Move::Birth {
            at: s.field.nth_dead(a % dead).unwrap_or(any(a)),
            sacrifice: [
                s.field.nth_living(s.to_move, b % own).unwrap_or(any(b)),
                s.field.nth_living(s.to_move, c % own).unwrap_or(any(c)),
            ],
        },
        4 => Move::Birth {
            at: any(a),
            sacrifice: [any(b), any(c)],
        },
        _ => Move::Pass,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6000))]

    /// Generations on random fields of every density and colour mix.
    #[test]
    fn bitboard_generations_match_the_reference(f in field_strategy(), gens in 1usize..6) {
        let mut b = f;
        let mut r = RefField::from_field(&f);
        prop_assert_eq!(r.to_field(), f);
        for g in 0..gens {
            b = b.step();
            r = r.step();
            prop_assert_eq!(b, r.to_field(), "generation {} from {:?}", g + 1, f);
            prop_assert_eq!(b.count(0), r.count(0));
            prop_assert_eq!(b.count(1), r.count(1));
        }
        prop_assert_eq!(Field::from_riddles(&b.to_riddles()), Ok(b));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// Random move sequences (legal and illegal) through both games.
    #[test]
    fn games_match_the_reference(
        f in field_strategy(),
        max_rounds in 1u32..8,
        moves in prop::collection::vec((any::<u8>(), any::<u32>(), any::<u32>(), any::<u32>()), 1..20),
    ) {
        let mut s = GolState::new(f, max_rounds);
        let mut r = RefGame::new(RefField::from_field(&f), max_rounds);
        for (i, &(kind, a, b, c)) in moves.iter().enumerate() {
            prop_assert_eq!(s.outcome(), r.outcome(), "outcome before move {}", i);
            let mv = make_move(&s, kind, a, b, c);
            let legal = s.outcome().is_none() && r.field.is_legal(r.to_move(), &mv);
            prop_assert_eq!(s.is_legal(&mv), legal, "legality of {:?} in {:?}", mv, s);
            prop_assert_eq!(Game::is_legal(&s, mv), legal);
            prop_assert_eq!(s.apply(mv), r.apply(&mv), "apply {:?}", mv);
            prop_assert_eq!(s.field, r.field.to_field(), "field after {:?}", mv);
            if r.outcome().is_none() {
                prop_assert_eq!(s.to_move, r.to_move());
                prop_assert_eq!(s.round, r.round());
            }
        }
        prop_assert_eq!(s.outcome(), r.outcome());
    }
}

#[test]
fn legal_moves_are_exactly_the_legal_ones_on_a_small_field() {
    let mut rng = SmallRng::seed_from_u64(77);
    for _ in 0..20 {
        let f = random_field(rng.gen(), 3, 50);
        let s = GolState::new(f, 100);
        if s.outcome().is_some() {
            continue;
        }
        let moves = s.legal_moves();
        let own = f.count(0) as usize;
        assert_eq!(
            moves.len(),
            f.count_all() as usize
                + (CELLS - f.count_all() as usize) * own * own.saturating_sub(1) / 2
                + 1
        );
        let r = RefField::from_field(&f);
        for m in &moves {
            assert!(r.is_legal(0, m), "{m:?}");
        }
        for _ in 0..2000 {
            let m = make_move(&s, rng.gen(), rng.gen(), rng.gen(), rng.gen());
            let canonical = match m {
                Move::Birth {
                    at,
                    sacrifice: [a, b],
                } if b.index() < a.index() => Move::Birth {
                    at,
                    sacrifice: [b, a],
                },
                other => other,
            };
            assert_eq!(moves.contains(&canonical), r.is_legal(0, &m), "{m:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Replays of the recorded engine games.

/// One `action move` request as a bot saw it, and its reply.
#[derive(Debug)]
struct Turn {
    round: u32,
    field: String,
    living: [u32; 2],
    /// The opponent's last move as the engine reported it (`null`, `pass`,
    /// `kill_3,4`...), if the request had one.
    opponent_move: Option<String>,
    /// The first line the bot wrote after the request.
    reply: Option<String>,
}

#[derive(Debug)]
struct Transcript {
    max_rounds: u32,
    turns: Vec<Turn>,
}

fn transcripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/riddles-golad/transcripts")
}

fn parse_transcript(path: &Path) -> Transcript {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut max_rounds = None;
    let mut round = None;
    let mut field = None;
    let mut living = [None, None];
    let mut opponent_move = None;
    let mut turns: Vec<Turn> = Vec::new();
    let mut awaiting_reply = false;
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), n + 1);
        if line.starts_with("# ") || line.is_empty() {
            continue;
        }
        if let Some(reply) = line.strip_prefix("> ") {
            // The platform takes the first line after a request as the move.
            if awaiting_reply {
                turns.last_mut().unwrap().reply = Some(reply.to_string());
                awaiting_reply = false;
            }
            continue;
        }
        let msg = line
            .strip_prefix("< ")
            .unwrap_or_else(|| panic!("{}: unexpected line {line:?}", at()));
        let words: Vec<&str> = msg.split(' ').collect();
        match words.as_slice() {
            ["settings", "max_rounds", m] => max_rounds = Some(m.parse().unwrap()),
            ["settings", ..] => {}
            ["update", "game", "round", r] => round = Some(r.parse().unwrap()),
            ["update", "game", "field", f] => field = Some(f.to_string()),
            ["update", p, "living_cells", k] => {
                let seat = match *p {
                    "player0" => 0,
                    "player1" => 1,
                    _ => panic!("{}: unknown player {p}", at()),
                };
                living[seat] = Some(k.parse().unwrap());
            }
            ["update", _, "move", m] => opponent_move = Some(m.to_string()),
            ["action", "move", _] => {
                awaiting_reply = true;
                turns.push(Turn {
                    round: round.take().unwrap_or_else(|| panic!("{}: no round", at())),
                    field: field.take().unwrap_or_else(|| panic!("{}: no field", at())),
                    living: [
                        living[0]
                            .take()
                            .unwrap_or_else(|| panic!("{}: no living_cells", at())),
                        living[1]
                            .take()
                            .unwrap_or_else(|| panic!("{}: no living_cells", at())),
                    ],
                    opponent_move: opponent_move.take(),
                    reply: None,
                });
            }
            _ => panic!("{}: unexpected message {msg:?}", at()),
        }
    }
    Transcript {
        max_rounds: max_rounds.expect("settings max_rounds"),
        turns,
    }
}

/// A result-file board: each cell `now` or `now>next`.
fn parse_result_board(s: &str) -> (Field, Field) {
    let (mut now, mut next) = (Vec::new(), Vec::new());
    for cell in s.split(',') {
        let (a, b) = cell.split_once('>').unwrap_or((cell, cell));
        now.push(a);
        next.push(b);
    }
    (
        Field::from_riddles(&now.join(",")).unwrap(),
        Field::from_riddles(&next.join(",")).unwrap(),
    )
}

/// Replays one recorded game and checks it against everything recorded.
fn replay(name: &str) {
    let dir = transcripts_dir();
    let p = [0, 1].map(|seat| parse_transcript(&dir.join(format!("{name}_player{seat}.txt"))));
    assert_eq!(p[0].max_rounds, p[1].max_rounds, "{name}: max_rounds");
    let result: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}_resultfile.json"))).unwrap(),
    )
    .unwrap();
    let game: Value = serde_json::from_str(result["game"].as_str().unwrap()).unwrap();

    let first = Field::from_riddles(&p[0].turns[0].field).unwrap();
    let mut s = GolState::new(first, p[0].max_rounds);
    // Every field the result file shows: the start, then after each move
    // and after each generation.
    let mut history = vec![s.field];
    let mut next_turn = [0usize; 2];
    let mut shut_down = [false; 2];
    // What the engine should have told each player about the other's move.
    let mut reported: [Option<String>; 2] = [None, None];
    while s.outcome().is_none() {
        let seat = s.to_move;
        let k = next_turn[seat];
        next_turn[seat] += 1;
        let ctx = format!("{name}: player {seat}, turn {}", k + 1);
        // The move, and whether the engine could read it.
        let (mv, readable) = match p[seat].turns.get(k) {
            Some(t) => {
                assert!(!shut_down[seat], "{ctx}: a request after the shut-down");
                assert_eq!(t.round, s.round, "{ctx}: round");
                assert_eq!(
                    t.field,
                    s.field.to_riddles(),
                    "{ctx}: field\nours: {:?}",
                    s.field
                );
                assert_eq!(
                    t.living,
                    [s.field.count(0), s.field.count(1)],
                    "{ctx}: living_cells"
                );
                let expected = reported[1 - seat].clone().unwrap_or_else(|| "null".into());
                assert_eq!(
                    t.opponent_move.as_deref(),
                    Some(expected.as_str()),
                    "{ctx}: opponent's move"
                );
                match &t.reply {
                    Some(line) => match Move::parse_reply(line) {
                        Ok(m) => (m, true),
                        Err(_) => (Move::Pass, false),
                    },
                    None => {
                        // No answer in time: shut down, passes from now on.
                        shut_down[seat] = true;
                        (Move::Pass, false)
                    }
                }
            }
            None => {
                assert!(
                    shut_down[seat],
                    "{ctx}: the engine sent no request for this turn"
                );
                (Move::Pass, false)
            }
        };
        let mut after_move = s.field;
        let legal = s.is_legal(&mv);
        if legal {
            let mut r = RefField::from_field(&s.field);
            r.play(seat, &mv);
            after_move = r.to_field();
        }
        assert_eq!(s.apply(mv), legal);
        history.push(after_move);
        history.push(s.field);
        reported[seat] = Some(if legal && readable {
            mv.to_string().replace(' ', "_")
        } else {
            "null".into()
        });
    }
    for seat in 0..2 {
        assert_eq!(
            next_turn[seat].min(p[seat].turns.len()),
            p[seat].turns.len(),
            "{name}: player {seat} requests left over"
        );
    }

    // The end as the result file says.
    let winner = match &game["winner"] {
        Value::Null => Outcome::Draw,
        w => Outcome::Win(w.as_u64().expect("winner") as usize),
    };
    assert_eq!(s.outcome(), Some(winner), "{name}: outcome");
    assert_eq!(
        Some(s.rounds_played() as u64),
        game["score"].as_u64(),
        "{name}: rounds (score)"
    );

    // Every state of the result file, with its living-cell counts; a cell
    // written `now>next` shows the next generation.
    let states = game["states"].as_array().unwrap();
    assert_eq!(states.len(), history.len(), "{name}: number of states");
    for (i, (st, ours)) in states.iter().zip(&history).enumerate() {
        let (now, next) = parse_result_board(st["board"].as_str().unwrap());
        assert_eq!(now, *ours, "{name}: result state {i}");
        assert_eq!(
            next,
            ours.step(),
            "{name}: result state {i}, next generation"
        );
        for pl in st["players"].as_array().unwrap() {
            let id = pl["id"].as_u64().unwrap() as usize;
            assert_eq!(
                pl["score"].as_u64(),
                Some(ours.count(id) as u64),
                "{name}: state {i} player {id} cells"
            );
        }
    }
}

#[test]
fn replay_seed_abc() {
    replay("golad_seed_abc");
}

#[test]
fn replay_illegal_moves_act_as_passes() {
    replay("golad_seed_def_illegal_p0");
}

#[test]
fn replay_max_rounds_draw() {
    replay("golad_seed_jkl_maxrounds5_draw");
}

#[test]
fn replay_timeout_passes_for_the_rest() {
    replay("golad_timeout_seed_xyz");
}

#[test]
fn every_recorded_game_is_replayed() {
    let mut names: Vec<String> = std::fs::read_dir(transcripts_dir())
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().into_string().unwrap();
            n.strip_suffix("_resultfile.json").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "golad_seed_abc",
            "golad_seed_def_illegal_p0",
            "golad_seed_jkl_maxrounds5_draw",
            "golad_timeout_seed_xyz"
        ]
    );
}
