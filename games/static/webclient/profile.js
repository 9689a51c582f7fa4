// A player's page: the profile (GET players/{username}/: ratings, latest games and tournaments)
// and the statistics (GET players/{username}/stats/: the record per kind, the rating history).
// Kinds are named as GET kinds/ names them; a kind it no longer lists, by its code.

import { get } from "./api.js";
import { h } from "./dom.js";
import { language, percent, statusWord, t } from "./i18n.js";
import { kinds } from "./kinds.js";

/** A link to the page of `player` (`{ username, name }`), or the plain `name` for a seat that is
 * no account (the computer, a hot-seat player). */
export function playerLink(player, name) {
  if (!player?.username) return name;
  return h("a", { href: `#/player/${encodeURIComponent(player.username)}`, testid: "player-link" },
    name ?? player.name);
}

const number = (value, digits = 1) =>
  value === null || value === undefined ? "–"
    : new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);
const date = (at) => new Date(at).toLocaleDateString(language());

export async function profileView(username) {
  const path = `players/${encodeURIComponent(username)}/`;
  const [profile, stats, offered] = await Promise.all([get(path), get(`${path}stats/`), kinds()]);
  const kindName = (code) => offered.kinds.find((kind) => kind.kind === code)?.name ?? code;
  // A table scrolls sideways on a narrow screen (and by the keyboard: it takes the focus).
  const table = (label, testid, head, rows) => rows.length
    ? h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": label },
        h("table", { class: "board", testid },
          h("thead", {}, h("tr", {}, head.map((word) => h("th", { scope: "col" }, word)))),
          h("tbody", {}, rows)))
    : h("p", { class: "muted" }, t("none"));
  const ratings = table(t("ratings"), "ratings", [t("kind"), t("rating"), t("games")],
    profile.ratings.map((r) => h("tr", {}, h("td", {}, kindName(r.kind)),
      h("td", {}, `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`,
        r.provisional ? h("span", { class: "badge" }, t("provisional")) : null),
      h("td", {}, r.games))));
  const played = stats.kinds.filter((record) => record.games > 0);
  const records = table(t("statistics"), "records",
    [t("kind"), t("games"), t("wins"), t("averageScore"), t("luck"), t("skillLoss"), t("accuracy")],
    played.map((r) => h("tr", { "data-kind": r.kind }, h("td", {}, kindName(r.kind)),
      h("td", {}, r.games), h("td", {}, r.wins), h("td", {}, number(r.average_score)),
      h("td", {}, number(r.average_luck)), h("td", {}, number(r.average_skill_loss)),
      h("td", {}, r.average_accuracy === null ? "–" : percent(r.average_accuracy)))));
  const games = table(t("latestGames"), "player-games", [t("date"), t("kind"), t("result")],
    profile.games.map((g) => h("tr", {}, h("td", {}, h("a", { href: `#/game/${g.game}` }, date(g.created_at))),
      h("td", {}, kindName(g.kind)),
      h("td", {}, g.status === "finished"
        ? [t("placed", { place: g.place ?? "–", total: g.total ?? "–" }), " · ",
            h("a", { href: `#/analysis/${g.game}` }, t("moveByMove"))]
        : statusWord(g.status)))));
  const tournaments = table(t("tournaments"), "player-tournaments",
    [t("tournaments"), t("kind"), t("starts")],
    profile.tournaments.map((entry) => h("tr", {},
      h("td", {}, h("a", { href: `#/tournament/${entry.tournament}` }, entry.name),
        entry.withdrawn ? ` (${t("withdrawn")})` : ""),
      h("td", {}, kindName(entry.kind)), h("td", {}, date(entry.starts_at)))));
  return h("div", { class: "lobby", testid: "player", "data-username": profile.username },
    h("section", { class: "card" },
      h("h1", {}, profile.name),
      h("p", { class: "muted" }, `${profile.username} · ${t("joined", { date: date(profile.date_joined) })}`),
      h("h2", {}, t("ratings")), ratings,
      history(stats.rating_history, kindName)),
    h("section", { class: "card" }, h("h2", {}, t("statistics")), records),
    h("section", { class: "card" }, h("h2", {}, t("latestGames")), games),
    h("section", { class: "card" }, h("h2", {}, t("tournaments")), tournaments));
}

/** Each kind's rating after each rated game, as a line: a picture whose words say the span. */
function history(points, kindName) {
  const byKind = new Map();
  for (const point of points) byKind.set(point.kind, [...(byKind.get(point.kind) ?? []), point]);
  return [...byKind].map(([kind, line]) => {
    const values = [line[0].rating_before, ...line.map((point) => point.rating_after)];
    const low = Math.min(...values) - 10;
    const high = Math.max(...values) + 10;
    const x = (i) => (i * 300) / (values.length - 1);
    const y = (v) => 60 - ((v - low) * 60) / (high - low);
    const words = t("ratingHistory", {
      kind: kindName(kind), from: Math.round(values[0]), to: Math.round(values.at(-1)), n: line.length,
    });
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 300 60");
    svg.setAttribute("class", "history");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    path.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
    svg.append(path);
    return h("figure", { class: "history", testid: `history-${kind}` }, svg, h("figcaption", {}, words));
  });
}
