//! Unit tests of the settings: defaults, profiles and the environment,
//! errors that name their key, the checks of each section, and the shipped
//! profiles.

use super::*;
use crate::games::GameKind;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn env(pairs: &[(&str, &str)]) -> Option<HashMap<String, String>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

fn profile(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn defaults_load_with_no_profile_and_no_env() {
    assert_eq!(load(None, env(&[])).unwrap(), Settings::default());
}

#[test]
fn profile_then_env_with_nested_keys() {
    let (_d, p) = profile(
        "game = \"four3d\"\nagent = \"random\"\n[search]\nplayouts = 500\n[agent_params]\n",
    );
    let s = load(Some(&p), env(&[])).unwrap();
    assert_eq!((s.agent.as_str(), s.search.playouts), ("random", Some(500)));
    let s = load(
        Some(&p),
        env(&[
            ("LADDERBOT_AGENT", "pmc"),
            ("LADDERBOT_SEARCH__PLAYOUTS", "700"),
            ("LADDERBOT_AGENT_PARAMS__DRAW_REWARD", "0.5"),
            ("LADDERBOT_CLIENT__SERVER", "ws://127.0.0.1:9"),
        ]),
    )
    .unwrap();
    assert_eq!(s.agent, "pmc");
    assert_eq!(s.search.playouts, Some(700));
    assert_eq!(s.client.server.as_deref(), Some("ws://127.0.0.1:9"));
    assert_eq!(s.agent_params["draw_reward"].as_f64(), Some(0.5));
}

#[test]
fn bad_values_name_their_key() {
    let err = load(None, env(&[("LADDERBOT_SEARCH__PLAYOUTS", "lots")]))
        .unwrap_err()
        .0;
    assert!(err.contains("search.playouts"), "{err}");
    let (_d, p) = profile("game = \"four3d\"\nagent = \"nope\"\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(
        err.contains("agent") && err.contains("nope") && err.contains("bot.toml"),
        "{err}"
    );
    let (_d, p) = profile("[search]\nplayots = 5\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("playots"), "{err}");
    let (_d, p) = profile("game = \"chess\"\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("game") && err.contains("chess"), "{err}");
    let err = load(None, env(&[("LADDERBOT_CLIENT__OPPONENT", "everyone")]))
        .unwrap_err()
        .0;
    assert!(
        err.contains("client.opponent") && err.contains("everyone"),
        "{err}"
    );
    let err = load(None, env(&[("LADDERBOT_LOG__FORMAT", "xml")]))
        .unwrap_err()
        .0;
    assert!(err.contains("log.format"), "{err}");
    let (_d, p) = profile("[search\nplayouts = 3\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(!err.contains('\n') && err.contains("bot.toml"), "{err}");
    let err = load(None, env(&[("LADDERBOT_CLIENT__SERVER", "http://x")]))
        .unwrap_err()
        .0;
    assert!(err.contains("client.server"), "{err}");
    let (_d, p) = profile("game = \"four3d\"\n[agent_params]\ndraw_reward = 3.0\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("agent_params.draw_reward"), "{err}");
}

#[test]
fn fault_and_limit_keys_are_read_and_checked() {
    let s = load(
        None,
        env(&[
            ("LADDERBOT_CLIENT__HEARTBEAT_TIMEOUT_MS", "1500"),
            ("LADDERBOT_SERVER__MAX_CONNECTIONS", "10"),
            ("LADDERBOT_SERVER__MAX_CONNECTIONS_PER_IP", "2"),
            ("LADDERBOT_SERVER__RATE_LIMIT_PER_S", "5"),
            ("LADDERBOT_SERVER__RATE_LIMIT_BURST", "7"),
            ("LADDERBOT_SERVER__HELLO_TIMEOUT_MS", "900"),
            ("LADDERBOT_SERVER__RESUME_WINDOW_MS", "0"),
            ("LADDERBOT_SERVER__SHUTDOWN_GRACE_MS", "3000"),
        ]),
    )
    .unwrap();
    assert_eq!(s.client.heartbeat_timeout_ms, 1500);
    let v = &s.server;
    assert_eq!(
        (
            v.max_connections,
            v.max_connections_per_ip,
            v.rate_limit_per_s,
            v.rate_limit_burst,
            v.hello_timeout_ms,
            v.resume_window_ms,
            v.shutdown_grace_ms
        ),
        (10, 2, 5, 7, 900, 0, 3000)
    );
    for (key, value, named) in [
        (
            "LADDERBOT_CLIENT__HEARTBEAT_TIMEOUT_MS",
            "0",
            "client.heartbeat_timeout_ms",
        ),
        (
            "LADDERBOT_SERVER__MAX_CONNECTIONS",
            "0",
            "server.max_connections",
        ),
        (
            "LADDERBOT_SERVER__MAX_CONNECTIONS_PER_IP",
            "300",
            "server.max_connections_per_ip",
        ),
        (
            "LADDERBOT_SERVER__RATE_LIMIT_BURST",
            "0",
            "server.rate_limit_per_s / rate_limit_burst",
        ),
        (
            "LADDERBOT_SERVER__HELLO_TIMEOUT_MS",
            "0",
            "server.hello_timeout_ms",
        ),
        (
            "LADDERBOT_SERVER__RESUME_WINDOW_MS",
            "999999999999",
            "server.resume_window_ms",
        ),
        (
            "LADDERBOT_SERVER__SHUTDOWN_GRACE_MS",
            "999999999999",
            "server.shutdown_grace_ms",
        ),
    ] {
        let err = load(None, env(&[(key, value)])).unwrap_err().0;
        assert!(err.contains(named), "{key}={value}: {err}");
    }
}

#[test]
fn the_bank_time_policy_is_for_stdio_golad_gat_and_match_server_clients() {
    let (_d, p) =
        profile("game = \"golad\"\n[search]\ntime_policy = \"bank\"\n[client]\nstdio = true\n");
    let s = load(Some(&p), env(&[])).unwrap();
    assert_eq!(s.search.time_policy, TimePolicy::Bank);
    let (_d, p) = profile(
        "game = \"four3d\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 8000\nincrement_ms = 50\n",
    );
    let s = load(Some(&p), env(&[])).unwrap();
    assert_eq!((s.search.bank_ms, s.search.increment_ms), (Some(8000), 50));
    // A GAT server's clock: a bank for the game (the plan's), no increment.
    let (_d, p) = profile("game = \"geister\"\n[search]\ntime_policy = \"bank\"\n");
    let s = load(Some(&p), env(&[])).unwrap();
    assert_eq!(
        (s.search.time_policy, s.search.bank_ms),
        (TimePolicy::Bank, None)
    );
    let (_d, p) = profile(
        "game = \"geister\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 60000\nincrement_ms = 100\n",
    );
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("search.increment_ms"), "{err}");
    // A bank without the policy that spends it, or on stdio.
    let (_d, p) = profile("game = \"four3d\"\n[search]\nbank_ms = 8000\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("time_policy"), "{err}");
    let (_d, p) = profile(
        "game = \"golad\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 8000\n[client]\nstdio = true\n",
    );
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("search.bank_ms"), "{err}");
    let err = load(None, env(&[("LADDERBOT_SEARCH__TIME_POLICY", "soon")]))
        .unwrap_err()
        .0;
    assert!(err.contains("time_policy"), "{err}");
}

#[test]
fn geister_profiles_take_a_gat_server_and_geister_agents() {
    let (_d, p) =
        profile("game = \"geister\"\nagent = \"rule\"\n[client]\nserver = \"127.0.0.1:10000\"\n");
    let s = load(Some(&p), env(&[])).unwrap();
    assert_eq!(s.game, Some(GameKind::Geister));
    assert_eq!(s.client.server.as_deref(), Some("127.0.0.1:10000"));
    assert_eq!(s.client.reconnect_window_ms, 30_000);
    // Geister also plays on the match server (a ws:// URL); anything
    // else must be a GAT server's HOST:PORT, and the agent a Geister one.
    let s = load(
        Some(&p),
        env(&[("LADDERBOT_CLIENT__SERVER", "ws://127.0.0.1:8765")]),
    )
    .unwrap();
    assert_eq!(s.client.server.as_deref(), Some("ws://127.0.0.1:8765"));
    let err = load(
        Some(&p),
        env(&[("LADDERBOT_CLIENT__SERVER", "http://127.0.0.1:8765")]),
    )
    .unwrap_err()
    .0;
    assert!(
        err.contains("client.server") && err.contains("HOST:PORT"),
        "{err}"
    );
    let err = load(Some(&p), env(&[("LADDERBOT_AGENT", "pmc")]))
        .unwrap_err()
        .0;
    assert!(err.contains("agent") && err.contains("pmc"), "{err}");
    for bad in ["127.0.0.1", ":10000", "host:port", "host:0"] {
        let err = load(Some(&p), env(&[("LADDERBOT_CLIENT__SERVER", bad)]))
            .unwrap_err()
            .0;
        assert!(err.contains("client.server"), "{bad}: {err}");
    }
    // And a Score Four profile still wants a WebSocket URL.
    let (_d, p) = profile("game = \"four3d\"\n[client]\nserver = \"127.0.0.1:10000\"\n");
    let err = load(Some(&p), env(&[])).unwrap_err().0;
    assert!(err.contains("ws://"), "{err}");
    // Without a game, either form passes.
    for ok in ["127.0.0.1:10000", "ws://127.0.0.1:8765"] {
        assert!(load(None, env(&[("LADDERBOT_CLIENT__SERVER", ok)])).is_ok());
    }
    let err = load(None, env(&[("LADDERBOT_CLIENT__RECONNECT_WINDOW_MS", "0")]))
        .unwrap_err()
        .0;
    assert!(err.contains("client.reconnect_window_ms"), "{err}");
}

#[test]
fn load_from_text_matches_load_from_a_file() {
    let text = "game = \"four3d\"\nagent = \"random\"\n[search]\nplayouts = 500\n";
    let (_d, p) = profile(text);
    let vars = env(&[("LADDERBOT_SEARCH__PLAYOUTS", "700")]).unwrap();
    let from_file = load(Some(&p), Some(vars.clone())).unwrap();
    assert_eq!(load_from(Some(text), vars).unwrap(), from_file);
    assert_eq!(
        load_from(None, HashMap::new()).unwrap(),
        Settings::default()
    );
    let err = load_from(Some("[search]\nplayots = 5\n"), HashMap::new())
        .unwrap_err()
        .0;
    assert!(err.contains("playots"), "{err}");
}

#[test]
fn missing_profile_is_a_clear_error() {
    let err = resolve_profile("no-such-profile-xyz").unwrap_err().0;
    assert!(err.contains("no-such-profile-xyz"));
    assert!(err.contains("shipped profiles: floodit-alphabeta"), "{err}");
}

#[test]
fn every_file_in_bots_is_shipped_and_nothing_else() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    files.sort();
    let shipped: Vec<String> = SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        shipped, files,
        "src/config/shipped.rs must list bots/*.toml"
    );
    for (name, text) in SHIPPED {
        let on_disk = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
        assert_eq!(*text, on_disk);
    }
}

#[test]
fn a_shipped_profile_is_found_by_name_and_a_path_is_not_guessed() {
    // The working directory of a test is the crate's root, where
    // bots/ exists: the file wins there.
    assert!(matches!(
        resolve_profile("four3d-pmc").unwrap(),
        Profile::File(_) | Profile::Shipped { .. }
    ));
    let s = load_profile(
        Some(&Profile::Shipped {
            name: "four3d-pmc",
            text: shipped::find("four3d-pmc").unwrap().1,
        }),
        Some(HashMap::new()),
    )
    .unwrap();
    assert_eq!(s.agent, "pmc");
    assert!(resolve_profile("/nope/four3d-pmc.toml").is_err());
    assert!(resolve_profile("nope/four3d-pmc").is_err());
}

#[test]
fn server_openings_from_a_profile_and_the_environment() {
    use crate::runner::openings::OpeningOrder;
    let (_d, p) =
        profile("[server]\nopening_order = \"random\"\n[server.openings]\nfour3d = \"s.txt\"\n");
    let s = load(Some(&p), env(&[])).unwrap();
    assert_eq!(s.server.openings["four3d"], "s.txt");
    assert_eq!(s.server.opening_order, OpeningOrder::Random);
    let s = load(
        None,
        env(&[("LADDERBOT_SERVER__OPENINGS__FOUR3D", "openings/four3d.txt")]),
    )
    .unwrap();
    assert_eq!(s.server.openings["four3d"], "openings/four3d.txt");
    assert_eq!(s.server.opening_order, OpeningOrder::Sequential);
    let err = load(None, env(&[("LADDERBOT_SERVER__OPENINGS__CHESS", "x.txt")]))
        .unwrap_err()
        .0;
    assert!(err.contains("server.openings.chess: unknown game"), "{err}");
    let err = load(
        None,
        env(&[("LADDERBOT_SERVER__OPENING_ORDER", "shuffled")]),
    )
    .unwrap_err()
    .0;
    assert!(err.contains("unknown opening order 'shuffled'"), "{err}");
}
