import { describe, expect, it } from "vitest";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

describe("an isolated module that tries to take the host down", () => {
  it("exits: the call says the tool host stopped, and the next call gets a fresh one", async () => {
    const where = await project({ "attack.ts": attackModule("process.exitCode = 7; process.exit(3);") });
    const { session, isolated } = await load(where, "process");
    const first = isolated?.pid;
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/its tool host .* stopped\. It exited with code 3\./);
    expect(process.exitCode).toBeUndefined();
    const again = await session.execute({ toolCallId: "2", name: "attack", params: {} });
    expect(text(again)).toMatch(/It exited with code 3\./);
    expect(isolated?.pid).not.toBe(first);
  });

  it("exhausts memory: the tool host dies at its heap cap, the host does not", async () => {
    const where = await project({
      "attack.ts": attackModule(`
        const hoard = [];
        for (;;) hoard.push(new Array(1e6).fill(Math.random()));
      `),
    });
    const { session } = await load(where, { mode: "process", memoryMb: 64 });
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/It ran out of memory/);
  });

  it("hangs in a busy loop: the call times out and the hung tool host is killed", async () => {
    const where = await project({ "attack.ts": attackModule("for (;;) {}") });
    const { session, isolated } = await load(
      where,
      { mode: "process", hangTimeoutMs: 200 },
      {},
      { executeTimeoutMs: 300 },
    );
    const stopped = new Promise<{ kind?: string }>((resolve) =>
      isolated?.subscribe((event) => {
        if (event.type === "tool-host-stopped") resolve(event);
      }),
    );
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(await stopped).toMatchObject({ kind: "hang" });
  });

  it("hangs while it loads: the load reports E_TOOL_HOST and returns", async () => {
    const where = await project({ "hang.ts": "for (;;) {}\nexport default () => [];" });
    const { diagnostics, tools } = await load(where, { mode: "process", loadTimeoutMs: 1000 });
    expect(tools).toEqual([]);
    expect(diagnostics.map(({ code }) => code)).toEqual(["E_TOOL_HOST"]);
    expect(diagnostics[0]?.message).toMatch(/did not load its modules within 1000 ms/);
  });

  it("tampers with built-ins: only its own process sees it", async () => {
    const where = await project({
      "attack.ts": attackModule(`
        Object.prototype.polluted = "yes";
        Math.random = () => 4;
        globalThis.fetch = () => { throw new Error("hijacked"); };
        return "tampered";
      `),
    });
    const { session } = await load(where, "process");
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(text(result)).toBe("tampered");
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    expect(Math.random()).toBeLessThan(1);
    expect(typeof globalThis.fetch).toBe("function");
    // and its next call still works: the tool host serves on
    const again = await session.execute({ toolCallId: "2", name: "attack", params: {} });
    expect(text(again)).toBe("tampered");
  });

  it("breaks the built-ins its own tool host talks with: only that tool host stops", async () => {
    const where = await project({
      "attack.ts": attackModule(`
        JSON.stringify = () => "{\\"t\\":\\"result\\",\\"id\\":\\"forged\\"}";
        return "tampered";
      `),
    });
    const { session } = await load(where, "process");
    const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/stopped\. It broke the protocol: a malformed "result" message\./);
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
  });
});

describe("an isolated module that exhausts memory while it loads", () => {
  it("is one E_TOOL_HOST that says so, without V8's backtrace", async () => {
    const where = await project({
      "hoard.ts":
        "const hoard = [];\nfor (;;) hoard.push(new Array(1e6).fill(Math.random()));\nexport default () => [];\n",
    });
    const { diagnostics, tools } = await load(where, { mode: "process", memoryMb: 64 });
    expect(tools).toEqual([]);
    expect(diagnostics.map(({ code }) => code)).toEqual(["E_TOOL_HOST"]);
    expect(diagnostics[0]?.message).toMatch(/It ran out of memory/);
    expect(diagnostics[0]?.message).not.toMatch(/FATAL ERROR|node::|0x[0-9a-f]{6,}/);
    expect(diagnostics[0]?.hint).toMatch(/isolation\.memoryMb/);
  });
});
