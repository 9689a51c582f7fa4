// A game of a kind this client has no drawing for (drawings.js): whose turn it is, each seat's
// total, and the moves the state offers as buttons that send the move's type alone. A move that
// needs more is refused by the server, whose words the page shows: the game can still be
// followed, and played as far as such moves go.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Each seat's total: the state's `totals`, else its result's, else the seats' final totals. */
function totals(game) {
  const s = game.state;
  return s.totals ?? s.result?.totals ?? game.seats.map((seat) => seat.final_total);
}

export function drawGeneric(game, ctx) {
  const s = game.state;
  const seat = s.turn_seat ?? game.turn_seat;
  const status = h("p", { class: "turn", testid: "turn" }, game.status === "active"
    ? ctx.myTurn ? `${t("yourTurn")} — ${ctx.seatName(seat)}` : t("toPlay", { name: ctx.seatName(seat) })
    : "");
  const moves = h("div", { class: "controls" }, ctx.myTurn
    ? (s.moves ?? []).map((move) => h("button", {
        testid: `move-${move.type}`,
        onclick: () => ctx.act({ type: move.type }),
      }, move.label ?? move.type))
    : null);
  const sums = totals(game);
  const scores = h("table", { class: "sheet totals", testid: "totals" },
    h("tr", {}, h("th", {}, t("player")), h("th", {}, t("total"))),
    game.seats.map((_, i) => h("tr", { class: i === seat ? "turn" : "" },
      h("th", {}, ctx.seatName(i)), h("td", { testid: `total-${i}` }, sums?.[i] ?? ""))));
  return h("div", { class: "generic" },
    h("section", { class: "card table" }, status, moves),
    h("section", { class: "card sheet-card" }, scores));
}

/** A move in words, as its fields say it: its type, then the rest. */
export function genericMove(game, move) {
  const { type, ...rest } = move;
  const more = Object.entries(rest).map(([key, value]) => `${key} ${[value].flat().join(" ")}`);
  return [type, ...more].join(" · ");
}
