// Goofspiel in a `ladderbot report` page: the prize up for bidding, both
// hands (cards 1..n, those already bid greyed, the last bid ringed), the
// scores, and the rounds played. State: `cards`, `round`, `deck` (prizes to
// come, the current one first: hidden from the players), `history`
// ([prize, seat 0's bid, seat 1's bid] per round), `hands`, `scores`.
(function () {
  var CW = 24, CH = 34, GAP = 4, LEFT = 118;
  function card(x, y, v, opts) {
    return LB.tag("g", {},
      LB.tag("rect", { x: x, y: y, width: CW, height: CH, rx: 3, fill: opts.fill || "#fff",
        stroke: opts.stroke || "#868e96", "stroke-width": opts.sw || 1, opacity: opts.faded ? 0.35 : 1 }) +
      LB.tag("text", { x: x + CW / 2, y: y + CH / 2 + 4, "text-anchor": "middle", "font-size": 12, "font-weight": "bold",
        fill: opts.text || "#212529", style: "fill:" + (opts.text || "#212529"), opacity: opts.faded ? 0.35 : 1 }, String(v)));
  }
  function short(name) { return name.length > 16 ? name.slice(0, 15) + "\u2026" : name; }
  LB.views["goofspiel"] = function (state, el, ctx) {
    var n = state.cards || 13;
    var hands = state.hands || [[], []], scores = state.scores || [0, 0];
    var hist = state.history || [], deck = state.deck || [];
    var last = hist.length ? hist[hist.length - 1] : null;
    var W = LEFT + n * (CW + GAP) + 8, H = 22 + CH + 16 + 2 * (CH + 14) + 6;
    var b = [];
    // The prize.
    b.push(LB.tag("text", { x: 0, y: 14 }, deck.length ? "prize, round " + (hist.length + 1) + "/" + n : "all " + n + " rounds played"));
    if (deck.length) {
      b.push(card(0, 20, deck[0], { fill: "#fff3bf", stroke: "#f59f00", sw: 2 }));
      // A spectator's state while the game runs has only the prize up
      // (`prizes_hidden` more to come, their order hidden).
      b.push(LB.tag("text", { x: LEFT, y: 14 }, state.prizes_hidden !== undefined
        ? state.prizes_hidden + " more to come, their order hidden until the game ends"
        : "to come, in order (hidden from the players):"));
      deck.slice(1).forEach(function (v, k) {
        b.push(card(LEFT + k * (CW + GAP), 20, v, { faded: true }));
      });
    }
    // The hands.
    [0, 1].forEach(function (seat) {
      var y = 22 + CH + 24 + seat * (CH + 14);
      var held = {};
      (hands[seat] || []).forEach(function (v) { held[v] = true; });
      var bid = last ? last[1 + seat] : null;
      var won = last && last[1 + seat] > last[2 - seat];
      b.push(LB.tag("text", { x: 0, y: y + 13, fill: LB.seatColour(seat), style: "fill:" + LB.seatColour(seat) }, LB.esc(short(LB.seatName(ctx, seat)))));
      b.push(LB.tag("text", { x: 0, y: y + 28 }, "score " + scores[seat] + (won ? " (+" + last[0] + ")" : "")));
      for (var v = 1; v <= n; v++) {
        b.push(card(LEFT + (v - 1) * (CW + GAP), y, v, {
          faded: !held[v] && v !== bid,
          stroke: v === bid ? LB.seatColour(seat) : null, sw: v === bid ? 2.5 : 1,
          fill: v === bid ? (won ? "#d3f9d8" : "#fff") : null,
        }));
      }
    });
    var rows = hist.map(function (h, k) {
      var w = h[1] > h[2] ? 0 : h[2] > h[1] ? 1 : -1;
      return "<tr" + (k === hist.length - 1 ? ' style="font-weight:bold"' : "") + "><td>" + (k + 1) + "</td><td>" + h[0] +
        '</td><td class="seat0">' + h[1] + '</td><td class="seat1">' + h[2] + "</td><td>" +
        (w < 0 ? "tie: nobody" : LB.tag("span", { class: "seat" + w }, LB.esc(LB.seatName(ctx, w)))) + "</td></tr>";
    }).reverse().join("");
    el.innerHTML = LB.svg(W, H, b.join(""), "goofspiel-table") +
      '<div class="lb-caption">scores: ' + LB.tag("span", { class: "seat0" }, LB.esc(LB.seatName(ctx, 0)) + " " + scores[0]) + ", " +
      LB.tag("span", { class: "seat1" }, LB.esc(LB.seatName(ctx, 1)) + " " + scores[1]) + "</div>" +
      (rows ? '<table class="lb-stats"><thead><tr><th>round</th><th>prize</th><th>bid 0</th><th>bid 1</th><th>won by</th></tr></thead><tbody>' +
        rows + "</tbody></table>" : "");
  };
})();
