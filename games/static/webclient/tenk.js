// Dés 10 000: pick the dice to set aside from the roll, the points of the selection, roll on or
// bank, the risk of losing the round, hot dice and the last round.

import { die, h } from "./dom.js";
import { percent, t } from "./i18n.js";

let picked = { key: "", set: new Set() };

/** A Dés 10 000 event of the game's log in words (`name`: its seat's), or undefined if not one. */
export function describeTenThousand(game, event, name) {
  const d = event.data;
  switch (event.type) {
    case "dice_set_aside": return t("setAside", { name, dice: d.dice.join(" "), points: d.points });
    case "turn_banked": return t("banked", { name, points: d.points, total: d.total });
    case "round_lost": return t("lost", { name, points: d.lost_points });
    case "hot_dice": return t("hotDice");
    case "last_round_started": return t("lastRound");
    default: return undefined;
  }
}

/** A Dés 10 000 move in words: the dice set aside (of the roll `dice`), then roll on or bank. */
export function tenThousandMove(game, move, dice) {
  const kept = (move.keep ?? []).map((i) => dice[i] ?? "?").join(" ");
  if (move.type === "bank") return kept ? t("moveKeepBank", { dice: kept }) : t("moveBank");
  return t("moveKeepRoll", { dice: kept });
}

/** The points of dice set aside together from one roll, or null when a die would not count
 * (the rules' scoring, games/rules/README.md: the best split that uses every die). */
export function selectionPoints(dice) {
  if (!dice.length) return 0;
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const face of dice) counts[face] += 1;
  const options = [];
  if (dice.length === 6 && counts.slice(1).every((c) => c === 1)) options.push(1500);
  if (dice.length === 6 && counts.filter((c) => c === 2).length === 3) options.push(750);
  let total = 0;
  let valid = true;
  for (let face = 1; face <= 6; face += 1) {
    const c = counts[face];
    if (c >= 3) {
      total += (face === 1 ? 1000 : face * 100) * { 3: 1, 4: 2, 5: 4, 6: 8 }[c];
    } else if (face === 1) total += 100 * c;
    else if (face === 5) total += 50 * c;
    else if (c > 0) valid = false;
  }
  if (valid) options.push(total);
  return options.length ? Math.max(...options) : null;
}

export function drawTenThousand(game, ctx) {
  const s = game.state;
  const key = `${game.id}:${game.version}`;
  if (picked.key !== key) picked = { key, set: new Set() };
  const chosen = [...picked.set].sort();
  const points = selectionPoints(chosen.map((i) => s.roll[i]));
  const canPick = ctx.myTurn && s.roll.length > 0;
  const dice = h("div", { class: "dice", testid: "dice" },
    s.roll.length
      ? s.roll.map((face, i) => die(face, i, {
          held: picked.set.has(i),
          scoring: s.scoring_indices.includes(i),
          disabled: !canPick,
          testid: `die-${i}`,
          onclick: () => {
            picked.set.has(i) ? picked.set.delete(i) : picked.set.add(i);
            ctx.page.draw();
          },
        }))
      : h("p", { class: "muted" }, "—"));
  const ready = !s.must_set_aside || (chosen.length > 0 && points !== null);
  const labels = Object.fromEntries(s.moves.map((m) => [m.type, m.label]));
  const controls = h("div", { class: "controls" });
  if (ctx.myTurn) {
    if (s.can_roll && labels.roll) {
      controls.append(h("button", {
        class: "primary", testid: "roll", disabled: !ready,
        onclick: () => ctx.act({ type: "roll", keep: chosen }),
      }, labels.roll));
    }
    if (s.can_bank && labels.bank) {
      controls.append(h("button", {
        testid: "bank", disabled: !ready,
        onclick: () => ctx.act({ type: "bank", keep: chosen }),
      }, labels.bank));
    }
  }
  const facts = [h("p", { testid: "turn-points" }, t("turnPoints", { points: s.turn_points }))];
  if (s.roll.length && ctx.myTurn) {
    facts.push(h("p", { testid: "selection", class: points === null ? "warning" : "" },
      points === null ? t("invalidSelection") : t("selection", { points })));
    // What rolling on would risk: the dice left after this selection (all six after hot dice).
    const left = s.dice_in_play - chosen.length || 6;
    if (chosen.length && points !== null) {
      facts.push(h("p", { class: "risk", testid: "risk-next" }, t("riskNext", {
        n: left, p: percent(s.farkle_risk_by_dice[String(left)]), points: s.turn_points + points,
      })));
    }
  } else if (s.farkle_risk !== null && game.status === "active") {
    facts.push(h("p", { class: "risk", testid: "risk" }, t("risk", { p: percent(s.farkle_risk) })));
  }
  const banners = s.messages.map((m) => h("p", { class: `banner ${m.code}`, testid: `banner-${m.code}` }, m.text));
  if (s.last_round && !s.messages.some((m) => m.code === "last_round")) {
    banners.push(h("p", { class: "banner last_round", testid: "banner-last_round" }, t("lastRound")));
  }
  const status = h("p", { class: "turn", testid: "turn" }, game.status === "active"
    ? ctx.myTurn ? `${t("yourTurn")} — ${ctx.seatName(s.turn_seat)}` : t("toPlay", { name: ctx.seatName(s.turn_seat) })
    : "");
  const kept = h("ul", { class: "kept", testid: "kept" }, s.kept.map((k) =>
    h("li", {}, `${k.dice.join(" ")} → ${k.points}`)));
  const scores = h("table", { class: "sheet totals", testid: "totals" },
    h("tr", {}, h("th", {}, t("player")), h("th", {}, `${t("total")} / ${s.target}`)),
    game.seats.map((seat, i) => h("tr", { class: i === s.turn_seat ? "turn" : "" },
      h("th", {}, seat.name),
      h("td", { testid: `total-${i}` }, s.totals[i],
        h("progress", { max: s.target, value: Math.min(s.totals[i], s.target) })))));
  return h("div", { class: "tenk" },
    h("section", { class: "card table" }, status, ...banners, dice,
      canPick ? h("p", { class: "muted" }, t("pick")) : null, kept, ...facts, controls),
    h("section", { class: "card sheet-card" }, scores));
}
