// Score Four in a `ladderbot report` page: the four layers of the 4x4x4
// board side by side, bottom layer (z = 0) first, each drawn as `render`
// prints it (y = 3 on top). cells[x + 4y + 16z] is '.', 'X' (seat 0) or
// 'O' (seat 1); the last stone placed is ringed, a finished line marked.
(function () {
  var C = 26, GAP = 18, TOP = 16;
  var LINES = null;
  // Every line of four cells (76 of them), as lists of cell indexes.
  function lines() {
    if (LINES) return LINES;
    LINES = [];
    var dirs = [];
    for (var dx = -1; dx <= 1; dx++) for (var dy = -1; dy <= 1; dy++) for (var dz = -1; dz <= 1; dz++) {
      if (dx || dy || dz) dirs.push([dx, dy, dz]);
    }
    var seen = {};
    for (var z = 0; z < 4; z++) for (var y = 0; y < 4; y++) for (var x = 0; x < 4; x++) {
      dirs.forEach(function (d) {
        var cells = [];
        for (var k = 0; k < 4; k++) {
          var a = x + k * d[0], b = y + k * d[1], c = z + k * d[2];
          if (a < 0 || a > 3 || b < 0 || b > 3 || c < 0 || c > 3) return;
          cells.push(a + 4 * b + 16 * c);
        }
        var key = cells.slice().sort(function (p, q) { return p - q; }).join(",");
        if (!seen[key]) { seen[key] = true; LINES.push(cells); }
      });
    }
    return LINES;
  }
  LB.moveText["four3d"] = function (mv) { return mv + " (x" + (mv % 4) + " y" + Math.floor(mv / 4) + ")"; };
  LB.views["four3d"] = function (state, el, ctx) {
    var cells = state.cells || "";
    var prev = ctx && ctx.prev ? ctx.prev.cells : null;
    var won = {};
    lines().forEach(function (l) {
      var c = cells[l[0]];
      if (c !== "." && l.every(function (i) { return cells[i] === c; })) l.forEach(function (i) { won[i] = true; });
    });
    var W = 4 * (4 * C) + 3 * GAP + 4, H = TOP + 4 * C + 4;
    var b = [];
    for (var z = 0; z < 4; z++) {
      var ox = 2 + z * (4 * C + GAP);
      b.push(LB.tag("text", { x: ox + 2 * C, y: 11, "text-anchor": "middle" }, z === 0 ? "z 0 (bottom)" : z === 3 ? "z 3 (top)" : "z " + z));
      b.push(LB.tag("rect", { x: ox, y: TOP, width: 4 * C, height: 4 * C, rx: 4, fill: "#e9ecef", stroke: "#ced4da" }));
      for (var y = 3; y >= 0; y--) {
        for (var x = 0; x < 4; x++) {
          var i = x + 4 * y + 16 * z;
          var cx = ox + x * C + C / 2, cy = TOP + (3 - y) * C + C / 2;
          var c = cells[i];
          if (c === "X" || c === "O") {
            var seat = c === "X" ? 0 : 1;
            b.push(LB.tag("circle", { cx: cx, cy: cy, r: C / 2 - 3, fill: LB.seatColour(seat), stroke: won[i] ? "#fcc419" : "none", "stroke-width": 3 },
              LB.tag("title", {}, (c + " at x" + x + " y" + y + " z" + z))));
            if (prev && prev[i] !== c) {
              b.push(LB.tag("circle", { cx: cx, cy: cy, r: C / 2 - 0.5, fill: "none", stroke: "#212529", "stroke-width": 1.5 }));
            }
          } else {
            b.push(LB.tag("circle", { cx: cx, cy: cy, r: 3, fill: "#adb5bd" }, LB.tag("title", {}, "peg " + (x + 4 * y) + ", z" + z)));
          }
        }
      }
    }
    var caption;
    if (ctx && ctx.end) {
      caption = "final position";
    } else {
      var m = state.to_move === 1 ? 1 : 0;
      caption = "to move: " + LB.tag("span", { class: "seat" + m }, LB.esc(LB.seatName(ctx, m)) + (m ? " (O)" : " (X)"));
    }
    el.innerHTML = LB.svg(W, H, b.join(""), "four3d-board") +
      '<div class="lb-caption">ply ' + LB.esc(state.ply) + " \u00b7 " + caption +
      ' \u00b7 <span class="seat0">X ' + LB.esc(LB.seatName(ctx, 0)) + '</span> \u00b7 <span class="seat1">O ' + LB.esc(LB.seatName(ctx, 1)) + "</span></div>";
  };
})();
