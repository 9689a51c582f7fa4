// The reference web client: routes (the URL's hash), signing in, the lobby, a new game, the
// leaderboards and tournaments. A game's page is game.js; the account's own page, account.js; a
// player's page, profile.js; a finished game move by move, analysis.js.

import { accountRefresh, accountView, adoptLanguage, languageSave } from "./account.js";
import "./attention.js"; // the tab's title says when it is your turn
import { analysisView } from "./analysis.js";
import { api, clientSeed, get, post, session, Problem } from "./api.js";
import { h, notice } from "./dom.js";
import { showGame, leaveGame } from "./game.js";
import { language, setLanguage, t } from "./i18n.js";
import { kinds } from "./kinds.js";
import { followAccount, onNote, stopFollowing } from "./notes.js";
import { optionFields } from "./options.js";
import { playerLink, profileView } from "./profile.js";
import { forgetSeeks, seekCard, seekFormShown, seekPairedMeanwhile, seeksShown } from "./seeks.js";
import { tournamentView } from "./tournaments.js";

const main = document.getElementById("main");
const picker = document.getElementById("language");

function nav() {
  picker.setAttribute("aria-label", t("language"));
  picker.value = language();
  const links = [h("a", { href: "#/", testid: "nav-lobby" }, t("lobby"))];
  links.push(h("a", { href: "#/boards", testid: "nav-boards" }, t("leaderboards")));
  if (session.user) {
    links.push(h("a", { href: "#/new", testid: "nav-new" }, t("newGame")));
    links.push(h("a", { href: "#/account", testid: "nav-account" }, t("account")));
    links.push(
      h("button", { class: "link", testid: "sign-out", onclick: signOut }, t("signOut")),
      h("a", { class: "who", testid: "who", href: `#/player/${encodeURIComponent(session.user.username)}` },
        session.user.name),
    );
  }
  document.getElementById("nav").replaceChildren(...links);
}

async function signOut() {
  await post("accounts/token/revoke/").catch(() => null);
  signedOut();
}

/** This browser's token is no more (signed out, or revoked from the account page). */
function signedOut() {
  stopFollowing();
  forgetSeeks();
  session.clear();
  location.hash = "#/";
  route();
}

function signInView() {
  let registering = true;
  const username = h("input", { name: "username", autocomplete: "username", required: true });
  const password = h("input", {
    name: "password", type: "password", autocomplete: "new-password", required: true, minlength: 8,
  });
  const title = h("h1");
  const submit = h("button", { type: "submit", class: "primary", testid: "auth-submit" });
  const other = h("button", { type: "button", class: "link", testid: "auth-switch" });
  const paint = () => {
    title.textContent = registering ? t("register") : t("signIn");
    submit.textContent = registering ? t("register") : t("signIn");
    other.textContent = registering ? t("haveAccount") : t("needAccount");
  };
  other.onclick = () => {
    registering = !registering;
    paint();
  };
  paint();
  const form = h(
    "form",
    { class: "card narrow", testid: "auth" },
    title,
    h("label", {}, t("username"), username),
    h("label", {}, t("password"), password),
    submit,
    other,
  );
  form.onsubmit = async (event) => {
    event.preventDefault();
    const body = { username: username.value.trim(), password: password.value };
    try {
      const answer = await post(registering ? "accounts/register/" : "accounts/token/", body);
      session.save(answer);
      adoptLanguage(answer.player);
      notice("");
      route();
    } catch (problem) {
      notice(problem.message);
    }
  };
  return form;
}

function gameRow(game, actions) {
  const seats = game.seats.map((seat) => (seat.open ? `(${t("open")})` : seat.name)).join(", ");
  return h(
    "li",
    { class: "game-row", "data-game": game.id, testid: "game-row" },
    h("span", { class: "kind" }, game.kind_name),
    h("span", { class: "seats" }, seats),
    h("span", { class: "status" }, game.status_name),
    h("span", { class: "actions" }, ...actions),
  );
}

