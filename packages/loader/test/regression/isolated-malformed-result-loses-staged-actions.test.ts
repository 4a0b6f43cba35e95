// Found by a bug hunt: under isolation, a tool that returned a malformed result (undefined, a
// string for content, a BigInt in structuredContent) or sent a malformed partial made its tool
// host "break the protocol": the host stopped it, and an action another tool had staged was
// gone without a word. In-process the same call answers an error result and nothing is lost.
import { describe, expect, it } from "vitest";
import { load, project, STAGE_TOOL, text } from "../isolation/isolation-helpers.js";

const tools = `
import { Type } from "@sinclair/typebox";
const returns = {
  undefined: () => undefined,
  stringContent: () => ({ content: "not blocks" }),
  bigint: () => ({ content: [], structuredContent: { n: 1n } }),
};
export default () => [
${STAGE_TOOL}
  {
    name: "broken",
    label: "Broken",
    description: "Returns a malformed result",
    parameters: Type.Object({ kind: Type.String() }),
    async execute(_id, params) {
      return returns[params.kind]();
    },
  },
  {
    name: "noisy",
    label: "Noisy",
    description: "Sends a malformed partial, then a good result",
    parameters: Type.Object({}),
    async execute(_id, _params, onUpdate) {
      onUpdate?.(undefined);
      onUpdate?.({ content: "not blocks" });
      return { content: [{ type: "text", text: "done" }] };
    },
  },
];
`;

describe("an isolated tool returns a malformed result", () => {
  for (const mode of ["none", "process"] as const) {
    it(`answers an error result, keeps the tool host and another tool's staged action (${mode})`, async () => {
      const where = await project({ "tools.ts": tools });
      const { session, isolated } = await load(where, mode, {}, { pendingPolicy: "allow" });
      expect(text(await session.execute({ toolCallId: "s", name: "stage", params: {} }))).toBe("staged");
      const pid = isolated?.pid;
      const problems = {
        undefined: "expected an object with a content array, got undefined",
        stringContent: "content must be an array of blocks",
        bigint: "structuredContent",
      };
      for (const [kind, problem] of Object.entries(problems)) {
        const result = await session.execute({ toolCallId: kind, name: "broken", params: { kind } });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain('Tool "broken" returned a malformed result');
        expect(text(result)).toContain(problem);
      }
      const updates: unknown[] = [];
      const noisy = await session.execute({
        toolCallId: "n",
        name: "noisy",
        params: {},
        onUpdate: (partial) => updates.push(partial),
      });
      expect(text(noisy)).toBe("done");
      expect(updates).toEqual([]);
      if (isolated !== undefined) expect(isolated.pid).toBe(pid);
      expect(session.pending.size).toBe(1);
      const resolved = await session.execute({
        toolCallId: "r",
        name: "resolve",
        params: { action: "apply", reason: "go" },
      });
      expect(text(resolved)).toContain("applied");
    });
  }
});

// Found with it: a thrown value that is not an Error (`throw { code: 7 }`) reached the model as
// "[object Object]" under isolation, and an Error whose `message` getter throws left the call
// waiting for its deadline (the tool host's answer itself threw). In-process each is described
// at once, by the Session's own wording.
const THROWS = `
import { Type } from "@sinclair/typebox";
const values = {
  plain: () => ({ code: 7, reason: "no such report" }),
  withMessage: () => ({ message: "obj message", code: "E_X" }),
  unreadable: () => {
    const error = new Error("hidden");
    Object.defineProperty(error, "message", { get() { throw new Error("no"); } });
    return error;
  },
};
export default () => ({
  name: "thrower",
  label: "Thrower",
  description: "Throws what it is asked to",
  parameters: Type.Object({ kind: Type.String() }),
  async execute(_id, params) {
    throw values[params.kind]();
  },
});
`;

describe("an isolated tool throws a value that is not a plain Error", () => {
  it("is described as in-process, at once", async () => {
    const where = await project({ "thrower.ts": THROWS });
    const texts: Record<string, string[]> = { plain: [], withMessage: [], unreadable: [] };
    for (const mode of ["none", "process"] as const) {
      const { session } = await load(where, mode, {}, { executeTimeoutMs: 600_000 });
      for (const kind of Object.keys(texts)) {
        const result = await session.execute({ toolCallId: kind, name: "thrower", params: { kind } });
        expect(result.isError).toBe(true);
        texts[kind]?.push(text(result));
      }
    }
    expect(texts.plain?.[0]).toContain('{"code":7,"reason":"no such report"}');
    expect(texts.withMessage?.[0]).toContain("failed: obj message.");
    expect(texts.unreadable?.[0]).toContain("an unreadable Error");
    for (const [none, isolated] of Object.values(texts)) expect(isolated).toBe(none);
  });
});

// Found by the second read: a thrown Proxy whose getPrototypeOf trap throws made the tool
// host's `instanceof Error` throw while it worded the error, so the call never answered.
describe("an isolated tool throws a Proxy that fights being read", () => {
  it("is described as in-process, at once", async () => {
    const where = await project({
      "proxy.ts": `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "proxy_throw",
  label: "Proxy throw",
  description: "Throws a Proxy of an Error",
  parameters: Type.Object({}),
  async execute() {
    throw new Proxy(new Error("boom"), { getPrototypeOf() { throw new Error("trap"); } });
  },
});
`,
    });
    const texts: string[] = [];
    for (const mode of ["none", "process"] as const) {
      const { session } = await load(where, mode, {}, { executeTimeoutMs: 600_000 });
      const result = await session.execute({ toolCallId: "p", name: "proxy_throw", params: {} });
      expect(result.isError).toBe(true);
      texts.push(text(result));
    }
    expect(texts[0]).toContain("failed: boom");
    expect(texts[1]).toBe(texts[0]);
  });
});
