//! Geister rules, views and the GAT board string (spec/geister.md).

use ladderbot::games::geister::{
    Colour, Dir, Geister, Move, Place, Setup, Square, View, MAX_PLIES, PIECES,
};
use ladderbot::search::Outcome;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::SeedableRng;

const START_ABCD: &str = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u";

fn setup(s: &str) -> Setup {
    Setup::from_letters(s).unwrap()
}

fn at(x: u8, y: u8) -> Place {
    Place::At(Square::new(x, y))
}

fn mv(piece: char, dir: Dir) -> Move {
    Move::new(piece as u8 - b'A', dir)
}

/// A position with seat 0's pieces `p0` and seat 1's `p1` (absolute squares).
fn position(p0: [Place; 8], r0: &str, p1: [Place; 8], r1: &str, to_move: usize) -> Geister {
    Geister::from_position([p0, p1], [setup(r0), setup(r1)], 0, to_move).unwrap()
}

/// Seat 1 parked in its start squares.
fn seat1_home() -> [Place; 8] {
    let g = Geister::new([setup("ABCD"), setup("ABCD")]);
    *g.places(1)
}

#[test]
fn start_board_string_matches_the_spec() {
    for other in ["ABCD", "EFGH", "ACEG"] {
        let g = Geister::new([setup("ABCD"), setup(other)]);
        assert_eq!(g.to_gat(0), START_ABCD);
        assert_eq!(g.view(0).to_gat(), START_ABCD);
    }
    // Seat 1 sees itself at the bottom too: the same string for the same setup.
    let g = Geister::new([setup("EFGH"), setup("ABCD")]);
    assert_eq!(g.to_gat(1), START_ABCD);
    let v1 = g.view(1);
    for i in 0..8u8 {
        let own_abs = g.place(1, i).square().unwrap();
        assert_eq!(v1.own(i), Place::At(own_abs.rotated()));
        let opp_abs = g.place(0, i).square().unwrap();
        assert_eq!(v1.opp(i), Place::At(opp_abs.rotated()));
        assert_eq!(v1.opp_colour(i), None);
    }
    assert_eq!(
        g.to_gat(0),
        "14B24B34B44B15R25R35R45R41u31u21u11u40u30u20u10u"
    );
}

#[test]
fn seat_one_view_is_the_rotation_after_moves() {
    let mut g = Geister::new([setup("ABCD"), setup("EFGH")]);
    g.play(mv('A', Dir::N)); // seat 0: (1,4) -> (1,3)
    g.play(mv('D', Dir::N)); // seat 1: abs (1,1) -> (1,2); own frame (4,4) -> (4,3)
    assert_eq!(g.place(1, 3), at(1, 2));
    let v1 = g.view(1);
    assert_eq!(v1.own(3), at(4, 3));
    assert_eq!(v1.opp(0), at(4, 2));
    assert!(v1.my_turn() == (g.to_move() == 1));
    assert!(g.view(0).my_turn());
}

#[test]
fn cannot_move_onto_own_piece_or_off_board() {
    let g = Geister::new([setup("ABCD"), setup("ABCD")]);
    assert!(!g.is_legal(mv('A', Dir::E))); // onto B
    assert!(!g.is_legal(mv('A', Dir::S))); // onto E
    assert!(!g.is_legal(mv('F', Dir::N))); // onto B
    assert!(!g.is_legal(mv('F', Dir::S))); // off the board, not an exit
    assert!(!g.is_legal(mv('E', Dir::S)));
    assert!(g.is_legal(mv('A', Dir::W)));
    assert!(g.is_legal(mv('H', Dir::E)));
    let mut h = g;
    assert!(h.try_play(mv('F', Dir::S)).is_err());
    assert_eq!(h, g);
    // Seat 1 to move: same rules in its own frame.
    h.play(mv('A', Dir::N));
    assert!(!h.is_legal(mv('A', Dir::E)));
    assert!(!h.is_legal(mv('G', Dir::S)));
    assert!(h.is_legal(mv('A', Dir::N)));
    assert!(h.is_legal(mv('A', Dir::W)));
}