async function lobbyView() {
  const mine = session.user ? get("games/?mine=true") : Promise.resolve({ results: [] });
  const [open, active, my, tournaments, seeking] = await Promise.all([
    get("games/?status=open"),
    get("games/?status=active"),
    mine,
    get("tournaments/?upcoming=true").catch(() => ({ results: [] })),
    session.user ? seekCard(route) : null,
  ]);
  const watch = (game) => h("a", { href: `#/watch/${game.id}`, class: "button" }, t("watch"));
  const joinButton = (game) =>
    h("button", {
      testid: "join",
      onclick: async () => {
        try {
          // The seat's own client seed: the game's hash is already shown (open games show it).
          await post(`games/${game.id}/join/`, { client_seed: clientSeed() });
          location.hash = `#/game/${game.id}`;
        } catch (problem) {
          notice(problem.message);
        }
      },
    }, t("join"));
  const list = (games, actions, testid) =>
    games.length
      ? h("ul", { class: "games", testid }, games.map((game) => gameRow(game, actions(game))))
      : h("p", { class: "muted" }, t("none"));
  const mineIds = new Set(my.results.map((game) => game.id));
  return h(
    "div",
    { class: "lobby" },
    session.user
      ? h("section", { class: "card" }, h("h2", {}, t("myGames")),
          list(my.results.filter((g) => g.status !== "finished" && g.status !== "aborted"),
            (game) => [
              game.status === "active" && game.your_seats.includes(game.turn_seat)
                ? h("span", { class: "badge", testid: "your-turn" }, t("yourTurn"))
                : null,
              h("a", { href: `#/game/${game.id}`, class: "button primary", testid: "play" }, t("play")),
            ],
            "my-games"))
      : signInView(),
    seeking,
    h("section", { class: "card" }, h("h2", {}, t("openGames")),
      list(open.results, (game) =>
        session.user && !mineIds.has(game.id) ? [joinButton(game), watch(game)] : [watch(game)],
        "open-games")),
    h("section", { class: "card" }, h("h2", {}, t("liveGames")),
      list(active.results, (game) => [watch(game)], "live-games")),
    h("section", { class: "card" }, h("h2", {}, t("tournaments")), tournamentList(tournaments)),
  );
}

function tournamentList(tournaments) {
  if (!tournaments.results.length) return h("p", { class: "muted" }, t("none"));
  return h("ul", { class: "games", testid: "tournaments" }, tournaments.results.map((item) =>
    h("li", { class: "game-row" },
      h("a", { class: "kind", href: `#/tournament/${item.id}`, testid: "tournament-link" }, item.name),
      h("span", { class: "seats" }, `${item.kind_name} · ${item.format_name}`),
      h("span", { class: "status" }, item.status_name),
      h("span", { class: "actions" },
        `${t("starts")}: ${new Date(item.starts_at).toLocaleString(language())}`),
    )));
}

/** A new game: its kind, seats and options, each kind's from GET kinds/ (kinds.js). */
async function newGameView() {
  const offered = (await kinds()).kinds;
  const kind = h("select", { name: "kind", testid: "kind" },
    offered.map((k) => h("option", { value: k.kind }, k.name)));
  const chosen = () => offered[kind.selectedIndex];
  const seats = h("ol", { class: "seats-list", testid: "seats" });
  const options = h("div");
  const addSeat = (type) => {
    const level = h("select", { name: "level", testid: "level", "aria-label": t("level") });
    const name = h("input", { name: "name", placeholder: t("name"), "aria-label": t("name"), maxlength: 40 });
    // The kind's computer levels, strongest first, by their names; the kind's default chosen.
    const fill = () => level.replaceChildren(...chosen().levels.map((l) => h("option", {
      value: l.level, selected: l.level === chosen().default_level,
    }, l.name)));
    fill();
    kind.addEventListener("change", fill);
    const row = h("li", { "data-type": type, testid: `seat-${type}` },
      h("span", {}, t(type)),
      type === "computer" ? level : null,
      type === "hotseat" ? name : null,
      type === "me" ? null : h("button", { type: "button", class: "link", onclick: () => row.remove() },
        t("remove")));
    row.seat = () => type === "computer" ? { type, level: level.value }
      : type === "hotseat" ? { type, name: name.value || t("hotseat") } : { type };
    seats.append(row);
  };
  const paintOptions = () => options.replaceChildren(optionFields(chosen().options));
  kind.addEventListener("change", paintOptions);
  paintOptions();
  addSeat("me");
  const form = h("form", { class: "card narrow", testid: "new-game" },
    h("h1", {}, t("newGame")),
    h("label", {}, t("kind"), kind),
    h("h2", {}, t("seats")), seats,
    h("div", { class: "row" }, ["computer", "hotseat", "open"].map((type) =>
      h("button", { type: "button", testid: `add-${type}`, onclick: () => addSeat(type) },
        `+ ${t(type)}`))),
    options,
    h("button", { type: "submit", class: "primary", testid: "create" }, t("create")));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const body = {
      kind: kind.value,
      seats: [...seats.children].map((row) => row.seat()),
      options: options.firstChild.values(),
    };
    try {
      const game = await post("games/", body);
      // Nobody to wait for: start at once.
      if (!game.seats.some((seat) => seat.open)) await post(`games/${game.id}/start/`);
      location.hash = `#/game/${game.id}`;
    } catch (problem) {
      notice(problem.message);
    }
  };
  return form;
}

