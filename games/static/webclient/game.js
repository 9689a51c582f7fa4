// A game's page, to play or to watch: the game answer (GET games/{id}/) draws everything, the
// game's event stream says when to read it again and feeds the list of moves. Moves are POSTed
// with the version read (expected_version): a 409 stale_version means something moved first
// (the computer, the auto-confirm), and the next read shows what. A seat that has no client seed
// for the fair dice gets one of this page's own with its first move: the game answer drawn
// before it showed the hash the server committed to, so the server's seed was drawn first.
// Ending a game early is ending.js's; a finished game's proof of its dice, proof.js's.

import { clientSeed, gameStream, get, post, Problem, session } from "./api.js";
import { h, notice } from "./dom.js";
import { describeEvent, drawGame } from "./drawings.js";
import { endingPanel } from "./ending.js";
import { language, t } from "./i18n.js";
import { kindOf } from "./kinds.js";
import { onNote } from "./notes.js";
import { playerLink } from "./profile.js";
import { proofCard } from "./proof.js";

let current = null; // the page shown: its stream and timers, closed on leaving

// The client seed this page gives each seat it moves for ("game:seat"), drawn once: a move sent
// again after a refusal gives the same.
const seeds = new Map();
function seedFor(game) {
  const fair = game.fairness?.seats?.[game.turn_seat];
  if (!fair || fair.fixed || fair.client_seed) return undefined; // given already, or version 1
  const key = `${game.id}:${game.turn_seat}`;
  if (!seeds.has(key)) seeds.set(key, clientSeed());
  return seeds.get(key);
}

// Rematch offers by finished game: read once (GET games/{id}/rematch/, for offers made before
// the page opened), then heard on the account stream (`rematch_offered`) or made here.
const rematches = new Map();
function rematchOf(gameId) {
  if (!rematches.has(gameId)) {
    rematches.set(gameId, { seats: new Set(), mine: false, read: false, rematch: null });
  }
  return rematches.get(gameId);
}

function readRematch(game, offers) {
  offers.read = true;
  get(`games/${game.id}/rematch/`).then((answer) => {
    for (const seat of answer.offered_seats) offers.seats.add(seat);
    if (answer.offered_seats.some((seat) => game.your_seats.includes(seat))) offers.mine = true;
    offers.rematch = answer.rematch;
    current?.draw?.();
  }, () => {
    offers.read = false; // tried again at the next redraw
  });
}
onNote((note) => {
  if (note.type === "rematch_started") rematchOf(note.previous).rematch = note.game;
  if (note.type !== "rematch_offered") return;
  rematchOf(note.game).seats.add(note.seat);
  if (current?.gameId === note.game) current.draw?.();
});

export function leaveGame() {
  if (!current) return;
  current.source?.close();
  clearInterval(current.ticker);
  current = null;
}

function seatName(game, seat) {
  return game.seats[seat]?.name || `#${seat + 1}`;
}

/** An event of the log in words: those every kind has here, the kind's own from its module
 * (drawings.js), else the event's type. */
export function eventWords(game, event) {
  const d = event.data;
  const name = d.seat === undefined ? "" : seatName(game, d.seat);
  switch (event.type) {
    case "game_started": return t("started");
    case "dice_rolled": return t("rolled", { name, dice: d.dice.join(" ") });
    case "game_finished": return t("over");
    default: return describeEvent(game, event, name) ?? event.type;
  }
}