/// Seat 0 with a blue (piece E) on `sq`, everything else at home.
fn blue_on(sq: Place, first: usize) -> Geister {
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[4] = sq;
    position(p0, "ABCD", seat1_home(), "ABCD", first)
}

#[test]
fn blue_escapes_from_either_exit_only_outward() {
    for (sq, out, inward) in [
        (at(0, 0), [Dir::N, Dir::W], [Dir::E, Dir::S]),
        (at(5, 0), [Dir::N, Dir::E], [Dir::W, Dir::S]),
    ] {
        for d in out {
            let mut g = blue_on(sq, 0);
            assert!(g.is_legal(mv('E', d)));
            let r = g.play(mv('E', d));
            assert!(r.escaped);
            assert_eq!(r.captured, None);
            assert_eq!(g.place(0, 4), Place::Escaped);
            assert_eq!(g.escaped(0), 1);
            assert_eq!(g.outcome(), Some(Outcome::Win(0)));
            assert!(g.legal_moves().is_empty());
            assert!(g.to_gat(0).contains("88b"));
            assert!(g.to_gat(1).contains("88b"));
        }
        for d in inward {
            let mut g = blue_on(sq, 0);
            let r = g.play(mv('E', d));
            assert!(!r.escaped);
            assert_eq!(g.outcome(), None);
        }
    }
    // Not an exit: the square next to the corner.
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[4] = at(1, 0);
    let mut p1 = seat1_home();
    p1[7] = Place::Captured; // seat 1's H sat on (1,0)
    let g = position(p0, "ABCD", p1, "ABCD", 0);
    assert!(!g.is_legal(mv('E', Dir::N)));
    assert!(g.is_legal(mv('E', Dir::W)));
    // Our own back corners are the opponent's exits, not ours.
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[4] = at(0, 5);
    let g = position(p0, "ABCD", seat1_home(), "ABCD", 0);
    assert!(!g.is_legal(mv('E', Dir::S)));
    assert!(!g.is_legal(mv('E', Dir::W)));
}

#[test]
fn red_cannot_escape() {
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[0] = at(0, 0); // A is red
    p0[3] = at(5, 0); // D is red
    let g = position(p0, "ABCD", seat1_home(), "ABCD", 0);
    for d in [Dir::N, Dir::W] {
        assert!(!g.is_legal(mv('A', d)));
        assert!(!g.view(0).is_legal(mv('A', d)));
    }
    for d in [Dir::N, Dir::E] {
        assert!(!g.is_legal(mv('D', d)));
    }
}

#[test]
fn seat_one_escapes_through_its_own_exits() {
    // Seat 1's exits are absolute (5,5) and (0,5); its N is absolute south.
    let mut p1 = seat1_home();
    p1[4] = at(5, 5); // E of seat 1, blue with setup ABCD
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[7] = Place::Captured; // free (4,5) for clarity
    let g = position(p0, "ABCD", p1, "ABCD", 1);
    assert_eq!(g.view(1).own(4), at(0, 0));
    for d in [Dir::N, Dir::W] {
        let mut h = g;
        assert!(h.play(mv('E', d)).escaped);
        assert_eq!(h.outcome(), Some(Outcome::Win(1)));
    }
    let mut h = g;
    h.play(mv('E', Dir::E)); // own frame east = absolute west
    assert_eq!(h.place(1, 4), at(4, 5));
    // South in seat 1's frame is absolute north: an ordinary move to (5,4).
    let mut h = g;
    h.play(mv('E', Dir::S));
    assert_eq!(h.place(1, 4), at(5, 4));
}

