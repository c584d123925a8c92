//! Unit tests of the GAT client: endings and the opponent's moves read off
//! the boards, the end board's colours, and the moves' budgets.

use super::board::{end_view, start_places};
use super::budget::MoveBudget;
use super::*;
use crate::games::geister::{Dir, Place as PiecePlace, Setup, PIECES};
use crate::platforms::gat::codec::{parse_server_line, GatBoard, Outcome, ServerMsg};
use std::time::Instant;

/// End boards as the real server sends them (every colour shown; own
/// pieces A..H first, upper case on the board).
#[test]
fn the_ending_is_read_off_the_end_board() {
    let b = |s: &str| GatBoard::parse(s).unwrap();
    // Our A escaped (88); the rest where they started.
    let escape = b("88b24R34R44R15B25B35B45B41r31r21r11r40b30b20b10b");
    assert_eq!(ending_of(Outcome::Won, &escape), Some("escape"));
    // Their four blues captured (99).
    let blues = b("14B24R34R44R15B25B35B45B41r31r21r11r99b99b99b99b");
    assert_eq!(ending_of(Outcome::Won, &blues), Some("blues_captured"));
    // We took their four reds: they win.
    let reds = b("14B24R34R44R15B25B35B45B99r99r99r99r40b30b20b10b");
    assert_eq!(ending_of(Outcome::Lost, &reds), Some("reds_captured"));
    // Our four blues lost: they win by blues.
    let ours = b("99b24R34R44R99b99b99b45R41r31r21r11r40b30b20b10b");
    assert_eq!(ending_of(Outcome::Lost, &ours), Some("blues_captured"));
    // They escaped.
    let theirs = b("14B24R34R44R15B25B35B45B41r31r21r11r88b30b20b10b");
    assert_eq!(ending_of(Outcome::Lost, &theirs), Some("escape"));
    assert_eq!(ending_of(Outcome::Draw, &escape), Some("draw"));
    // Nothing on the board explains the verdict: a timeout or the like.
    let start = b("14B24R34R44R15B25B35B45B41r31r21r11r40b30b20b10b");
    assert_eq!(ending_of(Outcome::Won, &start), None);
}

#[test]
fn the_opponents_moves_are_read_off_the_boards_in_its_own_frame() {
    use crate::games::geister::Geister;
    // Random games, watched from each seat: the move read off the
    // opponent's pieces before and after is the move it played (an
    // escape: the piece, leaving north, which is what it played or an
    // equivalent exit move).
    let mut escapes = 0;
    for seed in 0..60u64 {
        let setups = [
            Setup::from_letters("ABCD").unwrap(),
            Setup::from_letters("BDEG").unwrap(),
        ];
        let mut g = Geister::new(setups);
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut first = true;
        while g.outcome().is_none() {
            let mover = g.to_move();
            let watcher = 1 - mover;
            let before = if first && watcher == 1 {
                // Seat 1 sees seat 0's pieces on their start squares.
                start_places()
            } else {
                *g.view(watcher).opp_places()
            };
            assert_eq!(before, *g.view(watcher).opp_places());
            let legal = g.legal_moves();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Prefer escapes, to see some.
            let mv = legal
                .iter()
                .copied()
                .find(|&m| {
                    let mut t = g;
                    t.play(m).escaped
                })
                .unwrap_or(legal[(state % legal.len() as u64) as usize]);
            let escaped = g.play(mv).escaped;
            let after = *g.view(watcher).opp_places();
            let read = opponent_move(&before, &after).expect("a move");
            if escaped {
                escapes += 1;
                assert_eq!((read.piece, read.dir), (mv.piece, Dir::N));
            } else {
                assert_eq!(read, mv);
            }
            first = false;
        }
    }
    assert!(escapes > 0);
    // Nothing moved (a piece captured only leaves the board): none.
    let mut after = start_places();
    assert_eq!(opponent_move(&start_places(), &after), None);
    after[3] = PiecePlace::Captured;
    assert_eq!(opponent_move(&start_places(), &after), None);
}

fn cfg(time_ms: Option<u64>, playouts: Option<u64>) -> GatClientConfig {
    GatClientConfig {
        addr: "127.0.0.1:10000".into(),
        agent: "random".into(),
        params: AgentParams::new(),
        time_ms,
        playouts,
        margin_ms: 20,
        plan: None,
        min_answer: Duration::ZERO,
        games: 1,
        seed: 1,
        connect_timeout: Duration::from_secs(1),
        reconnect_window: Duration::from_secs(1),
        stop: None,
        stop_grace: Duration::from_secs(10),
        first_game: 1,
        own_server: false,
        ponder: false,
    }
}

#[test]
fn the_end_board_shows_the_opponents_colours() {
    // Recorded from the real server (protocol/gat-geister/transcripts,
    // game 1, the second port's last line).
    let line = "LST:14R99b99b44R99b25R99b45R53b21r99b02b32b40r20r10r";
    let ServerMsg::End(Outcome::Lost, board) = parse_server_line(line).unwrap() else {
        panic!("an end line")
    };
    let v = end_view(&board, 1, 20).unwrap();
    assert_eq!(v.seat(), 1);
    for p in 0..PIECES as u8 {
        assert!(v.opp_colour(p).is_some(), "piece {p}");
    }
    assert_eq!(v.opp_colour(1), Some(crate::games::geister::Colour::Red));
}

#[test]
fn move_budgets_follow_time_and_playouts_under_the_servers_timeout() {
    let ms = |b: MoveBudget| b.time.as_millis() as u64;
    assert_eq!(ms(MoveBudget::of(&cfg(None, None))), DEFAULT_TIME_MS);
    assert_eq!(ms(MoveBudget::of(&cfg(Some(50), None))), 50);
    assert_eq!(ms(MoveBudget::of(&cfg(Some(60_000), None))), MAX_TIME_MS);
    // A playout budget alone keeps the server's timeout as its safety cap.
    let b = MoveBudget::of(&cfg(None, Some(300)));
    assert_eq!((ms(b), b.playouts), (MAX_TIME_MS, Some(300)));
    let start = Instant::now();
    let l = MoveBudget::of(&cfg(Some(100), Some(5))).limits(start, Duration::ZERO, 0, 0);
    assert_eq!(l.playouts, Some(5));
    assert_eq!(l.deadline.unwrap().hard - start, Duration::from_millis(80));
    // With a plan over the game's clock, each move's deadline is the
    // plan's time for it (the margin already taken off), whatever
    // time_ms says.
    let plan = GatPlan::with_bank(GatPlan::GAT_BANK);
    let b = MoveBudget::of(&GatClientConfig {
        plan: Some(plan),
        ..cfg(Some(100), None)
    });
    let left = Duration::from_secs(120);
    let l = b.limits(start, left, 30, 61);
    let want = plan.move_time(left, 30, 61, Duration::from_millis(20));
    assert_eq!(l.deadline.unwrap().hard - start, want);
    assert_eq!(want, Duration::from_millis(4_980));
    assert_eq!(b.most(), GatPlan::CAP);
}
