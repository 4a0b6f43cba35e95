import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi's session actions
// (`appendEntry` to keep state, `sendUserMessage` to queue a next step, …) are stand-ins that do
// nothing in a Tooldock host, and only their use while the module loads was a
// W_EXTENSION_FEATURE. A tool that used one only in its execute (as pi's docs show for keeping
// state) lost what it stored, and nothing anywhere said so. Now the first such use of each, per
// module, is a warning on the host's logger.
const MODULE = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
  pi.registerTool({
    name: "remember",
    label: "Remember",
    description: "Keeps a note in the session",
    parameters: Type.Object({ note: Type.String() }),
    async execute(_toolCallId, params) {
      pi.appendEntry("notes", { note: params.note });
      pi.sendUserMessage("noted " + params.note, { deliverAs: "followUp" });
      return { content: [{ type: "text", text: "kept " + params.note }], details: {} };
    },
  });
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension's tool that uses pi's session actions when called (isolation %s)",
  (isolation) => {
    it("works, and the host's logger hears once per action that it did nothing", async () => {
      const warned: string[] = [];
      const logger = { debug() {}, info() {}, warn: (message: string) => warned.push(message), error() {} };
      const where = await project({ "remember.ts": MODULE });
      const host = new ToolHost({ cwd: where.work, logger });
      const { session, diagnostics } = await load(where, isolation, { host });
      expect(diagnostics).toEqual([]);
      for (const note of ["milk", "eggs"]) {
        const result = await session.execute({ toolCallId: note, name: "remember", params: { note } });
        expect(text(result)).toBe(`kept ${note}`);
      }
      expect(warned).toHaveLength(2);
      expect(warned[0]).toContain("remember.ts uses pi.appendEntry (session entries)");
      expect(warned[1]).toContain("remember.ts uses pi.sendUserMessage (user messages)");
    });
  },
);
