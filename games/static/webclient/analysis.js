// A finished game move by move: each seat's luck, skill loss and accuracy, and each decision (the
// move chosen, the best one, what the choice cost) from GET games/{id}/analysis/; beside them the
// replay (GET games/{id}/replay/?at=), stepped through with its buttons, the arrow keys, Home and
// End, or a decision's own button. The replay is throttled as expensive: each position is read
// once and kept, and a key held down reads only where it stops.

import { get } from "./api.js";
import { h, notice } from "./dom.js";
import { describeMove, drawGame } from "./drawings.js";
import { eventWords } from "./game.js";
import { language, percent, t } from "./i18n.js";

const number = (value) => new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(value);

/** All of the game's events (the log is read in pages). */
async function allEvents(gameId) {
  const events = [];
  for (;;) {
    const page = await get(`games/${gameId}/events/?after=${events.at(-1)?.seq ?? 0}`);
    events.push(...page.events);
    if (!page.events.length || page.events.at(-1).seq >= page.version) return events;
  }
}

export async function analysisView(gameId) {
  const [game, analysis, events] = await Promise.all([
    get(`games/${gameId}/`), get(`games/${gameId}/analysis/`), allEvents(gameId),
  ]);
  const seatName = (seat) => game.seats[seat]?.name || `#${seat + 1}`;
  // The dice each decision chose among: the latest roll before it.
  const rolled = new Map();
  let dice = [];
  for (const event of events) {
    if (event.type === "dice_rolled") dice = event.data.dice;
    rolled.set(event.seq, dice);
  }
  const moveWords = (move, seq) => describeMove(game, move, rolled.get(seq - 1) ?? []);

  const seats = h("table", { class: "board", testid: "analysis-seats" },
    h("thead", {}, h("tr", {}, [t("player"), t("luck"), t("skillLoss"), t("accuracy"), t("total")]
      .map((word) => h("th", { scope: "col" }, word)))),
    h("tbody", {}, analysis.seats.map((seat) => h("tr", {},
      h("th", { scope: "row" }, seat.name), h("td", {}, number(seat.luck)),
      h("td", {}, number(seat.skill_loss)),
      h("td", {}, seat.accuracy === null ? "–" : percent(seat.accuracy)), h("td", {}, seat.final ?? "–")))));
  const decisions = h("table", { class: "board decisions", testid: "decisions" },
    h("thead", {}, h("tr", {}, [t("position"), t("player"), t("chosen"), t("best"), t("cost")]
      .map((word) => h("th", { scope: "col" }, word)))),
    h("tbody", {}, analysis.decisions.map((d) => h("tr", {
      class: d.loss > 0 ? "costly" : "", testid: "decision", "data-seq": d.seq,
    },
      h("td", {}, h("button", {
        class: "link", testid: "show-decision", "aria-label": t("showPosition", { seq: d.seq - 1 }),
        onclick: () => replay.go(d.seq - 1, true),
      }, d.seq - 1)),
      h("td", {}, seatName(d.seat)), h("td", {}, moveWords(d.move, d.seq)),
      h("td", {}, d.loss > 0 ? moveWords(d.best_move, d.seq) : "="),
      h("td", { testid: "loss" }, d.loss > 0 ? number(d.loss) : "0")))));
  // The decision taken at the position shown is marked in the list.
  const marked = (at) => {
    for (const row of decisions.querySelectorAll("tr[data-seq]")) {
      if (Number(row.dataset.seq) === at + 1) row.setAttribute("aria-current", "step");
      else row.removeAttribute("aria-current");
    }
  };
  const replay = replayCard(game, events, seatName, marked);
  return h("div", { class: "analysis-page", testid: "analysis-page", "data-game": gameId },
    h("section", { class: "card" },
      h("h1", {}, `${t("moveByMove")} · ${game.kind_name}`),
      h("p", {}, h("a", { href: `#/game/${gameId}` }, t("backToGame"))),
      seats,
      h("p", { class: "muted" }, analysis.method.skill_loss ?? "")),
    replay.card,
    h("section", { class: "card" }, h("h2", {}, t("decisionsTitle")),
      h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("decisionsTitle") },
        decisions)));
}

/** The replay: the position after event `at`, drawn as the game page draws a board. */
function replayCard(game, events, seatName, moved) {
  const kept = new Map(); // at -> the replay's answer
  const board = h("div", { class: "board-area", testid: "replay-board" });
  const where = h("p", { class: "turn", testid: "replay-at", "aria-live": "polite" });
  let at = game.version;
  let timer = null;
  const show = async () => {
    const shown = at;
    try {
      if (!kept.has(shown)) kept.set(shown, await get(`games/${game.id}/replay/?at=${shown}`));
    } catch (problem) {
      notice(problem.message);
      return;
    }
    if (shown !== at) return;
    const state = kept.get(shown).state;
    const event = events.find((e) => e.seq === shown);
    const words = [t("positionOf", { at: shown, n: game.version }), event ? eventWords(game, event) : null];
    where.textContent = words.filter(Boolean).join(" · ");
    card.dataset.at = shown;
    // Drawn as a watcher sees the game at that point: whose turn, no control enabled.
    const ctx = { watching: true, myTurn: false, act: () => {}, page: { draw: show }, seatName };
    const then = { ...game, state, status: shown < game.version ? "active" : game.status };
    board.replaceChildren(state === null ? h("p", { class: "muted" }, t("beforeStart")) : drawGame(then, ctx));
  };
  const go = (next, reveal = false) => {
    if (reveal) card.scrollIntoView({ block: "nearest" });
    at = Math.max(0, Math.min(game.version, next));
    moved(at);
    where.textContent = t("positionOf", { at, n: game.version });
    clearTimeout(timer);
    timer = setTimeout(show, kept.has(at) ? 0 : 150);
  };
  const step = (key, delta, word) =>
    h("button", {
      testid: `replay-${key}`, "aria-label": t(word), title: t(word), onclick: () => go(delta(at)),
    }, { first: "«", previous: "‹", next: "›", last: "»" }[key]);
  const card = h("section", { class: "card replay", testid: "replay", "aria-label": t("replay") },
    h("h2", {}, t("replay")),
    h("div", { class: "row" },
      step("first", () => 0, "firstMove"), step("previous", (a) => a - 1, "previousMove"),
      step("next", (a) => a + 1, "nextMove"), step("last", () => game.version, "lastMove")),
    where, h("p", { class: "muted" }, t("replayKeys")), board);
  const keys = { ArrowLeft: -1, ArrowRight: 1 };
  // The keys are the page's while the card is on it; once it has left, the listener goes.
  const onKey = (event) => {
    if (!card.isConnected) {
      if (card.dataset.at !== undefined) document.removeEventListener("keydown", onKey);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea")) return;
    if (event.key in keys) go(at + keys[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(game.version);
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  go(at);
  return { card, go };
}
