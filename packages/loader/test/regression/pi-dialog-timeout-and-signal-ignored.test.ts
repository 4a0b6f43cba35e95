import type { UIContext } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi's dialogs take
// `{ timeout, signal }` as their last argument and, when the time is up or the signal aborts,
// answer as if dismissed (`undefined`, or `false` for confirm); an already aborted signal
// answers at once without asking. Tooldock handed the options to a host UI that has no such
// argument (in a tool host they were dropped), so a tool's timed confirmation waited for the
// user forever.
const MODULE = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
  pi.registerTool({
    name: "ask",
    label: "Ask",
    description: "Asks the user with a deadline or a way out",
    parameters: Type.Object({ how: Type.String() }),
    async execute(_toolCallId, { how }, _signal, _onUpdate, ctx) {
      let answer;
      if (how === "timeout") answer = await ctx.ui.confirm("Deploy", "Go on?", { timeout: 5 });
      else if (how === "abort") {
        const stop = new AbortController();
        const asked = ctx.ui.select("Pick", ["a", "b"], { signal: stop.signal });
        stop.abort();
        answer = await asked;
      } else if (how === "aborted") answer = await ctx.ui.input("Name", "", { signal: AbortSignal.abort() });
      else answer = await ctx.ui.input("Name", "", { timeout: 60_000 });
      return { content: [{ type: "text", text: String(answer) }], details: {} };
    },
  });
}
`;

/** A user who answers only "Name" questions, and at once; every other dialog stays open. */
function awayUser(asked: string[]): UIContext {
  return {
    select: (title) => {
      asked.push(title);
      return new Promise(() => {});
    },
    confirm: (title) => {
      asked.push(title);
      return new Promise(() => {});
    },
    input: async (title) => {
      asked.push(title);
      return "Ada";
    },
    notify: () => {},
  };
}

describe.each([undefined, "process"] as const)(
  "a pi extension's dialog with a timeout or a signal (isolation %s)",
  (isolation) => {
    it("is dismissed when the time is up or the signal aborts, as in pi", async () => {
      const asked: string[] = [];
      const where = await project({ "ask.ts": MODULE });
      const host = new ToolHost({ cwd: where.work, ui: awayUser(asked) });
      const { session, diagnostics } = await load(where, isolation, { host });
      expect(diagnostics).toEqual([]);
      const ask = async (how: string) =>
        text(await session.execute({ toolCallId: how, name: "ask", params: { how } }));
      expect(await ask("timeout")).toBe("false");
      expect(await ask("abort")).toBe("undefined");
      expect(await ask("aborted")).toBe("undefined");
      expect(await ask("answered")).toBe("Ada");
      expect(asked).toEqual(["Deploy", "Pick", "Name"]);
    });
  },
);
