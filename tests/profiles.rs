//! Every shipped bot profile loads, validates and builds its agent; the
//! Geister profiles are GAT clients of 127.0.0.1:10000.

use std::collections::HashMap;

use ladderbot::config;
use ladderbot::games::GameKind;

#[test]
fn every_profile_in_bots_loads_and_builds_its_agent() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bots");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let s = config::load(Some(&path), Some(HashMap::new()))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = s
            .game
            .unwrap_or_else(|| panic!("{}: no game", path.display()));
        let name = game
            .check_agent(&s.agent, &s.agent_params)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(name, s.agent, "{}", path.display());
        // `agents` shows a line of measured strength for every one.
        assert!(
            !s.strength.trim().is_empty(),
            "{}: no `strength` line",
            path.display()
        );
        seen.push((path.file_stem().unwrap().to_string_lossy().into_owned(), s));
    }
    assert!(
        seen.len() >= 9,
        "only {} profiles found in {}",
        seen.len(),
        dir.display()
    );
    // The Geister profiles: one per agent of ours (and `geister-gat`), each
    // a GAT client.
    let mut geister: Vec<&str> = seen
        .iter()
        .filter(|(_, s)| s.game == Some(GameKind::Geister))
        .map(|(name, s)| {
            // One per agent, and `best` again on the real GAT clock.
            let expected = if name == "geister-gat" {
                "geister-best".to_string()
            } else {
                name.clone()
            };
            assert_eq!(expected, format!("geister-{}", s.agent), "{name}");
            assert_eq!(
                s.client.server.as_deref(),
                Some("127.0.0.1:10000"),
                "{name}"
            );
            assert!(!s.client.stdio, "{name}");
            s.agent.as_str()
        })
        .collect();
    // Flood-It: one profile per shipped agent, each a match-server client.
    for agent in ladderbot::games::floodit::agents::NAMES {
        let (_, s) = seen
            .iter()
            .find(|(name, _)| name == &format!("floodit-{agent}"))
            .unwrap_or_else(|| panic!("no floodit-{agent} profile"));
        assert_eq!(s.game, Some(GameKind::FloodIt));
        assert_eq!(&s.agent, agent);
        assert!(!s.client.stdio);
    }
    // Puyo: one profile per shipped agent, each a match-server client.
    for agent in ladderbot::games::puyo::agents::NAMES {
        let (_, s) = seen
            .iter()
            .find(|(name, _)| name == &format!("puyo-{agent}"))
            .unwrap_or_else(|| panic!("no puyo-{agent} profile"));
        assert_eq!(s.game, Some(GameKind::Puyo));
        assert_eq!(&s.agent, agent);
        assert!(!s.client.stdio);
    }
    geister.sort_unstable();
    for agent in ["charge", "random", "rule"] {
        assert!(
            geister.contains(&agent),
            "no geister-{agent} profile: {geister:?}"
        );
    }
}

#[test]
fn a_profile_sets_the_servers_floodit_board() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(
        &path,
        "[server.game_options.floodit]\nsize = \"10x12\"\ncolours = 4\n",
    )
    .unwrap();
    let s = config::load(Some(&path), Some(HashMap::new())).unwrap();
    let o = &s.server.game_options["floodit"];
    assert_eq!(o["size"], "10x12");
    assert_eq!(o["colours"], 4);
    GameKind::FloodIt.check_options(o).unwrap();
    let mut bad = o.clone();
    bad.insert("colours".into(), 12.into());
    assert!(GameKind::FloodIt.check_options(&bad).is_err());
}
