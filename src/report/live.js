// ladderbot serve: one game, live. Asks the server for the positions it
// does not have yet (/api/game/ID?have=K answers at once when there is
// something new, else within 15 s), and draws them with the replay page's
// viewer (page.js) and the game's own unit (view.js). While the game runs
// the positions are public ones (nothing a seat may not see); once it is
// over the server sends the true states, which replace them.
(function () {
  var conf = JSON.parse(document.getElementById("data").textContent);
  var section = document.getElementById("game-1");
  var status = document.getElementById("status");
  var heading = document.getElementById("heading");
  LB.data = { games: [], limit_ms: conf.limit_ms };
  var g = null;

  function setStatus(state, text) {
    status.setAttribute("data-state", state);
    status.textContent = text;
  }

  function merge(d) {
    if (!g) {
      g = {
        index: 0, game: d.game, id: d.id, players: d.players, winner: null, result: "*",
        reason: "", ending: null, detail: null, opening: 0, states: [], turns: [],
        over: false, error: null, live: true,
      };
      heading.innerHTML = LB.tag("span", { class: "kind" }, LB.esc(d.game)) + " " +
        LB.tag("span", { class: "seat0" }, LB.esc(d.players[0])) + " vs " +
        LB.tag("span", { class: "seat1" }, LB.esc(d.players[1])) + " " +
        LB.tag("span", { class: "plies" }, "game " + d.number + " of " + d.of);
    }
    if (d.over) {
      g.states = d.states;
      g.turns = d.turns;
      g.live = false;
      g.winner = d.end.winner;
      g.result = d.end.result;
      g.reason = d.end.reason;
      g.ending = d.end.ending;
      g.detail = d.end.detail;
      g.over = d.end.reason === "rules";
      return true;
    }
    if (!d.states.length && !d.turns.length) return false;
    g.states = g.states.slice(0, d.from).concat(d.states);
    g.turns = g.turns.slice(0, d.turns_from).concat(d.turns);
    return true;
  }

  function show() {
    var v = LB.viewer;
    // Follow the game while on its last position; else stay put.
    var follow = !v || v.i === v.last, at = v ? v.i : 0;
    if (v) v.root.innerHTML = "";
    LB.viewer = new LB.Viewer(g, section);
    LB.viewer.go(follow ? LB.viewer.last : at);
    var turns = g.turns.length;
    if (g.live) {
      setStatus("live", "live: " + turns + " turn" + (turns === 1 ? "" : "s") + " played");
    } else {
      var who = g.winner === null || g.winner === undefined
        ? (g.result === "*" ? "aborted" : "draw") : g.players[g.winner] + " wins";
      setStatus("over", "game over after " + turns + " turns: " + g.result + ", " + who + " (" + g.reason + ")");
    }
  }

  function poll() {
    var have = g ? g.states.length : 0;
    fetch("/api/game/" + encodeURIComponent(conf.id) + "?have=" + have, { cache: "no-store" })
      .then(function (r) {
        if (r.status === 404) throw new Error("gone");
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(function (d) {
        if (merge(d)) show();
        if (!d.over) poll();
      })
      .catch(function (e) {
        if (String(e.message) === "gone") {
          setStatus("gone", "this game is no longer kept by the server");
          return;
        }
        setStatus("retrying", "lost the server (" + e.message + "); trying again");
        setTimeout(poll, 1000);
      });
  }

  LB.keys();
  poll();
})();
