//! Plays a console Score Four program on `ladderbot serve`: a WebSocket
//! client whose moves come from an external program, started afresh for
//! every game (one command for the first seat, one for the second).
//!
//! The program's console is the one of quasimaster/yonmoku's engines (see
//! docs/four3d-results.md for how to build them): it reads the other
//! side's drop as `x y` (1-based, peg = x-1 + 4(y-1)) and reports every
//! drop, its own and the ones it read, as a line containing
//! `[turn N] Place to (x, y)` (N = 1-based ply). Any other line is ignored.
//! The program is killed when its game ends.
//!
//! ```sh
//! cargo run --release --example four3d_console_bridge -- \
//!   --server ws://127.0.0.1:8765 --games 100 --name yonmoku \
//!   --first /path/yonmoku_first --second /path/yonmoku_second
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use clap::Parser;
use ladderbot::games::four3d::{Board, Peg};
use ladderbot::platforms::command::split_command;
use ladderbot::platforms::ws::client::{describe_game, run_client_with, ClientConfig, Opponent};
use ladderbot::search::{Agent, Decision, Game, Limits};

#[derive(Debug, Parser)]
struct Args {
    /// The match server.
    #[arg(long, default_value = "ws://127.0.0.1:8765")]
    server: String,
    /// Our name on the server.
    #[arg(long, default_value = "console")]
    name: String,
    /// Games to play.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// The program (command line) that plays the first seat.
    #[arg(long)]
    first: String,
    /// The program that plays the second seat.
    #[arg(long)]
    second: String,
    /// Most seconds to wait for one answer of the program.
    #[arg(long, default_value_t = 120)]
    answer_timeout_s: u64,
}

/// The running program of one game.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    /// The position the program has seen (after its last drop).
    known: Board,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An agent whose moves come from a console program.
struct Console {
    commands: [Vec<String>; 2],
    timeout: Duration,
    running: Option<Running>,
}

/// `(ply, peg)` from a line containing `[turn N] Place to (x, y)`.
fn parse_place(line: &str) -> Option<(u32, Peg)> {
    let t = line.find("[turn ")? + 6;
    let n: u32 = line[t..].split(']').next()?.trim().parse().ok()?;
    let p = line.find("Place to (")? + 10;
    let mut it = line[p..].split(')').next()?.split(',');
    let x: u8 = it.next()?.trim().parse().ok()?;
    let y: u8 = it.next()?.trim().parse().ok()?;
    ((1..=4).contains(&x) && (1..=4).contains(&y)).then(|| (n - 1, Peg::new(x - 1, y - 1)))
}

impl Console {
    fn start(&self, seat: usize) -> Result<Running, String> {
        let cmd = &self.commands[seat];
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd[0]))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Running {
            child,
            stdin,
            lines,
            known: Board::new(),
        })
    }

    fn answer(&mut self, pos: &Board) -> Result<Peg, String> {
        if self.running.is_none() {
            self.running = Some(self.start(pos.to_move())?);
        }
        let timeout = self.timeout;
        let run = self.running.as_mut().expect("started");
        // Tell the program the opponent's drops since it last moved.
        let opp = 1 - pos.to_move();
        let mut b = run.known;
        let mut new = pos.stones(opp) & !b.stones(opp);
        while new != 0 {
            let peg = Peg((new.trailing_zeros() & 15) as u8);
            new &= new - 1;
            writeln!(run.stdin, "{} {}", peg.x() + 1, peg.y() + 1)
                .and_then(|_| run.stdin.flush())
                .map_err(|e| format!("cannot write to the program: {e}"))?;
            b.play(peg);
        }
        if b != *pos {
            return Err(format!("lost track of the game at ply {}", pos.ply()));
        }
        loop {
            let line = run
                .lines
                .recv_timeout(timeout)
                .map_err(|e| format!("no answer from the program: {e}"))?;
            if let Some((ply, peg)) = parse_place(&line) {
                if ply == pos.ply() {
                    if !pos.is_legal(peg) {
                        return Err(format!("the program played an illegal {peg:?}"));
                    }
                    run.known = *pos;
                    run.known.play(peg);
                    return Ok(peg);
                }
            }
        }
    }
}

impl Agent<Board> for Console {
    fn name(&self) -> &str {
        "console"
    }
    fn new_game(&mut self) {
        self.running = None;
    }
    fn select(&mut self, pos: &Board, _: &Limits, _: &AtomicBool) -> Decision<Peg> {
        match self.answer(pos) {
            Ok(mv) => Decision {
                mv,
                playouts: 0,
                value: None,
            },
            // The client then sends no move: the server scores a timeout.
            Err(e) => panic!("{e}"),
        }
    }
    fn game_over(&mut self, _: &Board) {
        self.running = None;
    }
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    ladderbot::logging::init(ladderbot::config::LogFormat::Human, "info");
    let commands = [split_command(&args.first)?, split_command(&args.second)?];
    if commands.iter().any(|c| c.is_empty()) {
        return Err("--first and --second need a command".into());
    }
    let agent = Console {
        commands,
        timeout: Duration::from_secs(args.answer_timeout_s),
        running: None,
    };
    let config = ClientConfig {
        url: args.server,
        name: args.name,
        games: args.games,
        opponent: Opponent::Any,
        ..ClientConfig::default()
    };
    let rt = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let summary = rt
        .block_on(run_client_with::<Board>(config, Box::new(agent), |g| {
            println!("{}", describe_game(g))
        }))
        .map_err(|e| e.to_string())?;
    println!(
        "summary: {} games, {} wins, {} draws, {} losses, score {:.3}",
        summary.games,
        summary.wins,
        summary.draws,
        summary.losses,
        summary.score()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_lines_parse_and_others_do_not() {
        assert_eq!(
            parse_place("[turn 3] Place to (4, 1) \x1b[31m(Black)\x1b[m by 0.25 sec"),
            Some((2, Peg(3)))
        );
        assert_eq!(
            parse_place("[turn 2] Place to (1, 2) (White) by 0 sec"),
            Some((1, Peg(4)))
        );
        assert_eq!(parse_place("Input x y: place O to (x, y)"), None);
        assert_eq!(parse_place("[turn 2] Place to (5, 2)"), None);
    }
}
