//! Every shipped bot profile loads, validates and builds its agent.

use std::collections::HashMap;

use ladderbot::config;
use ladderbot::games::{GameVisitor, PlayableGame};

struct Build<'a>(&'a config::Settings);
impl GameVisitor for Build<'_> {
    type Output = Result<String, String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        G::build_agent(&self.0.agent, &self.0.agent_params, 1).map(|a| a.name().to_string())
    }
}

#[test]
fn every_profile_in_bots_loads_and_builds_its_agent() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bots");
    let mut seen = 0;
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
            .visit(Build(&s))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(name, s.agent, "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 6, "only {seen} profiles found in {}", dir.display());
}
