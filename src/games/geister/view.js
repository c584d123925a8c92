// Geister in a `ladderbot report` page: the 6 x 6 board as `render` prints
// it (row 0 on top; seat 0 starts on the bottom rows, seat 1 on the top
// rows), each piece in its true colour (red or blue), pointing toward its
// owner's opponent and lettered A..H (seat 0) or a..h (seat 1). While the
// game runs a piece's colour is hidden from the other side: it is drawn pale
// with a dashed outline; captured pieces (their colour known to both) and
// every piece once the game is over are drawn solid. The state's `places`
// holds each piece's square "xy" (seat 0's A..H, then seat 1's), "88"
// escaped or "99" captured; `setups[s]` the letters of seat s's red pieces.
// A spectator's state while the game runs (`public_json`) also has
// `unknown[s]`: the letters of seat s's pieces whose colour nobody but
// their owner knows; they are drawn grey with a "?" (`setups` then holds
// only the red pieces out of the board).
(function () {
  var C = 44, OX = 22, OY = 24, TRAY = 24;
  var RED = "#e03131", BLUE = "#1c7ed6", GREY = "#868e96";
  function short(name) { return name.length > 16 ? name.slice(0, 15) + "\u2026" : name; }
  function place(state, seat, i) {
    return String(state.places || "").substr((seat * 8 + i) * 2, 2);
  }
  // A ghost: a rounded body with a tip toward the opponent.
  function ghost(cx, cy, r, seat, red, hidden, letter, title, unknown) {
    var up = seat === 0 ? -1 : 1;
    var pts = [
      [cx, cy + up * r],
      [cx + r * 0.85, cy + up * r * 0.15],
      [cx + r * 0.85, cy - up * r * 0.85],
      [cx - r * 0.85, cy - up * r * 0.85],
      [cx - r * 0.85, cy + up * r * 0.15],
    ].map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" ");
    var fill = unknown ? GREY : red ? RED : BLUE;
    if (unknown) hidden = false;
    return LB.tag("g", {},
      LB.tag("title", {}, LB.esc(title)) +
      LB.tag("polygon", {
        points: pts, fill: fill, "fill-opacity": hidden ? 0.3 : 1, stroke: hidden ? fill : "#212529",
        "stroke-width": hidden ? 2 : 1.2, "stroke-dasharray": hidden ? "4 2" : null, "stroke-linejoin": "round",
      }) +
      LB.tag("text", { x: cx, y: cy + 4 - up * r * 0.2, "text-anchor": "middle", "font-size": Math.round(r * 0.75), "font-weight": "bold",
        fill: hidden ? "#212529" : "#fff", style: "fill:" + (hidden ? "#212529" : "#fff") }, letter + (unknown ? "?" : "")));
  }
  LB.moveText["geister"] = function (mv) { return String(mv); };
  LB.views["geister"] = function (state, el, ctx) {
    var end = !!(ctx && ctx.end);
    var W = OX + 6 * C + 24 + 4 * TRAY * 1.15 + 4, H = OY * 2 + 6 * C;
    var b = [];
    // Board and exits (a seat escapes from the far corners).
    b.push(LB.tag("rect", { x: OX, y: OY, width: 6 * C, height: 6 * C, fill: "#f1f3f5", stroke: "#adb5bd" }));
    for (var k = 1; k < 6; k++) {
      b.push(LB.tag("line", { x1: OX + k * C, y1: OY, x2: OX + k * C, y2: OY + 6 * C, stroke: "#dee2e6" }));
      b.push(LB.tag("line", { x1: OX, y1: OY + k * C, x2: OX + 6 * C, y2: OY + k * C, stroke: "#dee2e6" }));
    }
    [[0, 0, 0], [5, 0, 0], [0, 5, 1], [5, 5, 1]].forEach(function (e) {
      var x = OX + e[0] * C + (e[0] ? C - 6 : 6), y = OY + e[1] * C + (e[1] ? C + 10 : -4);
      b.push(LB.tag("text", { x: x, y: y, "text-anchor": e[0] ? "end" : "start", fill: LB.seatColour(e[2]), style: "fill:" + LB.seatColour(e[2]) },
        (e[2] ? "\u25BC" : "\u25B2") + " exit"));
    });
    b.push(LB.tag("text", { x: OX + 3 * C, y: 12, "text-anchor": "middle", class: "seat1", fill: LB.seatColour(1), style: "fill:" + LB.seatColour(1) },
      LB.esc(LB.seatName(ctx, 1))));
    b.push(LB.tag("text", { x: OX + 3 * C, y: OY + 6 * C + 18, "text-anchor": "middle", class: "seat0", fill: LB.seatColour(0), style: "fill:" + LB.seatColour(0) },
      LB.esc(LB.seatName(ctx, 0))));
    if (state.phase !== "play") {
      el.innerHTML = LB.svg(W, H, b.join(""), "geister-board") +
        '<div class="lb-caption">setup: both seats choose which four of their pieces are red</div>';
      return;
    }
    var reds = state.setups || ["", ""];
    var lost = [[], []], left = [[0, 0], [0, 0]], hiddenCount = [0, 0];
    // The last move: the piece whose place changed.
    var moved = null;
    if (ctx && ctx.prev && ctx.prev.phase === "play") {
      for (var s = 0; s < 2; s++) for (var i = 0; i < 8; i++) {
        var a = place(ctx.prev, s, i), z = place(state, s, i);
        if (a !== z && a !== "88" && a !== "99" && z !== "99") moved = { from: a, to: z, seat: s };
      }
    }
    if (moved) {
      var fx = OX + (+moved.from[0]) * C + C / 2, fy = OY + (+moved.from[1]) * C + C / 2;
      b.push(LB.tag("rect", { x: OX + (+moved.from[0]) * C + 2, y: OY + (+moved.from[1]) * C + 2, width: C - 4, height: C - 4,
        fill: "none", stroke: LB.seatColour(moved.seat), "stroke-width": 2, "stroke-dasharray": "3 3" }));
      if (moved.to !== "88") {
        var tx = OX + (+moved.to[0]) * C + C / 2, ty = OY + (+moved.to[1]) * C + C / 2;
        b.push(LB.tag("line", { x1: fx, y1: fy, x2: tx, y2: ty, stroke: LB.seatColour(moved.seat), "stroke-width": 2, opacity: 0.5 }));
      }
    }
    for (var seat = 0; seat < 2; seat++) {
      for (var p = 0; p < 8; p++) {
        var letter = String.fromCharCode((seat ? 97 : 65) + p);
        var red = reds[seat].indexOf(String.fromCharCode(65 + p)) >= 0;
        var code = place(state, seat, p);
        if (code === "88" || code === "99") {
          lost[seat].push({ letter: letter, red: red, escaped: code === "88" });
          continue;
        }
        var x = +code[0], y = +code[1];
        var unknown = !!(state.unknown && String(state.unknown[seat] || "").indexOf(String.fromCharCode(65 + p)) >= 0);
        if (unknown) {
          hiddenCount[seat]++;
          b.push(ghost(OX + x * C + C / 2, OY + y * C + C / 2, C * 0.38, seat, false, false, letter,
            LB.seatName(ctx, seat) + "'s " + letter + ": colour not shown until the game ends", true));
          continue;
        }
        left[seat][red ? 0 : 1]++;
        b.push(ghost(OX + x * C + C / 2, OY + y * C + C / 2, C * 0.38, seat, red, !end, letter,
          LB.seatName(ctx, seat) + "'s " + letter + ": " + (red ? "red" : "blue") + (end ? "" : " (hidden from the opponent)")));
      }
    }
    // The pieces out of the board: seat 1's in the upper half of the right
    // column, seat 0's in the lower half (an escaped piece ringed in gold).
    var tx0 = OX + 6 * C + 14, escaped = [];
    [1, 0].forEach(function (seat, row) {
      var y0 = OY + row * 3 * C;
      b.push(LB.tag("text", { x: tx0, y: y0 + 10 }, LB.esc(short(LB.seatName(ctx, seat))) + " out:"));
      lost[seat].forEach(function (q, k) {
        var cx = tx0 + (k % 4) * TRAY * 1.15 + TRAY / 2, cy = y0 + 18 + Math.floor(k / 4) * TRAY * 1.15 + TRAY / 2;
        if (q.escaped) {
          escaped.push(LB.tag("span", { class: "seat" + seat }, q.letter));
          b.push(LB.tag("circle", { cx: cx, cy: cy, r: TRAY * 0.56, fill: "none", stroke: "#f59f00", "stroke-width": 2.5 }));
        }
        b.push(ghost(cx, cy, TRAY * 0.42, seat, q.red, false, q.letter,
          LB.seatName(ctx, seat) + "'s " + q.letter + " (" + (q.red ? "red" : "blue") + ") " + (q.escaped ? "escaped" : "captured")));
      });
    });
    var first = state.first === 1 ? 1 : 0;
    var toMove = (state.ply % 2 === 0) ? first : 1 - first;
    var caption = "ply " + LB.esc(state.ply) + (end ? " \u00b7 game over: every colour shown" :
      " \u00b7 to move: " + LB.tag("span", { class: "seat" + toMove }, LB.esc(LB.seatName(ctx, toMove))) +
      (state.unknown ? " \u00b7 grey: colour shown when the game ends" : " \u00b7 pale, dashed: colour hidden from the opponent"));
    var counts = [0, 1].map(function (s) {
      return LB.tag("span", { class: "seat" + s }, LB.esc(LB.seatName(ctx, s))) + " " +
        (state.unknown ? hiddenCount[s] + " on the board" : left[s][0] + " red, " + left[s][1] + " blue on the board");
    }).join(" \u00b7 ");
    if (escaped.length) counts += " \u00b7 escaped (gold ring): " + escaped.join(", ");
    el.innerHTML = LB.svg(W, H, b.join(""), "geister-board") + '<div class="lb-caption">' + caption + "<br>" + counts + "</div>";
  };
})();