export async function showGame(main, gameId, { watching }) {
  leaveGame();
  const page = { gameId, watching, game: null, seen: new Set(), reading: null, again: false,
    rolled: false, asking: null, proof: null, loaded: false, turn: null };
  current = page;
  const board = h("div", { class: "board-area", testid: "board" });
  // Scrolled by the keyboard too: it takes the focus.
  const log = h("ol", { class: "log", testid: "log", reversed: true, tabindex: "0", "aria-label": t("events") });
  const title = h("h1", { testid: "game-title" });
  const players = h("p", { class: "players", testid: "players" });
  const live = h("span", { class: "live", testid: "live" }, t("connecting"));
  // What a screen reader says as the game goes on: each move after the page opened, and whose
  // turn it is when that changes (the lines are added, the oldest dropped).
  const spoken = h("div", { class: "sr-only", "aria-live": "polite", testid: "announce" });
  const say = (text) => {
    spoken.append(h("p", {}, text));
    while (spoken.children.length > 3) spoken.firstChild.remove();
  };
  const view = h("div", { class: "game", testid: "game", "data-game": gameId },
    h("div", { class: "game-head" }, title, live,
      watching ? h("span", { class: "badge", testid: "watching" }, t("watching")) : null),
    players, board, spoken,
    h("section", { class: "card events" }, h("h2", {}, t("events")), log));
  main.replaceChildren(view);

  const note = (event) => {
    if (page.seen.has(event.seq)) return;
    page.seen.add(event.seq);
    if (event.type === "dice_rolled") page.rolled = true; // too late to abort
    const words = [eventWords(page.game, event), ...event.messages.map((m) => m.text)];
    if (page.loaded) say(words.join(" · "));
    const item = h("li", { "data-seq": event.seq, "data-type": event.type, class: event.automatic ? "auto" : "" },
      h("span", { class: "seq" }, event.seq), words.join(" · "));
    // Newest first, by seq: a move's own answer may come before the stream's earlier events.
    const later = [...log.children].find((li) => Number(li.dataset.seq) < event.seq);
    log.insertBefore(item, later ?? null);
  };

  const draw = () => {
    const game = page.game;
    if (current !== page || !game) return;
    view.dataset.version = game.version;
    view.dataset.status = game.status;
    title.textContent = `${game.kind_name} · ${game.status_name}`;
    players.replaceChildren(...game.seats.flatMap((seat, i) =>
      [i ? " · " : "", seat.open ? `(${t("open")})` : playerLink(seat.player, seat.name)]));
    const myTurn = !watching && game.status === "active" && game.your_seats.includes(game.turn_seat);
    const ctx = { watching, myTurn, act, page, seatName: (s) => seatName(game, s) };
    const parts = [];
    announceTurn(game, myTurn);
    if (game.status === "open") parts.push(openPanel(game, page));
    if (game.state) parts.push(drawGame(game, ctx));
    if (game.status === "active") parts.unshift(timerLine(game, page));
    if (game.status === "finished" || game.status === "aborted") {
      parts.unshift(resultPanel(game, watching ? null : rematchPanel(game)));
    }
    parts.push(endingPanel(game, page));
    if (game.fairness?.server_seed_hash) parts.push(fairLine(game));
    if (game.fairness?.server_seed) {
      page.proof ??= proofCard(game, (s) => seatName(game, s)); // checked once, kept across redraws
      parts.push(page.proof);
    }
    // The board's buttons are new ones: the control that had the keyboard's focus gets it back
    // (found again by its test id), so a keyboard player's place survives a move arriving.
    const focused = board.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    board.replaceChildren(...parts.filter(Boolean));
    if (focused) board.querySelector(`[data-testid="${CSS.escape(focused)}"]`)?.focus();
  };
  // Says whose turn it is when the turn passes (not at the first drawing, which shows it).
  const announceTurn = (game, myTurn) => {
    const turn = game.status === "active" ? game.turn_seat : null;
    if (turn !== null && page.turn !== null && turn !== page.turn) {
      say(myTurn ? t("yourTurn") : t("toPlay", { name: seatName(game, turn) }));
    }
    page.turn = turn;
  };
  page.draw = draw;

  const read = async () => {
    // One read at a time; events arriving meanwhile ask for one more.
    if (page.reading) {
      page.again = true;
      return;
    }
    let changed = false;
    page.reading = (async () => {
      do {
        page.again = false;
        const game = await get(`games/${gameId}/`);
        if (newer(game, page.game)) {
          page.game = game;
          changed = true;
        }
      } while (page.again);
    })();
    try {
      await page.reading;
    } finally {
      page.reading = null;
    }
    // Redrawing replaces the board's buttons: a tap that lands during a needless redraw (the
    // stream echoing this page's own move) would be lost, its mousedown and mouseup on two nodes.
    if (changed) draw();
  };

  async function act(move) {
    try {
      const body = { ...move, expected_version: page.game.version };
      const seed = seedFor(page.game);
      if (seed) body.client_seed = seed;
      const answer = await post(`games/${gameId}/moves/`, body);
      for (const event of answer.events) note(event);
      if (newer(answer.game, page.game)) page.game = answer.game;
      draw();
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      if (problem.code !== "stale_version") notice(problem.message);
      await read();
    }
  }
  page.act = act;
  page.read = read;

  page.game = await get(`games/${gameId}/`);
  // What GET kinds/ says of the game's kind (whether the server auto-confirms its turns); a kind
  // it no longer lists, or an answer that failed, leaves the page without the countdown.
  page.kind = await kindOf(page.game.kind).catch(() => undefined);
  const history = await get(`games/${gameId}/events/?after=0`);
  if (current !== page) return; // left while loading
  for (const event of history.events) note(event);
  page.loaded = true; // from now on each event is news, said aloud
  draw();
  const after = Math.max(0, ...page.seen);
  page.source = gameStream(gameId, after, {
    onEvent: (event) => {
      note(event);
      read();
    },
    onOpen: () => {
      live.textContent = t("live");
      live.classList.add("on");
    },
    onDown: () => {
      live.textContent = t("connecting");
      live.classList.remove("on");
    },
  });
  // A quarter second's tick for the countdowns; an open game has no events until it starts, so
  // its page reads it again every few seconds to show who joined.
  let polled = Date.now();
  page.ticker = setInterval(() => {
    page.tick?.();
    if (page.game?.status === "open" && Date.now() - polled > 2000) {
      polled = Date.now();
      read().catch((problem) => notice(problem.message)); // cancelled meanwhile: 404
    }
  }, 250);
}

