// The account's own page: change the password (POST accounts/password/, with the current one:
// this browser stays signed in, every other token and session ends), and the tokens it is
// signed in with (GET accounts/tokens/), each with a Revoke button (DELETE accounts/tokens/{id}/).
// Revoking this browser's own token signs it out.

import { api, get, post } from "./api.js";
import { h, notice } from "./dom.js";
import { language, t } from "./i18n.js";

const when = (iso) => (iso ? new Date(iso).toLocaleString(language()) : t("unknown"));

function passwordForm(redraw) {
  const current = h("input", {
    name: "current_password", type: "password", autocomplete: "current-password", required: true,
  });
  const fresh = h("input", {
    name: "new_password", type: "password", autocomplete: "new-password", required: true,
    minlength: 8,
  });
  const form = h("form", { class: "card", testid: "password" },
    h("h2", {}, t("changePassword")),
    h("label", {}, t("currentPassword"), current),
    h("label", {}, t("newPassword"), fresh),
    h("button", { type: "submit", class: "primary", testid: "password-submit" }, t("changePassword")));
  form.onsubmit = async (event) => {
    event.preventDefault();
    try {
      await post("accounts/password/", {
        current_password: current.value, new_password: fresh.value,
      });
      await redraw();
      notice(t("passwordChanged"));
    } catch (problem) {
      notice(problem.message);
    }
  };
  return form;
}

function tokenRow(token, redraw, signedOut) {
  const revoke = async () => {
    try {
      await api("DELETE", `accounts/tokens/${token.id}/`);
      if (token.current) signedOut();
      else await redraw();
    } catch (problem) {
      notice(problem.message);
    }
  };
  return h("tr", { testid: "token", "data-current": token.current ? "true" : "false" },
    h("td", {}, when(token.created), token.current
      ? h("span", { class: "badge", testid: "this-device" }, t("thisDevice")) : null),
    h("td", {}, when(token.last_used)),
    h("td", {}, when(token.expiry)),
    h("td", {}, h("button", { testid: "revoke", onclick: revoke }, t("revoke"))));
}

/** The page; `redraw` draws it again, `signedOut` forgets this browser's token. */
export async function accountView(redraw, signedOut) {
  const tokens = await get("accounts/tokens/");
  return h("div", { class: "lobby", testid: "account" },
    passwordForm(redraw),
    h("section", { class: "card" }, h("h2", {}, t("tokens")),
      h("table", { class: "board", testid: "tokens" },
        h("tr", {}, h("th", {}, t("created")), h("th", {}, t("lastUsed")), h("th", {}, t("expires")),
          h("th", {}, "")),
        tokens.map((token) => tokenRow(token, redraw, signedOut)))));
}
