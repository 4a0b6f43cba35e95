import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi's extensions find
// their settings and logs under `getAgentDir()` from `@mariozechner/pi-coding-agent`, often at
// the top of the module (`const LOG = join(getAgentDir(), "read-access.log")`, as pi's
// tool-override example does). Tooldock's stand-in had no `getAgentDir`: such a module failed to
// load ("getAgentDir is not a function").
const MODULE = `
import { join } from "node:path";
import { getAgentDir } from "@mariozechner/pi-coding-agent";
import { Type } from "@sinclair/typebox";

const SETTINGS = join(getAgentDir(), "extensions", "notes.json");

export default function (pi) {
  pi.registerTool({
    name: "settings_path",
    label: "Settings path",
    description: "Says where its settings are read from",
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: SETTINGS }], details: {} };
    },
  });
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension that finds its settings under pi's agent directory (isolation %s)",
  (isolation) => {
    it("loads, the directory pi's own (PI_CODING_AGENT_DIR, else ~/.pi/agent)", async () => {
      const where = await project({ "notes.ts": MODULE });
      const { session, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      const result = await session.execute({ toolCallId: "1", name: "settings_path", params: {} });
      const agentDir = process.env.PI_CODING_AGENT_DIR || join(homedir(), ".pi", "agent");
      expect(text(result)).toBe(join(agentDir, "extensions", "notes.json"));
    });
  },
);
