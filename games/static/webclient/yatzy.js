// Yatzy: the dice with their holds, the roll, the sheets with the legal boxes and their points,
// marking a box and confirming it (with a warning when it scores 0). The auto-confirm countdown is
// the game page's timer line (game.js).

import { die, h } from "./dom.js";
import { t } from "./i18n.js";

// Positions held for the next roll: the client's until it rolls (reset when the roll changes).
let holds = { key: "", set: new Set() };

function boxLabel(game, box) {
  const boxes = game.state?.sheets?.[0]?.boxes || [];
  return boxes.find((b) => b.box === box)?.label || box;
}

/** A Yatzy event of the game's log in words (`name`: its seat's), or undefined if not one. */
export function describeYatzy(game, event, name) {
  const d = event.data;
  if (event.type === "box_selected") return t("selected", { name, box: d.box ? boxLabel(game, d.box) : "—" });
  if (event.type === "box_scored") {
    return t("scored", { name, box: boxLabel(game, d.box), points: d.points + (d.yatzy_bonus || 0) });
  }
  return undefined;
}

/** A Yatzy move in words: the dice kept for the next roll (of `dice`), or the box scored. */
export function yatzyMove(game, move, dice) {
  if (move.type === "score") return t("moveScore", { box: boxLabel(game, move.box) });
  const kept = (move.hold ?? []).map((i) => dice[i] ?? "?");
  return kept.length ? t("moveHold", { dice: kept.join(" ") }) : t("moveRollAll");
}

export function drawYatzy(game, ctx) {
  const s = game.state;
  const key = `${game.id}:${s.round}:${s.turn_seat}:${s.rolls_used}`;
  if (holds.key !== key) holds = { key, set: new Set(s.held) };
  const canHold = ctx.myTurn && s.can_roll && s.rolls_used > 0;
  const dice = h("div", { class: "dice", testid: "dice" },
    s.dice.length
      ? s.dice.map((face, i) => die(face, i, {
          held: holds.set.has(i),
          disabled: !canHold,
          testid: `die-${i}`,
          onclick: () => {
            holds.set.has(i) ? holds.set.delete(i) : holds.set.add(i);
            ctx.page.draw();
          },
        }))
      : [0, 1, 2, 3, 4].map((i) => die(0, i, { testid: `die-${i}` })));
  const rollMove = s.moves.find((m) => m.type === "roll");
  const controls = h("div", { class: "controls" });
  if (ctx.myTurn && rollMove) {
    controls.append(h("button", {
      class: "primary", testid: "roll", "data-rolls-left": s.rolls_left,
      onclick: () => ctx.act({ type: "roll", hold: [...holds.set].sort() }),
    }, `${rollMove.label} (${s.rolls_left})`));
  }
  const legal = new Map(s.legal_boxes.map((b) => [b.box, b]));
  const chosen = s.selected ? legal.get(s.selected) : null;
  if (ctx.myTurn && chosen) {
    controls.append(h("button", {
      class: "primary confirm", testid: "confirm",
      onclick: () => ctx.act({ type: "score", box: chosen.box }),
    }, `${t("confirm")}: ${chosen.label} (${chosen.points})`));
  }
  const warnings = [];
  if (chosen && chosen.points === 0) {
    warnings.push(h("p", { class: "warning", testid: "sacrifice" }, t("sacrifice", { box: chosen.label })));
  }
  if (s.message) warnings.push(h("p", { class: "warning", testid: "message" }, s.message));
  const status = h("p", { class: "turn", testid: "turn" },
    game.status === "active"
      ? ctx.myTurn ? `${t("yourTurn")} — ${ctx.seatName(s.turn_seat)}` : t("toPlay", { name: ctx.seatName(s.turn_seat) })
      : "",
    game.status === "active" ? ` · ${s.round}/${s.rounds}` : "");
  return h("div", { class: "yatzy" },
    h("section", { class: "card table" }, status, dice,
      canHold ? h("p", { class: "muted" }, t("hold")) : null, controls, ...warnings),
    sheet(game, ctx, legal));
}

function sheet(game, ctx, legal) {
  const s = game.state;
  const rows = s.sheets[0].boxes.map((box, row) =>
    h("tr", { "data-box": box.box, class: row === 5 ? "upper-end" : "" },
      h("th", { title: box.description }, box.label),
      s.sheets.map((seatSheet, seat) => {
        const points = seatSheet.boxes[row].points;
        const option = seat === s.turn_seat && game.status === "active" ? legal.get(box.box) : null;
        if (points !== null) return h("td", { class: "filled", testid: `cell-${seat}-${box.box}` }, points);
        if (!option) return h("td", { testid: `cell-${seat}-${box.box}` }, "");
        const selected = s.selected === box.box;
        return h("td", { class: `legal${selected ? " selected" : ""}${option.points === 0 ? " zero" : ""}` },
          h("button", {
            testid: `box-${box.box}`, disabled: !ctx.myTurn, "data-points": option.points,
            title: option.description,
            onclick: () => ctx.act({ type: "select", box: box.box }),
          }, option.points));
      })));
  const foot = [["upperBonus", "upper_bonus"], ["yatzyBonus", "yatzy_bonus"], ["total", "total"]];
  return h("section", { class: "card sheet-card" }, h("table", { class: "sheet", testid: "sheet" },
    h("thead", {}, h("tr", {}, h("td", {}, ""), s.sheets.map((_, seat) =>
      h("th", { class: seat === s.turn_seat ? "turn" : "" }, ctx.seatName(seat))))),
    h("tbody", {}, rows),
    h("tfoot", {}, foot.map(([word, field]) => h("tr", {}, h("th", {}, t(word)),
      s.sheets.map((seatSheet, seat) => h("td", { testid: `${field}-${seat}` }, seatSheet[field])))))));
}
