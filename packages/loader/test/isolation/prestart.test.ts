import { spawn } from "node:child_process";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type LoadCustomToolsOptions, prestartToolHost, watchCustomTools } from "../../src/index.js";
import { sparePids, sparesPlanned } from "../../src/isolation/spare-tool-hosts.js";
import { load, type Project, project, text } from "./isolation-helpers.js";

const echo = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "echo",
  label: "Echo",
  description: "Says what it got",
  parameters: Type.Object({ said: Type.String() }),
  async execute(id, params) {
    return { content: [{ type: "text", text: "echo " + params.said + " from " + process.pid }] };
  },
});
`;

/** The options `load` of isolation-helpers passes, without the session. */
function optionsOf(where: Project, isolation: LoadCustomToolsOptions["isolation"]): LoadCustomToolsOptions {
  return { paths: [where.tools], cwd: where.work, cacheDir: join(where.root, "cache"), isolation };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a tool host started ahead of need", () => {
  it("is the one the next load with the same settings takes, and runs its tools", async () => {
    const where = await project({ "echo.ts": echo });
    const prestarted = prestartToolHost(optionsOf(where, "process"));
    try {
      expect(await prestarted.ready).toBe(true);
      expect(prestarted.pid).toBeGreaterThan(0);
      const loaded = await load(where, "process");
      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.isolated?.pid).toBe(prestarted.pid);
      const result = await loaded.session.execute({ toolCallId: "1", name: "echo", params: { said: "hi" } });
      expect(text(result)).toMatch(/^echo hi from \d+$/);
      expect(text(result)).not.toContain(String(process.pid));
    } finally {
      await prestarted.close();
    }
  });

  it("is taken by a load asked for at once, before it has started", async () => {
    const where = await project({ "echo.ts": echo });
    const prestarted = prestartToolHost(optionsOf(where, "process"));
    const loaded = await load(where, "process");
    expect(loaded.isolated?.pid).toBe(prestarted.pid);
    expect(await prestarted.ready).toBe(true);
  });

  it("waits for a load whose settings fit: one with other settings starts its own", async () => {
    const where = await project({ "echo.ts": echo });
    const prestarted = prestartToolHost(optionsOf(where, "process"));
    try {
      expect(await prestarted.ready).toBe(true);
      const other = await load(where, { mode: "process", memoryMb: 256 });
      expect(other.isolated?.pid).toBeGreaterThan(0);
      expect(other.isolated?.pid).not.toBe(prestarted.pid);
      const fitting = await load(where, "process");
      expect(fitting.isolated?.pid).toBe(prestarted.pid);
    } finally {
      await prestarted.close();
    }
  });

  it("stops when closed, and a load then starts its own", async () => {
    const where = await project({ "echo.ts": echo });
    const prestarted = prestartToolHost(optionsOf(where, "process"));
    expect(await prestarted.ready).toBe(true);
    const pid = prestarted.pid as number;
    await prestarted.close();
    expect(alive(pid)).toBe(false);
    const loaded = await load(where, "process");
    expect(loaded.isolated?.pid).not.toBe(pid);
  });

  it("is not stopped by close once a load took it", async () => {
    const where = await project({ "echo.ts": echo });
    const prestarted = prestartToolHost(optionsOf(where, "process"));
    const loaded = await load(where, "process");
    await prestarted.close();
    const result = await loaded.session.execute({ toolCallId: "1", name: "echo", params: { said: "still" } });
    expect(text(result)).toContain("echo still");
  });

  it("is refused without isolation", () => {
    expect(() => prestartToolHost({ paths: ["./tools"] })).toThrow(TypeError);
  });

  it("never keeps the host's process alive, and ends with it", async () => {
    const where = await project({ "echo.ts": echo });
    const script = `
      const { prestartToolHost } = await import(${JSON.stringify(new URL("../../dist/index.js", import.meta.url).href)});
      const prestarted = prestartToolHost(${JSON.stringify(optionsOf(where, "process"))});
      if (!(await prestarted.ready)) process.exit(3);
      process.stdout.write(String(prestarted.pid));
    `;
    const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    host.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const code = await new Promise<number | null>((resolve) => host.on("exit", resolve));
    expect(code).toBe(0);
    const pid = Number(out);
    expect(pid).toBeGreaterThan(0);
    // Its standard input ended with the host: it leaves on its own.
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
  });
});

describe("an isolated watch", () => {
  it("starts the next reload's tool host after each load, and the reload takes it", async () => {
    const where = await project({ "echo.ts": echo });
    const session = new Session({ cwd: where.work });
    // Spares of this worker's earlier test files, if any were left, are not this test's.
    await sparesPlanned();
    const before = new Set(sparePids());
    const ours = () => sparePids().filter((pid) => !before.has(pid));
    const watcher = await watchCustomTools({ ...optionsOf(where, "process"), session, debounceMs: 60_000 });
    try {
      await sparesPlanned();
      const spares = ours();
      expect(spares).toHaveLength(1);
      expect(spares).not.toContain(watcher.initial.isolated?.pid);
      const reloaded = await watcher.reload();
      expect(reloaded.isolated?.pid).toBe(spares[0]);
      await sparesPlanned();
      expect(ours()).toHaveLength(1);
      expect(ours()).not.toContain(spares[0]);
      const result = await session.execute({ toolCallId: "1", name: "echo", params: { said: "x" } });
      expect(text(result)).toBe(`echo x from ${spares[0]}`);
    } finally {
      await watcher.close();
      await session.dispose();
    }
    expect(ours()).toEqual([]);
  });
});