/** One leaderboard per kind GET kinds/ lists, titled by its name; then the tournaments. */
async function boardsView() {
  const offered = (await kinds()).kinds;
  const rows = await Promise.all(offered.map((kind) => get(`leaderboards/${kind.kind}/`)));
  const board = (kind, rows) => h("section", { class: "card", testid: `board-${kind.kind}` },
    h("h2", {}, kind.name),
    rows.length ? h("table", { class: "board" },
      h("tr", {}, h("th", {}, t("place")), h("th", {}, t("player")), h("th", {}, t("rating"))),
      rows.map((row, i) => h("tr", {}, h("td", {}, row.rank ?? i + 1),
        h("td", {}, playerLink(row, row.name)),
        h("td", {}, Math.round(row.rating))))) : h("p", { class: "muted" }, t("none")));
  const tournaments = await get("tournaments/").catch(() => ({ results: [] }));
  return h("div", { class: "lobby" }, offered.map((kind, i) => board(kind, rows[i])),
    h("section", { class: "card" }, h("h2", {}, t("tournaments")), tournamentList(tournaments)));
}

let routing = 0; // the latest route: a slower earlier one must not draw over it

export async function route() {
  const mine = ++routing;
  leaveGame();
  nav();
  followAccount();
  notice("");
  const [, page, id] = location.hash.split("/");
  try {
    let view;
    if (page === "game" || page === "watch") {
      main.replaceChildren(h("p", { class: "muted" }, t("connecting")));
      await showGame(main, id, { watching: page === "watch" || !session.user });
      return;
    } else if (page === "new" && session.user) view = await newGameView();
    else if (page === "account" && session.user) view = await accountView(route, signedOut);
    else if (page === "boards") view = await boardsView();
    else if (page === "tournament") view = await tournamentView(id, route);
    else if (page === "player") view = await profileView(decodeURIComponent(id));
    else if (page === "analysis") view = await analysisView(id);
    else view = await lobbyView();
    if (mine === routing) {
      main.replaceChildren(view);
      seekFormShown(main);
    }
  } catch (problem) {
    if (!(problem instanceof Problem)) throw problem;
    notice(problem.message);
  }
}

setLanguage(language());
// Signed in, the language chosen is the account's (account.js); a refusal is shown once the
// page is drawn in the language chosen all the same.
picker.addEventListener("change", async () => {
  setLanguage(picker.value);
  const refused = session.user ? await languageSave(picker.value).then(() => null, (p) => p) : null;
  await route();
  if (refused) notice(refused.message);
});
window.addEventListener("hashchange", route);
// The account's notes redraw the lobby (whose turn it is in my games); a game's page has its own
// stream. A seek paired, or a rematch started, goes to the new game: the person asked for it.
// When the stream (re)opens, a `seek_paired` sent while it was down is not replayed: the seeks
// the lobby showed are read, and one paired meanwhile goes to its game all the same.
onNote((note) => {
  const [, page, id] = location.hash.split("/");
  if (note.type === "seek_paired") {
    forgetSeeks();
    location.hash = `#/game/${note.game}`;
  } else if (note.type === "stream_opened") {
    if (seeksShown()) afterMissedNotes();
  } else if (note.type === "rematch_started" && (page !== "game" || id === note.previous)) {
    location.hash = `#/game/${note.game}`;
  } else if (!page || page === "") route();
});

/** The stream opened again: a seek paired meanwhile goes to its game, as `seek_paired` would;
 * else the lobby is redrawn (a seek withdrawn or expired meanwhile leaves it). */
async function afterMissedNotes() {
  const game = await seekPairedMeanwhile();
  if (game) location.hash = `#/game/${game}`;
  else if (!location.hash.split("/")[1]) route();
}

route();
// The account as it is now: renamed, or another language chosen, on another device.
if (session.user) {
  // Refused (the token revoked meanwhile: api.js forgot it), the page signs out.
  accountRefresh().then((changed) => changed && route(), () => session.user || route());
}
export { api };