#[test]
fn capturing_all_four_blues_wins() {
    // Seat 1: reds ABCD, blues EFGH; F, G, H already captured, E on (2,2).
    let mut p1 = seat1_home();
    p1[5] = Place::Captured;
    p1[6] = Place::Captured;
    p1[7] = Place::Captured;
    p1[4] = at(2, 2);
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[1] = at(2, 3);
    let mut g = position(p0, "ABCD", p1, "ABCD", 0);
    assert_eq!(g.captured(1, Colour::Blue), 3);
    assert_eq!(g.outcome(), None);
    let r = g.play(mv('B', Dir::N));
    assert_eq!(r.captured, Some(Colour::Blue));
    assert_eq!(g.captured(1, Colour::Blue), 4);
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn capturing_the_last_red_loses() {
    // Seat 1: reds ABCD with B, C, D captured, A on (2,2).
    let mut p1 = seat1_home();
    p1[1] = Place::Captured;
    p1[2] = Place::Captured;
    p1[3] = Place::Captured;
    p1[0] = at(2, 2);
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[1] = at(2, 3);
    let mut g = position(p0, "ABCD", p1, "ABCD", 0);
    let r = g.play(mv('B', Dir::N));
    assert_eq!(r.captured, Some(Colour::Red));
    assert_eq!(g.captured(1, Colour::Red), 4);
    // Seat 0 captured seat 1's fourth red: seat 1 wins.
    assert_eq!(g.outcome(), Some(Outcome::Win(1)));
    assert_eq!(g.view(0).outcome(), Some(Outcome::Win(1)));
    assert_eq!(g.view(1).outcome(), Some(Outcome::Win(1)));

    // The same from seat 1's side: it captures seat 0's last red.
    let mut p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    p0[1] = Place::Captured;
    p0[2] = Place::Captured;
    p0[3] = Place::Captured;
    p0[0] = at(3, 3);
    let mut p1 = seat1_home();
    p1[4] = at(3, 2);
    let mut g = position(p0, "ABCD", p1, "ABCD", 1);
    let r = g.play(mv('E', Dir::N)); // seat 1 north = absolute south
    assert_eq!(r.captured, Some(Colour::Red));
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn draw_after_300_plies() {
    let mut g = Geister::new([setup("ABCD"), setup("EFGH")]);
    for ply in 0..MAX_PLIES {
        assert_eq!(g.outcome(), None, "ply {ply}");
        let d = if (ply / 2) % 2 == 0 { Dir::N } else { Dir::S };
        g.play(mv('A', d));
    }
    assert_eq!(g.ply(), MAX_PLIES);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert!(g.legal_moves().is_empty());
    assert!(g.try_play(mv('A', Dir::N)).is_err());
    assert_eq!(g.view(0).outcome(), Some(Outcome::Draw));
}

#[test]
fn captured_colours_appear_in_both_views() {
    let mut p1 = seat1_home();
    p1[4] = at(2, 3); // seat 1's E (blue) next to seat 0's B at (2,4)
    let p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    let g0 = position(p0, "ABCD", p1, "ABCD", 0);
    assert_eq!(g0.view(0).opp_colour(4), None);
    let mut g = g0;
    let r = g.play(mv('B', Dir::N));
    assert_eq!(r.captured, Some(Colour::Blue));
    let v0 = g.view(0);
    let v1 = g.view(1);
    assert_eq!(v0.opp_colour(4), Some(Colour::Blue));
    assert_eq!(v0.opp_captured(Colour::Blue), 1);
    assert_eq!(v1.own_captured(Colour::Blue), 1);
    assert_eq!(&v0.to_gat()[36..39], "99b");
    assert_eq!(&v1.to_gat()[12..15], "99b");
    // Remaining opponent pieces stay unknown while the game runs.
    assert!(v0.to_gat()[24..].matches('u').count() == 7);

    // The capturing view can apply the move itself, given the revealed colour.
    let mut v = g0.view(0);
    assert!(v.play(mv('B', Dir::N), None).is_err());
    let r = v.play(mv('B', Dir::N), Some(Colour::Blue)).unwrap();
    assert_eq!(r.captured, Some(Colour::Blue));
    assert_eq!(v, v0);
    // And not twice in a row.
    assert!(v.play(mv('A', Dir::N), None).is_err());
}

#[test]
fn end_board_reveals_remaining_colours() {
    let mut g = blue_on(at(0, 0), 0);
    g.play(mv('E', Dir::N));
    let s = g.to_gat(0);
    assert_eq!(&s[24..], "41r31r21r11r40b30b20b10b");
    let v = View::from_gat(&s).unwrap();
    assert_eq!(v.to_gat(), s);
    assert_eq!(v.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn board_strings_are_validated() {
    let v = View::from_gat(START_ABCD).unwrap();
    assert_eq!(v.to_gat(), START_ABCD);
    assert_eq!(v.legal_moves().len(), 8);
    let bad = [
        "",
        &START_ABCD[..45],
        // five reds of our own
        "14R24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u",
        // two pieces on one square
        "14R14R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
        // off-board coordinate
        "64R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
        // captured opponent of unknown colour
        "14R24R34R44R15B25B35B45B99u31u21u11u40u30u20u10u",
        // escaped red
        "88r24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
        // unknown colour for our own piece
        "14u24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
        // five opponent reds known
        "14R24R34R44R15B25B35B45B99r99r99r99r99r30u20u10u",
    ];
    for b in bad {
        assert!(View::from_gat(b).is_err(), "accepted {b:?}");
    }
}

#[test]
fn determinize_checks_known_colours() {
    let mut p1 = seat1_home();
    p1[4] = at(2, 3);
    let p0 = *Geister::new([setup("ABCD"), setup("ABCD")]).places(0);
    let mut g = position(p0, "ABCD", p1, "ABCD", 0);
    g.play(mv('B', Dir::N)); // captures seat 1's blue E
    let v = g.view(0);
    let truth = [true, true, true, true, false, false, false, false];
    assert_eq!(v.determinize(truth), Some(g));
    // E is known blue: calling it red is inconsistent.
    let wrong = [true, true, true, false, true, false, false, false];
    assert_eq!(v.determinize(wrong), None);
    // Three reds only.
    assert_eq!(
        v.determinize([true, true, true, false, false, false, false, false]),
        None
    );
    // Another consistent guess works and differs only in colours.
    let other = [false, true, true, true, false, true, false, false];
    let d = v.determinize(other).unwrap();
    assert_eq!(d.places(1), g.places(1));
    assert_eq!(d.setup(1).mask(), 0b0010_1110);
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..50 {
        let reds = v.sample_opponent_reds(&mut rng);
        assert!(!reds[4]);
        assert!(v.determinize(reds).is_some());
    }
}

/// Checks everything about one position of a random game.
fn check_position(g: &Geister) -> Result<(), TestCaseError> {
    let mut seen = 0u64;
    for s in 0..2 {
        for c in [Colour::Red, Colour::Blue] {
            let on = g.on_board(s, c);
            let cap = g.captured(s, c);
            let esc = (0..8u8)
                .filter(|&i| g.place(s, i) == Place::Escaped && g.colour(s, i) == c)
                .count() as u32;
            prop_assert_eq!(on + cap + esc, 4);
            if c == Colour::Red {
                prop_assert_eq!(esc, 0);
            }
        }
        for p in g.places(s) {
            if let Place::At(sq) = p {
                prop_assert!(seen & (1 << sq.0) == 0, "two pieces on a square");
                seen |= 1 << sq.0;
            }
        }
    }
    let truth = g.legal_moves();
    for s in 0..2 {
        let v = g.view(s);
        let gat = v.to_gat();
        prop_assert_eq!(gat.len(), 48);
        let mut back = View::from_gat(&gat).map_err(TestCaseError::fail)?;
        back.set_context(s, g.ply(), v.my_turn());
        prop_assert_eq!(back, v);
        prop_assert_eq!(v.outcome(), g.outcome());
        prop_assert_eq!(v.my_turn(), g.to_move() == s);
        // Opponent colours: known exactly when the piece left the board (or the game ended).
        for i in 0..PIECES as u8 {
            let known = v.opp_colour(i).is_some();
            prop_assert_eq!(known, g.outcome().is_some() || !v.opp(i).on_board());
            if let Some(c) = v.opp_colour(i) {
                prop_assert_eq!(c, g.colour(1 - s, i));
            }
        }
        let vm = v.legal_moves();
        if v.my_turn() {
            prop_assert_eq!(&vm, &truth);
            for m in &truth {
                prop_assert!(v.is_legal(*m));
            }
        } else {
            prop_assert!(vm.is_empty());
        }
        let reds: [bool; 8] = std::array::from_fn(|i| g.setup(1 - s).is_red(i as u8));
        prop_assert_eq!(v.determinize(reds), Some(*g));
    }
    Ok(())
}

fn random_game(
    s0: usize,
    s1: usize,
    first: usize,
    choices: &[u32],
    probe: usize,
) -> Result<(), TestCaseError> {
    let setups: Vec<Setup> = Setup::all().collect();
    let mut g = Geister::with_first([setups[s0], setups[s1]], first);
    let mut shadow: Option<Geister> = None;
    for (k, &c) in choices.iter().enumerate() {
        check_position(&g)?;
        if let Some(d) = &shadow {
            prop_assert_eq!(d.legal_moves(), g.legal_moves());
            prop_assert_eq!(d.outcome(), g.outcome());
        }
        if g.outcome().is_some() {
            break;
        }
        let moves = g.legal_moves();
        prop_assert!(!moves.is_empty());
        let m = moves[c as usize % moves.len()];
        let s = g.to_move();
        if k == probe {
            let v = g.view(s);
            let reds: [bool; 8] = std::array::from_fn(|i| g.setup(1 - s).is_red(i as u8));
            shadow = v.determinize(reds);
            prop_assert!(shadow.is_some());
        }
        let before = g;
        let mut v = g.view(s);
        let r = g.play(m);
        if let Some(d) = &mut shadow {
            prop_assert_eq!(d.play(m), r);
        }
        // The mover's view applies its own move the same way.
        let rv = v.play(m, r.captured).map_err(TestCaseError::fail)?;
        prop_assert_eq!(rv, r);
        if g.outcome().is_none() {
            prop_assert_eq!(v, g.view(s));
        }
        // The report matches what changed.
        let o = 1 - s;
        let lost: Vec<u8> = (0..8u8)
            .filter(|&i| before.place(o, i).on_board() && g.place(o, i) == Place::Captured)
            .collect();
        match r.captured {
            Some(col) => {
                prop_assert_eq!(lost.len(), 1);
                prop_assert_eq!(g.colour(o, lost[0]), col);
            }
            None => prop_assert!(lost.is_empty()),
        }
        prop_assert_eq!(r.escaped, g.place(s, m.piece) == Place::Escaped);
    }
    check_position(&g)?;
    prop_assert!(g.outcome().is_some() || g.ply() < MAX_PLIES);
    if g.ply() == MAX_PLIES && g.outcome() == Some(Outcome::Draw) {
        prop_assert!(g.legal_moves().is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random setups, random legal moves, to the end of the game.
    #[test]
    fn random_games_keep_invariants(
        s0 in 0usize..70,
        s1 in 0usize..70,
        first in 0usize..2,
        choices in prop::collection::vec(any::<u32>(), MAX_PLIES as usize + 1),
        probe in 0usize..120,
    ) {
        random_game(s0, s1, first, &choices, probe)?;
    }
}

/// Random play reaches every kind of ending, so the property test above
/// covers them all.
#[test]
fn random_play_reaches_every_kind_of_ending() {
    use rand::Rng;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut kinds = [0u32; 4]; // escape, all blues taken, last red taken, draw
    for _ in 0..2000 {
        let setups = [Setup::random(&mut rng), Setup::random(&mut rng)];
        let mut g = Geister::with_first(setups, rng.gen_range(0..2));
        let mut last = Default::default();
        while g.outcome().is_none() {
            let m = g.legal_moves();
            last = g.play(m[rng.gen_range(0..m.len())]);
        }
        let mover = 1 - g.to_move();
        let k = match (last.escaped, last.captured, g.outcome()) {
            (true, _, Some(Outcome::Win(w))) if w == mover => 0,
            (_, Some(Colour::Blue), Some(Outcome::Win(w))) if w == mover => 1,
            (_, Some(Colour::Red), Some(Outcome::Win(w))) if w != mover => 2,
            (_, _, Some(Outcome::Draw)) => 3,
            other => panic!("unexpected ending {other:?}"),
        };
        kinds[k] += 1;
    }
    assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
}
