// ladderbot report: the generic replay (controls, move list, time plot).
// It knows no game: each game's unit (games/<game>/view.js) registers
// LB.views["<game id>"] = function (state, el, ctx) { ... }, drawing the
// true state JSON (replayed in Rust) into el. Plain ES2017, no libraries.
"use strict";
var LB = (function () {
  var LB = {
    views: {},
    // Optional per game: LB.moveText["<game id>"] = function (move, seat) -> text.
    moveText: {},
    data: null,
    viewer: null,
  };

  // ---- helpers for the game views ----
  LB.esc = function (s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  };
  // An element as markup: LB.tag("rect", {x: 1, y: 2}, "") -> '<rect x="1" y="2"></rect>'.
  LB.tag = function (name, attrs, content) {
    var s = "<" + name;
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v !== null && v !== undefined && v !== false) s += " " + k + '="' + LB.esc(v) + '"';
    });
    return s + ">" + (content || "") + "</" + name + ">";
  };
  // An inline SVG (the HTML parser gives it the SVG namespace).
  LB.svg = function (w, h, body, cls) {
    return LB.tag("svg", {
      width: w, height: h, viewBox: "0 0 " + w + " " + h, class: cls || "lb-svg", role: "img",
      "font-size": 12, "font-family": "system-ui, sans-serif",
    }, body);
  };
  LB.seatColour = function (seat) { return seat === 0 ? "#d9480f" : "#1864ab"; };
  LB.seatName = function (ctx, seat) {
    return ctx && ctx.players ? ctx.players[seat] : "seat " + seat;
  };
  // The fallback view: the state's JSON as text.
  LB.fallback = function (state, el) {
    el.innerHTML = LB.tag("pre", { class: "state" }, LB.esc(JSON.stringify(state, null, 1)));
  };

  function moveText(game, mv, seat) {
    var f = LB.moveText[game];
    if (f) {
      try { return String(f(mv, seat)); } catch (e) { /* the plain form below */ }
    }
    if (typeof mv === "string") return mv;
    if (mv && typeof mv === "object" && !Array.isArray(mv)) {
      return Object.keys(mv).map(function (k) { return k + " " + JSON.stringify(mv[k]); }).join(", ");
    }
    return JSON.stringify(mv);
  }

  function fmtMs(ms) { return ms === null || ms === undefined ? "" : ms + " ms"; }

  // ---- the time plot of one game: each seat's time per turn ----
  var PW = 420, PH = 130, PL = 40, PB = 18;
  function timePlot(g) {
    var turns = g.turns, limit = LB.data.limit_ms;
    var n = turns.length;
    if (!n) return "";
    var top = limit || 0;
    turns.forEach(function (t) { t.ms.forEach(function (m) { if (m > top) top = m; }); });
    top = Math.max(1, top) * 1.1;
    var x = function (k) { return PL + (PW - PL - 6) * k / Math.max(1, n); };
    var y = function (ms) { return 6 + (PH - PB - 6) * (1 - ms / top); };
    var b = [];
    b.push(LB.tag("line", { x1: PL, y1: PH - PB, x2: PW, y2: PH - PB, class: "axis" }));
    b.push(LB.tag("line", { x1: PL, y1: 6, x2: PL, y2: PH - PB, class: "axis" }));
    b.push(LB.tag("text", { x: PL - 4, y: y(top / 1.1) + 4, "text-anchor": "end" }, String(Math.round(top / 1.1))));
    b.push(LB.tag("text", { x: PL - 4, y: PH - PB, "text-anchor": "end" }, "0"));
    b.push(LB.tag("text", { x: PW, y: PH - 4, "text-anchor": "end" }, "turn (" + n + "), ms per move"));
    if (limit) {
      b.push(LB.tag("line", { x1: PL, y1: y(limit), x2: PW, y2: y(limit), class: "limit" }));
      b.push(LB.tag("text", { x: PW, y: y(limit) - 3, "text-anchor": "end", class: "limit-label" }, "limit " + limit + " ms"));
    }
    [0, 1].forEach(function (seat) {
      var pts = [];
      turns.forEach(function (t, k) {
        if (t.first < g.opening) return;
        var j = t.movers.indexOf(seat);
        if (j >= 0 && t.ms[j] !== null && t.ms[j] !== undefined) pts.push([x(k + 1), y(t.ms[j]), t.ms[j], k + 1]);
      });
      var c = LB.seatColour(seat);
      b.push(LB.tag("polyline", {
        points: pts.map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" "),
        fill: "none", stroke: c, "stroke-width": 1.5,
      }));
      pts.forEach(function (p) {
        b.push(LB.tag("circle", { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 2, fill: c },
          LB.tag("title", {}, LB.esc(g.players[seat]) + ", turn " + p[3] + ": " + p[2] + " ms")));
      });
    });
    b.push(LB.tag("line", { x1: x(0), y1: 4, x2: x(0), y2: PH - PB, class: "now" }));
    return LB.svg(PW, PH, b.join(""), "time-plot game-time");
  }

  // ---- the value curve of an analysed game (`ladderbot analyze`) ----
  // Each seat's value after its moves (0 lost .. 1 won, as the reference
  // saw it), by turn; the decisive move circled, with what was played and
  // what the reference preferred. Moves are named by their ply (their index
  // in the record's moves, from 0), as in `analyze`'s lines and JSON.
  function valuePlot(g) {
    var a = g.analysis;
    if (!a || !a.values || !a.values.length) return "";
    var n = Math.max(1, g.turns.length);
    // The turn of each move index.
    var turnOf = {};
    g.turns.forEach(function (t, k) { t.movers.forEach(function (_, j) { turnOf[t.first + j] = k + 1; }); });
    var x = function (k) { return PL + (PW - PL - 6) * k / n; };
    var y = function (v) { return 6 + (PH - PB - 6) * (1 - v); };
    var b = [];
    b.push(LB.tag("line", { x1: PL, y1: PH - PB, x2: PW, y2: PH - PB, class: "axis" }));
    b.push(LB.tag("line", { x1: PL, y1: 6, x2: PL, y2: PH - PB, class: "axis" }));
    b.push(LB.tag("line", { x1: PL, y1: y(0.5), x2: PW, y2: y(0.5), class: "limit" }));
    b.push(LB.tag("text", { x: PL - 4, y: y(1) + 4, "text-anchor": "end" }, "won"));
    b.push(LB.tag("text", { x: PL - 4, y: y(0.5) + 4, "text-anchor": "end" }, "draw"));
    b.push(LB.tag("text", { x: PL - 4, y: y(0), "text-anchor": "end" }, "lost"));
    b.push(LB.tag("text", { x: PW, y: PH - 4, "text-anchor": "end" }, "value after each move (" + LB.esc(a.information === "own_seat" ? "each seat's own information" : "full information") + ")"));
    [0, 1].forEach(function (seat) {
      var pts = [];
      a.values.forEach(function (v) {
        if (v.seat !== seat || v.after === undefined || v.after === null) return;
        var k = turnOf[v.ply];
        if (k) pts.push([x(k), y(v.after), v, k]);
      });
      var c = LB.seatColour(seat);
      b.push(LB.tag("polyline", {
        points: pts.map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" "),
        fill: "none", stroke: c, "stroke-width": 1.5, class: "values seat" + seat,
      }));
      pts.forEach(function (p) {
        var v = p[2];
        b.push(LB.tag("circle", { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: v.exact ? 2.5 : 1.8, fill: c },
          LB.tag("title", {}, LB.esc(g.players[seat]) + ", ply " + v.ply + ": " +
            (v.before !== undefined ? v.before.toFixed(2) + " -> " : "") + v.after.toFixed(2) + (v.exact ? " (exact)" : ""))));
      });
    });
    var d = a.decisive;
    if (d && turnOf[d.ply]) {
      var k = turnOf[d.ply];
      b.push(LB.tag("circle", { cx: x(k).toFixed(1), cy: y(d.after).toFixed(1), r: 6, class: "decisive", fill: "none", stroke: "#c92a2a", "stroke-width": 2 },
        LB.tag("title", {}, "decisive move")));
    }
    b.push(LB.tag("line", { x1: x(0), y1: 4, x2: x(0), y2: PH - PB, class: "now" }));
    var note = "";
    if (d) {
      note = '<p class="decisive-note">Decisive move at ply ' + d.ply + ", " +
        LB.tag("span", { class: "seat" + d.seat }, LB.esc(g.players[d.seat])) + " played " +
        LB.esc(moveText(g.game, d.played, d.seat)) + "; the reference preferred " +
        (d.preferred !== undefined && d.preferred !== null ? LB.esc(moveText(g.game, d.preferred, d.seat)) : "nothing") +
        " (" + d.before.toFixed(2) + " \u2192 " + d.after.toFixed(2) + ", " +
        (d.kind === "lost" ? "exact: from not lost to lost" : "the largest drop") + ", " + LB.esc(d.phase) + ").</p>";
    }
    return LB.svg(PW, PH, b.join(""), "time-plot game-values") + note +
      '<p class="reference">Reference: ' + LB.esc(a.reference) + "</p>";
  }

  // ---- the viewer of one game ----
  function Viewer(g, section) {
    this.g = g;
    this.section = section;
    this.root = section.querySelector(".replay");
    this.last = Math.max(0, g.states.length - 1);
    this.i = 0;
    var self = this;
    // Each button's icon is a small SVG: the media-control characters
    // (U+23EE, U+23ED) are missing from many fonts and showed as empty boxes.
    var btn = function (act, path, title) {
      var icon = LB.tag("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true" },
        LB.tag("path", { d: path, fill: "currentColor" }));
      return LB.tag("button", { type: "button", "data-act": act, title: title, "aria-label": title }, icon);
    };
    this.root.innerHTML =
      '<div class="viewer"><div class="board"></div><div class="side">' +
      '<div class="controls">' +
      btn("first", "M1 1h2v10H1zM11 1v10L4 6z", "First (Home)") +
      btn("prev", "M9.5 1v10L2.5 6z", "Previous (\u2190)") +
      btn("next", "M2.5 1v10l7-5z", "Next (\u2192)") +
      btn("last", "M9 1h2v10H9zM1 1v10l7-5z", "Last (End)") +
      LB.tag("input", { type: "range", min: 0, max: this.last, value: 0, step: 1, "aria-label": "position" }) +
      '<span class="pos"></span></div>' +
      '<div class="info"></div><ol class="moves"></ol>' +
      '<div class="timeplot">' + timePlot(g) + "</div>" +
      '<div class="valueplot">' + valuePlot(g) + "</div></div></div>";
    this.board = this.root.querySelector(".board");
    this.slider = this.root.querySelector("input[type=range]");
    this.pos = this.root.querySelector(".pos");
    this.info = this.root.querySelector(".info");
    this.moves = this.root.querySelector("ol.moves");
    this.now = this.root.querySelector(".game-time .now");
    this.nowValue = this.root.querySelector(".game-values .now");
    this.moves.innerHTML = g.turns.map(function (t, k) {
      var parts = t.movers.map(function (s, j) {
        return LB.tag("span", { class: "seat" + s }, LB.esc(moveText(g.game, t.moves[j], s)));
      });
      var ms = t.ms.map(fmtMs).filter(function (m) { return m; }).join(" | ");
      return LB.tag("li", { "data-i": k + 1, class: t.first < g.opening ? "opening" : null },
        parts.join(" | ") + (ms ? LB.tag("span", { class: "ms" }, ms) : ""));
    }).join("");
    this.root.querySelectorAll(".controls button").forEach(function (b) {
      b.addEventListener("click", function () {
        var a = b.getAttribute("data-act");
        if (a === "first") self.go(0);
        else if (a === "prev") self.go(self.i - 1);
        else if (a === "next") self.go(self.i + 1);
        else self.go(self.last);
      });
    });
    this.slider.addEventListener("input", function () { self.go(parseInt(self.slider.value, 10)); });
    this.moves.addEventListener("click", function (e) {
      var li = e.target.closest ? e.target.closest("li") : null;
      if (li) self.go(parseInt(li.getAttribute("data-i"), 10));
    });
  }

  Viewer.prototype.go = function (i) {
    var g = this.g;
    i = Math.max(0, Math.min(this.last, i | 0));
    this.i = i;
    this.slider.value = String(i);
    this.pos.textContent = "turn " + i + " / " + this.last;
    var ctx = {
      game: g,
      index: i,
      players: g.players,
      prev: i > 0 ? g.states[i - 1] : null,
      turn: i > 0 ? g.turns[i - 1] : null,
      // The record's last position: the game ended there (by the rules
      // or a forfeit), so nothing is hidden any more. A live game (`g.live`,
      // the server's spectator page) has not ended.
      end: i === this.last && !g.error && !g.live,
      over: i === this.last && g.over,
    };
    var state = g.states[i];
    if (state === undefined) {
      this.board.innerHTML = '<p class="error">No position to show.</p>';
    } else {
      var view = LB.views[g.game] || LB.fallback;
      try {
        view(state, this.board, ctx);
      } catch (e) {
        LB.fallback(state, this.board, ctx);
        this.board.insertAdjacentHTML("afterbegin", LB.tag("p", { class: "error" }, "view error: " + LB.esc(e)));
      }
    }
    var info;
    if (i === 0) {
      info = "Start position" + (g.opening ? " (the first " + g.opening + " moves are the opening's)" : "");
    } else {
      var t = ctx.turn;
      info = "Turn " + i + ": " + t.movers.map(function (s, j) {
        return LB.tag("span", { class: "seat" + s }, LB.esc(g.players[s])) + " played " +
          LB.esc(moveText(g.game, t.moves[j], s)) + (t.ms[j] !== null && t.ms[j] !== undefined ? " in " + t.ms[j] + " ms" : "");
      }).join("; ");
    }
    if (i === this.last && !g.live) {
      var who = g.winner === null || g.winner === undefined ? (g.result === "*" ? "aborted" : "draw")
        : LB.esc(g.players[g.winner]) + " wins";
      info += "<br><b>" + LB.esc(g.result) + "</b>: " + who + " (" + LB.esc(g.reason) +
        (g.ending && g.ending !== g.reason ? ", " + LB.esc(g.ending) : "") + ")" +
        (g.detail ? " \u2014 " + LB.esc(g.detail) : "");
      if (g.error) info += '<br><span class="error">Replay stopped: ' + LB.esc(g.error) + "</span>";
    }
    this.info.innerHTML = info;
    var cur = this.moves.querySelector("li.current");
    if (cur) cur.classList.remove("current");
    if (i > 0) {
      var li = this.moves.children[i - 1];
      if (li) {
        li.classList.add("current");
        var top = li.offsetTop - this.moves.offsetTop;
        if (top < this.moves.scrollTop || top > this.moves.scrollTop + this.moves.clientHeight - li.offsetHeight) {
          this.moves.scrollTop = top - this.moves.clientHeight / 2;
        }
      }
    }
    var n = Math.max(1, g.turns.length);
    var x = (PL + (PW - PL - 6) * i / n).toFixed(1);
    [this.now, this.nowValue].forEach(function (line) {
      if (line) {
        line.setAttribute("x1", x);
        line.setAttribute("x2", x);
      }
    });
  };

  function open(k, scroll) {
    var g = LB.data.games[k];
    var section = document.getElementById("game-" + (k + 1));
    if (!g || !section) return;
    if (LB.viewer) {
      LB.viewer.section.classList.remove("open");
      LB.viewer.root.innerHTML = "";
    }
    section.classList.add("open");
    LB.viewer = new Viewer(g, section);
    LB.viewer.go(0);
    if (scroll && section.scrollIntoView) section.scrollIntoView();
  }
  LB.open = open;
  LB.Viewer = Viewer;

  // The arrow keys, Home and End step the open game.
  LB.keys = function () {
    document.addEventListener("keydown", function (e) {
      var v = LB.viewer;
      if (!v || e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      var to = { ArrowLeft: v.i - 1, ArrowRight: v.i + 1, Home: 0, End: v.last }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      v.go(to);
    });
  };

  function route(scroll) {
    var m = /^#game-(\d+)$/.exec(window.location.hash);
    if (m) open(parseInt(m[1], 10) - 1, scroll);
    else if (!LB.viewer && LB.data.games.length) open(0, false);
  }

  LB.start = function () {
    LB.data = JSON.parse(document.getElementById("data").textContent);
    window.addEventListener("hashchange", function () { route(true); });
    // A game's link when the address already names it: open it again.
    document.querySelectorAll("section.game h3 a").forEach(function (a) {
      a.addEventListener("click", function () {
        if (window.location.hash === a.getAttribute("href")) {
          open(parseInt(a.getAttribute("href").slice(6), 10) - 1, false);
        }
      });
    });
    LB.keys();
    route(true);
  };

  return LB;
})();
