// The fair dice's proof, once a game is over (docs/api.md, "Fair dice"): the game answer's `fairness`
// reveals the server's seed; this page checks, with the browser's own Web Crypto and nothing of
// the server's, that its SHA-256 is the hash shown from the start and that every roll of the log
// (GET games/{id}/events/, page by page) is the one the seeds give. Anyone can check so: the
// page needs no account, the events are public.

import { get } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const PAGE = 500; // the events answer's largest page (the server's MAX_EVENT_PAGE)

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => new Uint8Array(text.match(/../g).map((pair) => parseInt(pair, 16)));

/** Every event of the game's log, oldest first. */
export async function wholeLog(gameId) {
  const events = [];
  for (;;) {
    const after = events.length ? events[events.length - 1].seq : 0;
    const page = await get(`games/${gameId}/events/?after=${after}&limit=${PAGE}`);
    events.push(...page.events);
    if (page.events.length < PAGE) return events;
  }
}

/** The dice a roll threw, in order: the positions it did not hold, ascending (a `held` list of
 * positions kept, as some kinds give), else every die of the event. */
function thrown(data) {
  if (!Array.isArray(data.held)) return data.dice;
  return data.dice.filter((_, position) => !data.held.includes(position));
}

/** `count` dice from HMAC-SHA256(key, `${prefix}:${block}`), block 0, 1, ...: each byte under
 * 252 gives the die byte % 6 + 1, a byte of 252 or more is skipped (every face equally likely). */
async function diceFrom(key, prefix, count) {
  const faces = [];
  const text = new TextEncoder();
  for (let block = 0; faces.length < count; block++) {
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, text.encode(`${prefix}:${block}`)));
    for (const byte of digest) if (byte < 252) faces.push((byte % 6) + 1);
  }
  return faces.slice(0, count);
}

/** What the seeds say of the game's log: `{ hashHolds, rolls, wrong: [...] }`, each wrong roll
 * with its event's seq, seat, nonce, the dice rolled and the dice the seeds give. Version 2
 * numbers each seat's rolls from 0 and takes its client seed from its first roll (one that names
 * none is wrong); version 1 numbers the game's rolls and uses the game's one client seed. */
export async function check(fairness, events) {
  const seed = fromHex(fairness.server_seed);
  const hashHolds = hex(await crypto.subtle.digest("SHA-256", seed)) === fairness.server_seed_hash;
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const seeds = new Map();
  const made = new Map();
  const wrong = [];
  let rolls = 0;
  for (const event of events) {
    if (event.type !== "dice_rolled") continue;
    const { seat } = event.data;
    const actual = thrown(event.data);
    let nonce = rolls;
    let prefix = `${fairness.client_seed}:${nonce}`;
    let unseeded = false;
    if (fairness.version !== 1) {
      nonce = made.get(seat) ?? 0;
      made.set(seat, nonce + 1);
      if (nonce === 0) {
        unseeded = typeof event.data.client_seed !== "string";
        seeds.set(seat, event.data.client_seed ?? "");
      }
      prefix = `${seeds.get(seat)}:${seat}:${nonce}`;
    }
    rolls += 1;
    const expected = await diceFrom(key, prefix, actual.length);
    if (unseeded || expected.join() !== actual.join()) {
      wrong.push({ seq: event.seq, seat, nonce, actual, expected, unseeded });
    }
  }
  return { hashHolds, rolls, wrong };
}

/** The proof's card for a game that is over (its seed revealed): the seeds, then the check's
 * outcome once computed. `seatName(seat)` names a seat. */
export function proofCard(game, seatName) {
  const fair = game.fairness;
  const outcome = h("p", { testid: "proof-result", class: "muted" }, t("proofChecking"));
  const seeds = fair.version === 1
    ? [h("li", {}, `${t("clientSeed")}: `, h("code", {}, JSON.stringify(fair.client_seed)))]
    : (fair.seats ?? []).map((s) => h("li", { testid: "proof-seat" },
        `${seatName(s.seat)}: `, h("code", {}, JSON.stringify(s.client_seed))));
  const card = h("section", { class: "card proof", testid: "proof" },
    h("h2", {}, t("proofTitle")),
    h("dl", {},
      h("dt", {}, t("algorithm")), h("dd", {}, `${fair.algorithm} (v${fair.version})`),
      h("dt", {}, "SHA-256"), h("dd", {}, h("code", { testid: "proof-hash" }, fair.server_seed_hash)),
      h("dt", {}, t("serverSeed")), h("dd", {}, h("code", { testid: "proof-seed" }, fair.server_seed))),
    h("ul", {}, seeds),
    outcome);
  if (!globalThis.crypto?.subtle) {
    outcome.textContent = t("proofNoCrypto"); // Web Crypto is only there over HTTPS (or localhost)
    return card;
  }
  wholeLog(game.id).then((events) => check(fair, events)).then((result) => {
    outcome.replaceChildren(...words(result, seatName));
    outcome.className = result.hashHolds && !result.wrong.length ? "ok" : "warning";
    outcome.dataset.ok = String(result.hashHolds && !result.wrong.length);
  }, (problem) => {
    outcome.textContent = problem.message;
  });
  return card;
}

/** The check's outcome in words: the hash, then every roll, or each roll that does not match. */
function words(result, seatName) {
  const lines = [result.hashHolds ? t("proofHashHolds") : t("proofHashWrong")];
  if (!result.wrong.length) lines.push(t("proofAllMatch", { n: result.rolls }));
  for (const w of result.wrong) {
    const where = { seq: w.seq, name: seatName(w.seat), n: w.nonce + 1 };
    lines.push(w.unseeded ? t("proofUnseeded", where)
      : t("proofMismatch", { ...where, actual: w.actual.join(" "), expected: w.expected.join(" ") }));
  }
  return lines.map((line) => h("span", { class: "line" }, line));
}
