//! What a new user trips over (issue 29), each through the real binary:
//! stray `LADDERBOT_*` variables, a profile named by the environment but
//! not mounted, colour codes in logs that are not a terminal, exit codes of
//! a misconfigured `serve`, profiles found away from the repository, and
//! default opponents that make real games.

mod common;

use std::time::Duration;

use common::*;
use ladderbot::records::read_records;

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn a_stray_ladderbot_variable_is_a_warning_not_an_error() {
    let o = run(
        &["agents"],
        &[("LADDERBOT_FOO", "1"), ("LADDERBOT_SEARCH__PLAYOUT", "5")],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("four3d: "));
    let err = stderr(&o);
    assert!(
        err.contains("LADDERBOT_FOO is not a ladderbot setting: ignored"),
        "{err}"
    );
    assert!(
        err.contains("did you mean LADDERBOT_SEARCH__PLAYOUTS?"),
        "{err}"
    );
    // A documented key still works, and a bad value of one still stops.
    let o = run(
        &["agents"],
        &[("LADDERBOT_SEARCH__PLAYOUTS", "lots")],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("search.playouts"), "{}", stderr(&o));
}

#[test]
fn a_profile_named_by_the_environment_but_missing_stops_only_play() {
    let dir = tempfile::tempdir().unwrap();
    let env = [("LADDERBOT_PROFILE", "/no/such/profile.toml")];
    // serve needs no bot: it warns and serves.
    let mut c = bin();
    c.args(["serve", "--bind", "127.0.0.1:0", "--records", ""])
        .envs(env)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    let url = listening_url(&mut child);
    assert!(url.starts_with("ws://127.0.0.1:"));
    signal(&child, "-TERM");
    let o = wait_with_limit(child, LIMIT);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("LADDERBOT_PROFILE: profile '/no/such/profile.toml' not found"),
        "{}",
        stderr(&o)
    );
    // A bot told to play a profile it cannot find does not play another.
    let o = run(&["play", "four3d"], &env, Some(dir.path()), LIMIT);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // --profile on the command line is never guessed away either.
    let o = run(
        &["serve", "--profile", "/no/such.toml"],
        &[],
        Some(dir.path()),
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn logs_to_a_file_or_a_pipe_have_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    // `play` logs only warnings by default: ask for its INFO lines.
    let o = run(
        &["play", "four3d", "--games", "1", "--playouts", "50"],
        &[("LADDERBOT_LOG__FILTER", "info")],
        Some(dir.path()),
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("INFO"), "{err}");
    assert!(
        !err.contains('\u{1b}'),
        "escape codes in a piped log: {err:?}"
    );
}

#[test]
fn a_misconfigured_server_exits_2_at_start() {
    for (args, says) in [
        (vec!["--bind", "127.0.0.1:99999"], "server.bind"),
        (
            vec!["--game-option", "floodit.size=1x1"],
            "server.game_options.floodit",
        ),
        (vec!["--house-agent", "nope"], "server.house_agent"),
    ] {
        let mut all = vec!["serve"];
        all.extend(&args);
        let o = run(&all, &[], None, LIMIT);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // A port another program holds: worth retrying later (75).
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let o = run(&["serve", "--bind", &addr], &[], None, LIMIT);
    assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot listen on"), "{}", stderr(&o));
}

/// Spawns a just-copied executable: while another test thread forks, the
/// copy's write handle may still be open in that child for an instant
/// (ETXTBSY), so a busy file is tried again.
fn spawn_copy(c: &mut std::process::Command) -> std::process::Child {
    for _ in 0..50 {
        match c.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(Duration::from_millis(50))
            }
            other => return other.unwrap(),
        }
    }
    panic!("the copied binary stayed busy");
}

#[test]
fn a_copy_of_the_binary_elsewhere_finds_the_shipped_profiles() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("ladderbot");
    std::fs::copy(env!("CARGO_BIN_EXE_ladderbot"), &copy).unwrap();
    let rec = dir.path().join("r.jsonl");
    let mut c = std::process::Command::new(&copy);
    c.args([
        "play",
        "--profile",
        "four3d-pmc",
        "--games",
        "1",
        "--records",
        rec.to_str().unwrap(),
    ])
    .current_dir(dir.path())
    .env_remove("LADDERBOT_PROFILE")
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    let o = wait_with_limit(spawn_copy(&mut c), LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("(pmc) vs house bot"), "{}", stdout(&o));
    assert_eq!(read_records(&rec).unwrap().len(), 1);
    // A file of the same name beside the binary wins over the built-in one.
    std::fs::create_dir(dir.path().join("bots")).unwrap();
    std::fs::write(
        dir.path().join("bots/four3d-pmc.toml"),
        "game = \"four3d\"\nagent = \"random\"\n",
    )
    .unwrap();
    let mut c = std::process::Command::new(&copy);
    c.args(["play", "--profile", "four3d-pmc", "--games", "1"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let o = wait_with_limit(spawn_copy(&mut c), LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("(random) vs house bot"),
        "{}",
        stdout(&o)
    );
}

/// `play GAME` with every default: the house bot must not be the mirror of
/// our agent. Goofspiel's `match` and Puyo's `combined` are deterministic,
/// and both Puyo sides get the same pairs: against themselves every game
/// was a draw (Puyo's after 2,000 moves).
#[test]
fn the_default_opponent_makes_a_real_game() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["goofspiel", "puyo"] {
        let rec = dir.path().join(format!("{game}.jsonl"));
        let o = run(
            &[
                "play",
                game,
                "--games",
                "2",
                "--records",
                rec.to_str().unwrap(),
            ],
            &[],
            Some(dir.path()),
            LIMIT,
        );
        assert_eq!(o.status.code(), Some(0), "{game}: {}", stderr(&o));
        let recs = read_records(&rec).unwrap();
        assert_eq!(recs.len(), 2);
        assert!(
            recs.iter().any(|r| r.winner.is_some()),
            "{game}: every game drawn: {:?}",
            recs.iter()
                .map(|r| (&r.result, r.moves.len()))
                .collect::<Vec<_>>()
        );
        assert!(
            !stdout(&o).contains("vs house bot (combined)")
                && !stdout(&o).contains("(match) vs house bot (match)"),
            "{}",
            stdout(&o)
        );
    }
}

/// `--sprt -10,10` (a negative bound) is a value, not an unknown flag.
#[test]
fn a_negative_sprt_bound_reads_as_a_value() {
    let o = run(
        &[
            "match", "four3d", "--a", "random", "--b", "random", "--games", "2", "--sprt", "-10,10",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SPRT elo0=-10 elo1=10"),
        "{}",
        stdout(&o)
    );
}

/// `play` shows its results on stdout and, by default, nothing of its
/// internals on stderr (no INFO lines); `LADDERBOT_LOG__FILTER` or
/// `RUST_LOG` bring them back.
#[test]
fn play_shows_results_not_internals_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &["play", "four3d", "--games", "1", "--playouts", "50"],
        &[],
        Some(dir.path()),
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("summary: games 1, "), "{}", stdout(&o));
    assert_eq!(stderr(&o), "", "nothing went wrong, so nothing on stderr");
    let o = run(
        &["play", "four3d", "--games", "1", "--playouts", "50"],
        &[("RUST_LOG", "info")],
        Some(dir.path()),
        LIMIT,
    );
    assert!(stderr(&o).contains("INFO"), "{}", stderr(&o));
}
