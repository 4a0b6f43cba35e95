// Found by a bug hunt: a tool in a tool host that passed pi.sendMessage or pi.ui a value JSON
// cannot carry (a BigInt, a cycle), or sent a string as its message, made the tool host send a
// message the host's protocol check refused: the host stopped the tool host for breaking the
// protocol, and every action staged there was lost. Now what cannot cross is refused to the
// tool that sent it, with the reason, and a message that is JSON but no object crosses as
// in-process.
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { load, project, STAGE_TOOL, text } from "../isolation/isolation-helpers.js";

const TOOLS = `
import { Type } from "@sinclair/typebox";
const cycle = {};
cycle.self = cycle;
export default (pi) => [
${STAGE_TOOL}
  {
    name: "send",
    label: "Send",
    description: "Sends what it is asked to",
    parameters: Type.Object({ kind: Type.String() }),
    async execute(_id, params) {
      try {
        if (params.kind === "bigint") pi.sendMessage({ content: "size", details: { bytes: 10n } });
        if (params.kind === "cycle") pi.sendMessage({ content: "loop", details: cycle });
        if (params.kind === "string") pi.sendMessage("plain text");
        if (params.kind === "select") await pi.ui.select("Pick", [1n, "b"]);
        if (params.kind === "notify") pi.ui.notify(cycle);
        return { content: [{ type: "text", text: "sent" }] };
      } catch (error) {
        return { content: [{ type: "text", text: error.name + ": " + error.message }] };
      }
    },
  },
];
`;

describe("an isolated tool sends the host what JSON cannot carry", () => {
  it("gets a TypeError saying so; the tool host and the staged action stay", async () => {
    const where = await project({ "tools.ts": TOOLS });
    const host = new ToolHost({ cwd: where.work });
    host.setUIContext({
      select: async () => "b",
      confirm: async () => true,
      input: async () => "x",
      notify: () => {},
    });
    const messages: unknown[] = [];
    host.events.on("tooldock:message", (event) => messages.push((event as { message: unknown }).message));
    const { session, isolated } = await load(where, "process", { host }, { pendingPolicy: "allow" });
    if (isolated === undefined) throw new Error("no tool host");
    expect(text(await session.execute({ toolCallId: "s", name: "stage", params: {} }))).toBe("staged");
    const pid = isolated.pid;
    const refused: Array<[string, string]> = [
      ["bigint", "pi.sendMessage"],
      ["cycle", "pi.sendMessage"],
      ["select", "pi.ui.select"],
      ["notify", "pi.ui.notify"],
    ];
    for (const [kind, where] of refused) {
      const result = await session.execute({ toolCallId: kind, name: "send", params: { kind } });
      expect(text(result)).toMatch(/^TypeError: /);
      expect(text(result)).toContain(`${where}:`);
      expect(text(result)).toContain("JSON");
    }
    expect(text(await session.execute({ toolCallId: "t", name: "send", params: { kind: "string" } }))).toBe(
      "sent",
    );
    expect(messages).toEqual(["plain text"]);
    expect(isolated.pid).toBe(pid);
    expect(session.pending.size).toBe(1);
    const resolved = await session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(text(resolved)).toContain("applied");
  });
});
