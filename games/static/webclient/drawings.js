// Which module draws a game of each kind, and words its own events: the one place in the
// client, besides the kinds' own modules, that names a kind. A kind the server plays and this
// table lacks is drawn plainly (generic.js), its own events shown by their type.

import { drawGeneric, genericMove } from "./generic.js";
import { describeTenThousand, drawTenThousand, tenThousandMove } from "./tenk.js";
import { describeYatzy, drawYatzy, yatzyMove } from "./yatzy.js";

const KINDS = {
  yatzy: { draw: drawYatzy, describe: describeYatzy, move: yatzyMove },
  ten_thousand: { draw: drawTenThousand, describe: describeTenThousand, move: tenThousandMove },
};

/** The board of `game` (its `state` in hand): `ctx` as game.js gives it. */
export function drawGame(game, ctx) {
  return (KINDS[game.kind]?.draw ?? drawGeneric)(game, ctx);
}

/** An event of the kind's own in words (`name`: its seat's), or undefined. */
export function describeEvent(game, event, name) {
  return KINDS[game.kind]?.describe(game, event, name);
}

/** A move (as the analysis gives it) in words; `dice`: the roll it chose among. */
export function describeMove(game, move, dice) {
  return (KINDS[game.kind]?.move ?? genericMove)(game, move, dice);
}
