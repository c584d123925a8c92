// Game of Life and Death in a `ladderbot report` page: the 18 x 16 field
// (`field`: 288 comma-separated cells row by row, '.', '0' seat 0's living
// cell, '1' seat 1's), each side's living cells in its colour, the cells the
// last move named ringed (born: its target and the two sacrificed cells).
(function () {
  var W = 18, H = 16, C = 16, TOP = 2;
  LB.views["golad"] = function (state, el, ctx) {
    var cells = String(state.field || "").split(",");
    var prev = ctx && ctx.prev ? String(ctx.prev.field || "").split(",") : null;
    var count = [0, 0];
    var b = [LB.tag("rect", { x: 0, y: TOP, width: W * C, height: H * C, fill: "#f8f9fa", stroke: "#ced4da" })];
    for (var x = 1; x < W; x++) b.push(LB.tag("line", { x1: x * C, y1: TOP, x2: x * C, y2: TOP + H * C, stroke: "#e9ecef" }));
    for (var y = 1; y < H; y++) b.push(LB.tag("line", { x1: 0, y1: TOP + y * C, x2: W * C, y2: TOP + y * C, stroke: "#e9ecef" }));
    for (var i = 0; i < W * H; i++) {
      var cx = (i % W) * C, cy = TOP + Math.floor(i / W) * C;
      var c = cells[i];
      if (c === "0" || c === "1") {
        var seat = c === "0" ? 0 : 1;
        count[seat]++;
        var fresh = prev && prev[i] !== c;
        b.push(LB.tag("rect", { x: cx + 1.5, y: cy + 1.5, width: C - 3, height: C - 3, rx: 3, fill: LB.seatColour(seat), opacity: fresh ? 0.6 : 1 },
          LB.tag("title", {}, "seat " + seat + " at " + (i % W) + "," + Math.floor(i / W) + (fresh ? " (new)" : ""))));
      } else if (prev && (prev[i] === "0" || prev[i] === "1")) {
        // died this turn: a faint mark of its side
        b.push(LB.tag("rect", { x: cx + 5, y: cy + 5, width: C - 10, height: C - 10, rx: 1, fill: "none", stroke: LB.seatColour(prev[i] === "0" ? 0 : 1), opacity: 0.5 }));
      }
    }
    // The cells the last move named.
    var mv = ctx && ctx.turn ? String(ctx.turn.moves[0]) : "";
    (mv.match(/\d+,\d+/g) || []).forEach(function (p, k) {
      var xy = p.split(",").map(Number);
      b.push(LB.tag("rect", { x: xy[0] * C + 0.5, y: TOP + xy[1] * C + 0.5, width: C - 1, height: C - 1, fill: "none",
        stroke: "#212529", "stroke-width": 1.5, "stroke-dasharray": k === 0 ? null : "2 2" }));
    });
    var caption = "round " + LB.esc(state.round) + " of " + LB.esc(state.max_rounds || 100);
    if (!(ctx && ctx.end)) {
      var m = state.to_move === 1 ? 1 : 0;
      caption += " \u00b7 to move: " + LB.tag("span", { class: "seat" + m }, LB.esc(LB.seatName(ctx, m)));
    }
    el.innerHTML = LB.svg(W * C + 1, TOP + H * C + 2, b.join(""), "golad-field") +
      '<div class="lb-caption">' + caption + " \u00b7 living cells: " +
      LB.tag("span", { class: "seat0" }, LB.esc(LB.seatName(ctx, 0)) + " " + count[0]) + ", " +
      LB.tag("span", { class: "seat1" }, LB.esc(LB.seatName(ctx, 1)) + " " + count[1]) +
      (mv ? " \u00b7 last move: " + LB.esc(mv) : "") + "</div>";
  };
})();
