// Two-player Flood-It in a `ladderbot report` page: every cell in its colour
// (`board`: one string per row, colours '1'..'8'), each seat's territory (its
// pivot's connected region: seat 0 from the top-left cell, seat 1 from the
// bottom-right) outlined and dotted (seat 0 dark dots, seat 1 white dots).
(function () {
  var PALETTE = ["#e03131", "#37b24d", "#1c7ed6", "#fcc419", "#ae3ec9", "#15aabf", "#f76707", "#868e96"];
  function territory(board, rows, cols, r0, c0) {
    var inside = {}, colour = board[r0][c0], stack = [[r0, c0]];
    inside[r0 * cols + c0] = true;
    while (stack.length) {
      var p = stack.pop();
      [[1, 0], [-1, 0], [0, 1], [0, -1]].forEach(function (d) {
        var r = p[0] + d[0], c = p[1] + d[1];
        if (r < 0 || c < 0 || r >= rows || c >= cols || inside[r * cols + c] || board[r][c] !== colour) return;
        inside[r * cols + c] = true;
        stack.push([r, c]);
      });
    }
    return inside;
  }
  LB.moveText["floodit"] = function (mv) { return "colour " + mv; };
  LB.views["floodit"] = function (state, el, ctx) {
    var board = state.board || [], rows = state.rows || board.length, cols = state.cols || (board[0] || "").length;
    var C = Math.max(10, Math.min(28, Math.floor(392 / Math.max(rows, cols))));
    var terr = [territory(board, rows, cols, 0, 0), territory(board, rows, cols, rows - 1, cols - 1)];
    var size = [Object.keys(terr[0]).length, Object.keys(terr[1]).length];
    var b = [];
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c < cols; c++) {
        var k = +board[r][c];
        b.push(LB.tag("rect", { x: c * C, y: r * C, width: C, height: C, fill: PALETTE[(k - 1) % PALETTE.length] },
          LB.tag("title", {}, "colour " + k + " at row " + r + ", column " + c)));
      }
    }
    // Territories: a dot in each cell, a line along the border.
    [0, 1].forEach(function (seat) {
      var t = terr[seat], path = "";
      Object.keys(t).forEach(function (key) {
        var i = +key, r = Math.floor(i / cols), c = i % cols, x = c * C, y = r * C;
        b.push(LB.tag("circle", { cx: x + C / 2, cy: y + C / 2, r: Math.max(2, C * 0.14),
          fill: seat ? "#fff" : "#212529", stroke: seat ? "#212529" : "none", "stroke-width": 1 }));
        if (r === 0 || !t[i - cols]) path += "M" + x + " " + y + "h" + C;
        if (r === rows - 1 || !t[i + cols]) path += "M" + x + " " + (y + C) + "h" + C;
        if (c === 0 || !t[i - 1]) path += "M" + x + " " + y + "v" + C;
        if (c === cols - 1 || !t[i + 1]) path += "M" + (x + C) + " " + y + "v" + C;
      });
      b.push(LB.tag("path", { d: path, fill: "none", stroke: "#212529", "stroke-width": 3, "stroke-linecap": "square" }));
      b.push(LB.tag("path", { d: path, fill: "none", stroke: seat ? "#fff" : "#212529", "stroke-width": 1.2, "stroke-linecap": "square" }));
    });
    var caption = "ply " + LB.esc(state.ply) + " \u00b7 " + rows + " x " + cols + ", " + LB.esc(state.colours) + " colours";
    if (ctx && ctx.turn) caption += " \u00b7 last move: " + LB.tag("span", { class: "seat" + ctx.turn.movers[0] }, LB.esc(LB.seatName(ctx, ctx.turn.movers[0]))) + " chose colour " + LB.esc(ctx.turn.moves[0]);
    if (!(ctx && ctx.end)) {
      var m = (state.ply || 0) % 2;
      caption += " \u00b7 to move: " + LB.tag("span", { class: "seat" + m }, LB.esc(LB.seatName(ctx, m)));
    }
    el.innerHTML = LB.svg(cols * C, rows * C, b.join(""), "floodit-board") +
      '<div class="lb-caption">' + caption + "<br>territories: " +
      LB.tag("span", { class: "seat0" }, "\u25CF " + LB.esc(LB.seatName(ctx, 0))) + " " + size[0] + " cells (from the top left), " +
      LB.tag("span", { class: "seat1" }, "\u25CB " + LB.esc(LB.seatName(ctx, 1))) + " " + size[1] + " cells (from the bottom right), free " +
      (rows * cols - size[0] - size[1]) + "</div>";
  };
})();
