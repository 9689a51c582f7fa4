// A client's code against the types openapi-typescript generates from the schema: it switches on
// a problem's code and on an event's type and reads each variant's own fields, with no cast.
// tests/contract/test_typescript.py type-checks it, and checks that a wrong name is refused.
import type { components } from "./api";

type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type GameEvent = Schemas["GameEvent"];

/** A client's own words for the codes it knows, else the server's. */
export function explain(problem: Problem): string {
  switch (problem.code) {
    case "box_used":
      return "That box is already scored.";
    case "not_your_turn":
      return "Wait for your turn.";
    default:
      return problem.detail;
  }
}

/** How many dice an event threw: its data say their own type, each with its own fields. */
export function diceThrown(event: GameEvent): number {
  const data = event.data;
  switch (data.type) {
    case "dice_rolled":
      return data.dice.length;
    default:
      return 0;
  }
}
