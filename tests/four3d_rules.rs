//! The Score Four bitboard rules against the deliberately simple array
//! reference: property tests over random games, and perft counts.

use ladderbot::games::four3d::reference::RefBoard;
use ladderbot::games::four3d::{wire, Board, Peg};
use ladderbot::search::{Game, Outcome};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Asserts that both boards describe the same position.
fn assert_same(b: &Board, r: &RefBoard, ply: usize) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        b.legal_moves(),
        r.legal_moves(),
        "legal moves at ply {}",
        ply
    );
    prop_assert_eq!(b.outcome(), r.outcome(), "outcome at ply {}", ply);
    prop_assert_eq!(b.ply() as usize, r.moves_played);
    if b.outcome().is_none() {
        prop_assert_eq!(b.to_move(), r.to_move(), "side to move at ply {}", ply);
    }
    for x in 0..4 {
        for y in 0..4 {
            for z in 0..4 {
                prop_assert_eq!(
                    b.at(x, y, z),
                    r.cells[x][y][z],
                    "cell ({}, {}, {}) at ply {}",
                    x,
                    y,
                    z,
                    ply
                );
            }
            let peg = Peg::new(x as u8, y as u8);
            prop_assert_eq!(
                b.landing_cell(peg).map(|c| c as usize / 16),
                r.free_height(x, y),
                "landing height of peg {:?} at ply {}",
                peg,
                ply
            );
        }
    }
    for p in 0..20u8 {
        prop_assert_eq!(b.is_legal(Peg(p)), r.is_legal(Peg(p)), "is_legal({})", p);
    }
    // The wire format round-trips every reachable position.
    let json = wire::state_to_json(b);
    let back = wire::state_from_json(&json).map_err(TestCaseError::fail)?;
    prop_assert_eq!(back, *b, "wire round trip at ply {}: {}", ply, json);
    Ok(())
}

/// Plays a game on both boards: at each ply, choice `c` picks legal move
/// `c % count`, until the game ends or the choices run out.
fn play_both(choices: &[u16]) -> Result<(), TestCaseError> {
    let mut b = Board::new();
    let mut r = RefBoard::new();
    assert_same(&b, &r, 0)?;
    for (ply, &c) in choices.iter().enumerate() {
        let moves = b.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[c as usize % moves.len()];
        b.play(mv);
        r.play(mv);
        assert_same(&b, &r, ply + 1)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Uniformly chosen moves: games of every length, mostly ended by a line.
    #[test]
    fn bitboard_agrees_with_reference(choices in prop::collection::vec(any::<u16>(), 0..=64)) {
        play_both(&choices)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Moves biased towards few pegs: full pegs (illegal moves) early and
    /// often, and vertical lines.
    #[test]
    fn bitboard_agrees_with_reference_on_crowded_pegs(
        choices in prop::collection::vec(0u16..3, 0..=64)
    ) {
        play_both(&choices)?;
    }
}

/// Games that avoid ending while they can (a move that completes a line is
/// played only when every move does): they run long and often fill the
/// board, which uniformly random games almost never do (about 1 in 30 000).
#[test]
fn long_games_and_draws_agree() {
    let mut draws = 0;
    for seed in 0..400u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut b = Board::new();
        let mut r = RefBoard::new();
        let mut ply = 0;
        while b.outcome().is_none() {
            let moves = b.legal_moves();
            let quiet: Vec<Peg> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut c = b;
                    c.play(m);
                    !matches!(c.outcome(), Some(Outcome::Win(_)))
                })
                .collect();
            let pool = if quiet.is_empty() { &moves } else { &quiet };
            let mv = pool[rng.gen_range(0..pool.len())];
            b.play(mv);
            r.play(mv);
            ply += 1;
            if let Err(e) = assert_same(&b, &r, ply) {
                panic!("seed {seed}: {e}");
            }
        }
        if b.outcome() == Some(Outcome::Draw) {
            assert_eq!(ply, 64);
            draws += 1;
        }
    }
    // About 2.5% of these games are draws; the seeds are fixed.
    assert!(draws >= 3, "only {draws} draws");
}

