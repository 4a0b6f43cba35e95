import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi's
// ReadonlySessionManager, the `ctx.sessionManager` of an extension, also has getLeafId,
// getLeafEntry, getEntry, getLabel, getHeader, getTree, getSessionName and getSessionDir.
// Tooldock's had only getEntries, getBranch, getSessionFile, getSessionId and getCwd, so an
// extension's tool that checkpointed at the leaf entry (as pi's git-checkpoint example does)
// threw "ctx.sessionManager.getLeafEntry is not a function".
const MODULE = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
  pi.registerTool({
    name: "where",
    label: "Where",
    description: "Says where in the conversation it runs",
    parameters: Type.Object({}),
    async execute(_toolCallId, _params, _signal, _onUpdate, ctx) {
      const sm = ctx.sessionManager;
      const chain = [];
      for (let nodes = sm.getTree(); nodes.length > 0; nodes = nodes[0].children)
        chain.push(nodes[0].entry.id + (nodes[0].label ? "(" + nodes[0].label + ")" : ""));
      const text = [
        "leaf=" + sm.getLeafId(),
        "leafEntry=" + sm.getLeafEntry()?.type,
        "entry=" + sm.getEntry("a")?.type,
        "missing=" + sm.getEntry("zz"),
        "label=" + sm.getLabel("a"),
        "name=" + sm.getSessionName(),
        "header=" + sm.getHeader(),
        "dir=" + sm.getSessionDir(),
        "tree=" + chain.join(">"),
        "same=" + (sm === ctx.sessionManager),
      ].join(" ");
      return { content: [{ type: "text", text }], details: {} };
    },
  });
}
`;

const ENTRIES = [
  { type: "message", id: "a", parentId: null },
  { type: "label", id: "l", parentId: "a", targetId: "a", label: "start" },
  { type: "session_info", id: "s", parentId: "l", name: "Planning" },
  { type: "message", id: "b", parentId: "s" },
];

describe.each([undefined, "process"] as const)(
  "a pi extension that reads where it is in the conversation (isolation %s)",
  (isolation) => {
    it("gets pi's read-only session manager over the host's entries", async () => {
      const where = await project({ "where.ts": MODULE });
      const { session, diagnostics } = await load(
        where,
        isolation,
        {},
        {
          conversation: { entries: () => ENTRIES, sessionFile: () => "/home/me/sessions/today.jsonl" },
        },
      );
      expect(diagnostics).toEqual([]);
      const result = await session.execute({ toolCallId: "1", name: "where", params: {} });
      expect(text(result)).toBe(
        "leaf=b leafEntry=message entry=message missing=undefined label=start name=Planning " +
          "header=null dir=/home/me/sessions tree=a(start)>l>s>b same=true",
      );
    });

    it("answers for an empty conversation as pi's new session does", async () => {
      const where = await project({ "where.ts": MODULE });
      const { session } = await load(where, isolation);
      const result = await session.execute({ toolCallId: "1", name: "where", params: {} });
      expect(text(result)).toBe(
        "leaf=null leafEntry=undefined entry=undefined missing=undefined label=undefined " +
          "name=undefined header=null dir= tree= same=true",
      );
    });
  },
);
