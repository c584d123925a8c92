// Puyo Puyo duels in a `ladderbot report` page: both 6 x 13 fields side by
// side (`boards[s]`: 13 row strings, the top row first; 'R', 'G', 'B', 'Y'
// puyos, '@' ojama, '.' empty), the puyos new since the last turn ringed,
// the losing cell (third column, twelfth row) crossed, and each seat's
// score, attack sent, longest chain and ojama waiting.
(function () {
  var C = 22, GAP = 44, TOP = 18;
  var COLOURS = { R: "#e03131", G: "#37b24d", B: "#1c7ed6", Y: "#fcc419", "@": "#adb5bd" };
  LB.moveText["puyo"] = function (mv) { return "col " + mv.col + " rot " + mv.rot; };
  LB.views["puyo"] = function (state, el, ctx) {
    var boards = state.boards || [[], []];
    var prev = ctx && ctx.prev ? ctx.prev.boards : null;
    var W = 2 * 6 * C + GAP + 2, H = TOP + 13 * C + 2;
    var b = [];
    [0, 1].forEach(function (seat) {
      var ox = 1 + seat * (6 * C + GAP), rows = boards[seat] || [];
      b.push(LB.tag("text", { x: ox + 3 * C, y: 12, "text-anchor": "middle", fill: LB.seatColour(seat), style: "fill:" + LB.seatColour(seat) },
        LB.esc(LB.seatName(ctx, seat).slice(0, 22))));
      b.push(LB.tag("rect", { x: ox, y: TOP, width: 6 * C, height: 13 * C, fill: "#f8f9fa", stroke: "#868e96" }));
      // The cell that loses when filled: column 2, twelfth row from the bottom.
      var dx = ox + 2 * C, dy = TOP + 1 * C;
      b.push(LB.tag("path", { d: "M" + (dx + 5) + " " + (dy + 5) + "l" + (C - 10) + " " + (C - 10) + "M" + (dx + C - 5) + " " + (dy + 5) + "l" + (10 - C) + " " + (C - 10),
        stroke: "#e03131", "stroke-width": 1.5, opacity: 0.6 }));
      for (var r = 0; r < rows.length; r++) {
        for (var c = 0; c < 6; c++) {
          var k = rows[r][c];
          if (!COLOURS[k]) continue;
          var cx = ox + c * C + C / 2, cy = TOP + r * C + C / 2;
          var fresh = prev && prev[seat] && prev[seat][r] && prev[seat][r][c] !== k;
          b.push(LB.tag("circle", { cx: cx, cy: cy, r: C / 2 - 1.5, fill: COLOURS[k], stroke: fresh ? "#212529" : "rgba(0,0,0,0.25)", "stroke-width": fresh ? 2 : 1 },
            LB.tag("title", {}, (k === "@" ? "ojama" : k) + " at column " + c + ", row " + (12 - r) + (fresh ? " (new)" : ""))));
        }
      }
    });
    var st = state.stats || [{}, {}], pending = state.pending || [0, 0];
    var rowsHtml = [0, 1].map(function (s) {
      return "<tr><td>" + LB.tag("span", { class: "seat" + s }, LB.esc(LB.seatName(ctx, s))) + "</td><td>" + LB.esc(st[s].score) +
        "</td><td>" + LB.esc(st[s].attack) + "</td><td>" + LB.esc(st[s].max_chain) + "</td><td>" + LB.esc(pending[s]) + "</td></tr>";
    }).join("");
    // A spectator's state has the pairs the seats see (the current first).
    var coming = (state.pairs || []).map(function (pr) {
      return LB.svg(2 * C, C, [0, 1].map(function (k) {
        var key = "RGBY".charAt(pr[k]) || pr[k];
        return LB.tag("circle", { cx: C / 2 + k * C, cy: C / 2, r: C / 2 - 2, fill: COLOURS[key] || "#fff", stroke: "rgba(0,0,0,0.3)" });
      }).join(""), "puyo-pair");
    }).join(" ");
    el.innerHTML = LB.svg(W, H, b.join(""), "puyo-fields") +
      (coming ? '<div class="lb-caption">pairs coming (axis, child): ' + coming + "</div>" : "") +
      '<div class="lb-caption">turn ' + LB.esc(state.turn) + " \u00b7 new puyos ringed \u00b7 the crossed cell loses when filled</div>" +
      '<table class="lb-stats"><thead><tr><th></th><th>score</th><th>attack sent</th><th>longest chain</th><th>ojama waiting</th></tr></thead><tbody>' +
      rowsHtml + "</tbody></table>";
  };
})();
