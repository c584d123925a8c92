//! The pages `ladderbot serve` shows spectators (see
//! `platforms::ws::server::http`): the list of games and one game live,
//! drawn by the replay page's viewer (`page.js`) and the game's own unit
//! (`games/<game>/view.js`). Like the report, they load nothing from the
//! network; unlike it, they ask the server that sent them for positions.

use serde_json::json;

use super::{esc, fill, script_json, view_js, PAGE_CSS, PAGE_JS};

const LIVE_HTML: &str = include_str!("live.html");
const LIVE_JS: &str = include_str!("live.js");
const LIST_HTML: &str = include_str!("list.html");

/// The page that lists a server's games (it asks `/api/games`).
pub fn list_page() -> String {
    fill(LIST_HTML, &[("CSS", PAGE_CSS)])
}

/// The live page of game `id`, a game of kind `game`; `limit_ms` is drawn
/// on its time plot.
pub fn game_page(id: &str, game: &str, limit_ms: Option<u64>) -> String {
    let views = view_js(game)
        .map(|js| {
            format!(
                "<script data-view=\"{}\">\n{}\n</script>\n",
                esc(game),
                js.replace("</script", "<\\/script")
            )
        })
        .unwrap_or_default();
    let data = json!({"id": id, "game": game, "limit_ms": limit_ms});
    fill(
        LIVE_HTML,
        &[
            ("TITLE", &esc(&format!("{game} {id}: live"))),
            ("CSS", PAGE_CSS),
            ("DATA", &script_json(&data)),
            ("PAGE_JS", PAGE_JS),
            ("VIEWS", &views),
            ("LIVE_JS", LIVE_JS),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_page_carries_the_viewer_and_the_game_view_and_no_address() {
        let p = game_page("abc-1", "geister", Some(100));
        assert!(p.contains("LB.views[\"geister\"]") && p.contains("LB.Viewer"));
        assert!(p.contains("\"id\":\"abc-1\"") && p.contains("\"limit_ms\":100"));
        assert!(!p.contains("{{") && !p.contains("http://") && !p.contains("https://"));
        let hostile = game_page("</script><b>", "four3d", None);
        assert!(!hostile.contains("</script><b>"));
        let l = list_page();
        assert!(l.contains("/api/games") && !l.contains("{{"));
    }
}