/** The game's timer (`deadline_at`): when the server plays for the seat to move. In a kind the
 * server auto-confirms (GET kinds/'s `auto_confirm`), after a turn's last roll (the state's
 * `rolls_left`) that is the auto-confirm, if the game has one; else the turn clock's end. Redrawn by the page's
 * ticker; the server's deadline, not the moment this page saw the move, so a page opened late
 * or a watcher counts the same seconds as the player. */
function timerLine(game, page) {
  const s = game.state;
  const autoConfirm =
    Boolean(page.kind?.auto_confirm) && s?.rolls_left === 0 && s.auto_confirm_seconds > 0;
  const line = h("p", { class: "countdown", testid: autoConfirm ? "countdown" : "clock", hidden: true });
  const due = game.deadline_at ? Date.parse(game.deadline_at) : null;
  page.tick = () => {
    line.hidden = due === null;
    if (due === null) return;
    const left = Math.max(0, Math.ceil((due - Date.now()) / 1000));
    const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    line.textContent = autoConfirm ? t("autoConfirmIn", { s: left }) : t("clockLeft", { clock });
    line.classList.toggle("short", autoConfirm || left <= 10);
  };
  page.tick();
  return line;
}

/** Whether a read of the game tells more than the one drawn: a later version, or the same
 * version answered differently (an open game's seats, a finished game's result). */
function newer(game, shown) {
  if (!shown || game.version > shown.version) return true;
  return game.version === shown.version && JSON.stringify(game) !== JSON.stringify(shown);
}

/** The fair dice's commitment, shown from the game's first answer (the whole hash on hover). */
function fairLine(game) {
  const hash = game.fairness.server_seed_hash;
  return h("p", { class: "muted fair", testid: "fair-dice", title: hash },
    t("fairDice", { hash: hash.slice(0, 16) }));
}

function openPanel(game, page) {
  const mine = game.your_seats.length > 0;
  return h("section", { class: "card" }, h("h2", {}, t("waiting")),
    h("ul", {}, game.seats.map((seat) => h("li", {}, seat.open ? `(${t("open")})` : seat.name))),
    mine && game.created_by?.id === session.user?.id && !game.seats.some((s) => s.open)
      ? h("button", {
          class: "primary",
          testid: "start",
          onclick: () => post(`games/${game.id}/start/`).then(page.read, (p) => notice(p.message)),
        }, t("start"))
      : null);
}

function resultPanel(game, rematch) {
  const places = [...game.seats].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  const winners = places.filter((seat) => seat.place === 1).map((seat) => seat.name).join(", ");
  const svg = `/api/v1/games/${game.id}/analysis.svg?lang=${language()}`;
  return h("section", { class: "card result", testid: "result" },
    h("h2", {}, t("finished")),
    winners ? h("p", { class: "winner", testid: "winner" }, t("winner", { name: winners })) : null,
    rematch,
    h("table", { class: "board" }, places.map((seat) =>
      h("tr", {}, h("td", {}, seat.place ?? "–"), h("td", {}, playerLink(seat.player, seat.name)),
        h("td", {}, seat.final_total ?? "")))),
    game.status === "finished"
      ? h("p", { class: "row" },
          h("a", { href: `#/analysis/${game.id}`, class: "button", testid: "move-by-move" }, t("moveByMove")),
          h("a", { href: svg, target: "_blank", rel: "noopener", testid: "analysis" }, t("analysis")))
      : null,
    game.status === "finished" ? h("img", { class: "analysis", src: svg, alt: t("analysis") }) : null);
}

/** A finished game's Rematch (POST games/{id}/rematch/): who offered already, and my offer; the
 * last offer's answer names the new game, and everyone's stream says `rematch_started` (app.js
 * goes there). */
function rematchPanel(game) {
  if (game.status !== "finished" || !game.your_seats.length) return null;
  const offers = rematchOf(game.id);
  if (!offers.read) readRematch(game, offers);
  if (offers.rematch) {
    return h("div", { class: "rematch row" },
      h("a", { class: "button primary", testid: "to-rematch", href: `#/game/${offers.rematch}` }, t("toRematch")));
  }
  const others = [...offers.seats].filter((seat) => !game.your_seats.includes(seat));
  const offered = others.length
    ? h("p", { class: "badge", testid: "rematch-offered" },
        t("rematchOffered", { name: others.map((seat) => seatName(game, seat)).join(", ") }))
    : null;
  if (offers.mine) {
    return h("div", { class: "rematch" }, offered,
      h("p", { class: "muted", testid: "rematch-waiting" }, t("rematchWaiting")));
  }
  const offer = async () => {
    try {
      const answer = await post(`games/${game.id}/rematch/`);
      offers.mine = true;
      if (answer.rematch) {
        offers.rematch = answer.rematch;
        location.hash = `#/game/${answer.rematch}`;
        return;
      }
      for (const seat of answer.offered_seats) offers.seats.add(seat);
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      if (problem.code === "rematch_already_offered") offers.mine = true;
      else notice(problem.message);
    }
    current?.draw?.();
  };
  return h("div", { class: "rematch row" }, offered,
    h("button", { class: "primary", testid: "rematch", onclick: offer }, t("rematch")));
}
