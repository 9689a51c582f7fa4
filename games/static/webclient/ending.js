// Ending a game early (docs/api.md, "Ending a game early"), each button shown only when the game
// answer says it may apply: an open game's Leave (a seat you joined) and Cancel (its creator,
// DELETE games/{id}/); a game in play's Abort (until the first dice are thrown: the page has
// seen no `dice_rolled` in the log), Claim (another person's seat is to play and no clock runs:
// a clocked turn always has its `deadline_at`, and there the clock decides) and Resign. The
// server still decides: a refusal's `detail`, already in the page's language, is shown as it is
// (a claim too early says how long is left, an abort in a tournament says to resign).
//
// Cancel, Abort and Claim ask first, in the page: the question is the page's state
// (`page.asking`), so a redraw while it is asked (a move arriving) keeps it.

import { api, post, session } from "./api.js";
import { h, notice } from "./dom.js";
import { t } from "./i18n.js";

/** The row of the ending buttons that apply to `game` for this person, or null. */
export function endingPanel(game, page) {
  const buttons = page.watching || !game.your_seats.length ? [] : applicable(game, page);
  return buttons.length ? h("div", { class: "row leave", testid: "ending" }, buttons) : null;
}

function applicable(game, page) {
  const id = game.id;
  const creator = game.created_by?.id === session.user?.id;
  if (game.status === "open") {
    if (!creator) return [button(page, "leave", () => post(`games/${id}/leave/`), toLobby)];
    return [asked(page, "cancel", t("cancelSure"), () => api("DELETE", `games/${id}/`), toLobby)];
  }
  if (game.status !== "active") return [];
  const out = game.state?.out ?? [];
  const live = game.your_seats.filter((seat) => !out.includes(seat));
  if (!live.length) return [];
  const shown = [];
  if (!page.rolled) shown.push(asked(page, "abort", t("abortSure"), () => post(`games/${id}/abort/`)));
  const idle = game.seats[game.turn_seat];
  if (!game.your_seats.includes(game.turn_seat) && idle?.kind !== "computer" && !game.deadline_at) {
    shown.push(asked(page, "claim", t("claimSure", { name: idle?.name ?? "" }),
      () => post(`games/${id}/claim/`)));
  }
  shown.push(resign(game, page, live[0]));
  return shown;
}

const toLobby = () => {
  location.hash = "#/";
};

/** Send `send()`; then `after()` (by default, read the game again). A refusal is shown. */
async function run(page, send, after) {
  page.asking = null;
  try {
    await send();
    await (after ?? page.read)();
  } catch (problem) {
    notice(problem.message);
    page.draw();
  }
}

function button(page, key, send, after) {
  return h("button", { class: "link danger", testid: key, onclick: () => run(page, send, after) }, t(key));
}

/** A button that asks `question` in the page first: Yes sends, No puts the button back. */
function asked(page, key, question, send, after) {
  if (page.asking !== key) {
    return h("button", {
      class: "link danger",
      testid: key,
      onclick: () => {
        page.asking = key;
        page.draw();
      },
    }, t(key));
  }
  return h("span", { class: "ask", role: "group", testid: `${key}-ask` }, question,
    h("button", { class: "danger", testid: `${key}-yes`, onclick: () => run(page, send, after) }, t("yes")),
    h("button", {
      testid: `${key}-no`,
      onclick: () => {
        page.asking = null;
        page.draw();
      },
    }, t("no")));
}

/** Resign `seat`, the first of mine still playing (a hot-seat game resigns its seats one by one). */
function resign(game, page, seat) {
  return h("button", {
    class: "link danger",
    testid: "resign",
    onclick: () => {
      if (window.confirm(t("resignSure"))) run(page, () => post(`games/${game.id}/resign/`, { seat }));
    },
  }, `${t("resign")} (${game.seats[seat].name})`);
}