/// Positions after `depth` plies from `pos`. A finished position is a leaf:
/// counted if it is at depth 0, never expanded.
fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.outcome().is_some() {
        return 0;
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

/// perft(n) from the empty board for n = 0..=7, derived without either
/// implementation of the rules.
///
/// No line can be completed before ply 7 (seat 0's 4th bead), so no
/// position before ply 7 is finished, and `perft` counts a position at
/// depth 0 whether or not its game is over. Up to depth 7 the only rule
/// that limits the moves is then the pegs' capacity (4 beads each): perft(n)
/// is the number of sequences of n pegs out of 16 with no peg used more
/// than 4 times ([`capped_sequences`] counts them, and the test checks these
/// constants against it). By hand: perft(1..=4) = 16^n (no peg is full
/// before the 5th ply); perft(5) = 16^5 - 16 (the 16 sequences that fill one
/// peg and drop a 5th bead on it); perft(6) = 16 * perft(5) - 1200, where
/// 1200 = 16 * 15 (a peg full after 4 plies) + 16 * 4 * 15 (a peg full
/// after exactly 5); perft(7) = 16^7 - 16 * (C(7,5) * 15^2 + C(7,6) * 15 + 1)
/// = 268,435,456 - 16 * 4,831 (a peg asked for 5, 6 or 7 of the 7 drops;
/// only one peg can be, as 5 + 5 > 7). Depth 7 is also the first count
/// that includes finished games (seat 0 completing a line at ply 7). The
/// reference (tests below) agrees up to 6 and the bitboard up to 7.
const PERFT: [u64; 8] = [
    1,
    16,
    256,
    4_096,
    65_536,
    1_048_560,
    16_775_760,
    268_358_160,
];

/// Positions reached by these pegs, and their perft(0..=5) (computed the
/// same way, both implementations agreeing). These have lines one move away,
/// so finished games occur at every depth and must not be expanded.
const NEAR_WINS: [(&[u8], [u64; 6]); 2] = [
    // Seat 0 has three in a row on y = 0, seat 1 on y = 1.
    (&[0, 4, 1, 5, 2, 6], [1, 16, 240, 3_616, 54_474, 823_975]),
    // Two beads on each of pegs 0, 1, 2; three on peg 5.
    (
        &[0, 0, 1, 1, 2, 2, 5, 5, 5, 10, 10, 15],
        [1, 16, 239, 3_791, 55_804, 872_126],
    ),
];

fn after<G: Game<Move = Peg>>(mut g: G, pegs: &[u8]) -> G {
    for &p in pegs {
        assert!(g.is_legal(Peg(p)));
        g.play(Peg(p));
    }
    g
}

/// Sequences of `n` pegs out of 16 with no peg more than 4 times: a
/// dynamic programme over the pegs, each peg's k drops placed among the
/// sequence's positions in C(len, k) ways.
fn capped_sequences(n: usize) -> u64 {
    let choose = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
    let mut ways = vec![0u64; n + 1];
    ways[0] = 1;
    for _peg in 0..16 {
        let mut next = vec![0u64; n + 1];
        for (len, slot) in next.iter_mut().enumerate() {
            for k in 0..=len.min(4) {
                *slot += ways[len - k] * choose(len as u64, k as u64);
            }
        }
        ways = next;
    }
    ways[n]
}

#[test]
fn perft_from_the_empty_board() {
    for (n, &count) in PERFT.iter().enumerate() {
        assert_eq!(count, capped_sequences(n), "perft({n}) by counting");
    }
    assert_eq!(PERFT[1..=4], [16, 256, 4_096, 65_536]);
    assert_eq!(PERFT[5], 16u64.pow(5) - 16);
    assert_eq!(PERFT[6], 16 * PERFT[5] - 1200);
    assert_eq!(PERFT[7], 16u64.pow(7) - 16 * (21 * 15 * 15 + 7 * 15 + 1));
    // In release the reference takes about 3 s for depth 6 and the bitboard
    // about 1 s for depth 7 (the reference would need about a minute). Debug
    // builds are some 30 times slower, so they stop one ply earlier.
    let (ref_depth, fast_depth) = if cfg!(debug_assertions) {
        (5, 6)
    } else {
        (6, 7)
    };
    for depth in 0..=fast_depth {
        let fast = perft(&Board::new(), depth);
        assert_eq!(fast, PERFT[depth as usize], "bitboard perft({depth})");
        if depth <= ref_depth {
            let slow = perft(&RefBoard::new(), depth);
            assert_eq!(slow, fast, "reference perft({depth})");
        }
    }
}

#[test]
fn perft_near_finished_games() {
    let max_depth = if cfg!(debug_assertions) { 4 } else { 5 };
    for (pegs, counts) in NEAR_WINS {
        let fast = after(Board::new(), pegs);
        let slow = after(RefBoard::new(), pegs);
        assert!(fast.outcome().is_none());
        for depth in 0..=max_depth {
            let f = perft(&fast, depth);
            assert_eq!(
                f, counts[depth as usize],
                "bitboard perft({depth}) after {pegs:?}"
            );
            assert_eq!(
                perft(&slow, depth),
                f,
                "reference perft({depth}) after {pegs:?}"
            );
        }
    }
}
