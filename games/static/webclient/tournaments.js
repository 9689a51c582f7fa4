// A tournament: its entrants (enter or withdraw before the start), standings with tie-breaks,
// and each round's games, each one a link to watch it live.

import { get, post, session } from "./api.js";
import { h, notice } from "./dom.js";
import { language, statusWord, t } from "./i18n.js";
import { playerLink } from "./profile.js";

export async function tournamentView(id, redraw) {
  const [item, standings, rounds] = await Promise.all([
    get(`tournaments/${id}/`),
    get(`tournaments/${id}/standings/`),
    get(`tournaments/${id}/rounds/`),
  ]);
  const me = session.user?.username;
  const entered = item.entrants.some((entrant) => entrant.username === me);
  const act = (what) => async () => {
    try {
      await post(`tournaments/${id}/${what}/`);
      redraw();
    } catch (problem) {
      notice(problem.message);
    }
  };
  const canEnter = session.user && ["scheduled", "registration"].includes(item.status);
  return h("div", { class: "lobby", testid: "tournament", "data-status": item.status },
    h("section", { class: "card" },
      h("h1", {}, item.name),
      h("p", {}, `${item.kind_name} · ${item.format_name} · ${item.status_name}`),
      h("p", {}, `${t("starts")}: ${new Date(item.starts_at).toLocaleString(language())}`),
      h("h2", {}, `${t("entrants")} (${item.entrants.length}/${item.max_entrants})`),
      h("ul", { testid: "entrants" }, item.entrants.map((entrant) => entrant.withdrawn_at
        ? h("li", { class: "muted", "data-withdrawn": "true" }, `${entrant.name} (${t("forfeited")})`)
        : h("li", {}, playerLink(entrant, entrant.name)))),
      canEnter
        ? h("button", {
            class: entered ? "" : "primary",
            testid: entered ? "withdraw" : "enter",
            onclick: act(entered ? "withdraw" : "register"),
          }, entered ? t("withdraw") : t("enter"))
        : null),
    h("section", { class: "card" }, h("h2", {}, t("standings")),
      standings.length
        ? h("table", { class: "board", testid: "standings" },
            h("tr", {}, h("th", {}, t("place")), h("th", {}, t("player")), h("th", {}, t("points")),
              h("th", {}, "Buchholz"), h("th", {}, "S-B")),
            standings.map((row) => h("tr", {}, h("td", {}, row.rank), h("td", {}, playerLink(row.entrant, row.entrant.name)),
              h("td", {}, row.points), h("td", {}, row.buchholz), h("td", {}, row.sonneborn_berger))))
        : h("p", { class: "muted" }, t("none")),
      rounds.map((round) => h("div", {},
        h("h2", {}, `${t("round")} ${round.number}`),
        h("ul", { class: "games" }, round.games.map((game) => h("li", { class: "game-row" },
          h("span", {}, `#${game.table}`),
          h("span", { class: "seats" }, game.seats.map((seat) => seat.name).join(" – ")),
          h("span", {}, statusWord(game.status)),
          h("a", { class: "button", href: `#/watch/${game.game}` }, t("watch")))))))));
}
