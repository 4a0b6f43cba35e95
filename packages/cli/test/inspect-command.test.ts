import { cp } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import type { InspectState } from "../src/inspect/inspect-protocol.js";
import { run } from "../src/run.js";
import { memoryIo, workFolder } from "./memory-io.js";

const fixtures = fileURLToPath(new URL("./fixtures/inspect/", import.meta.url));

async function folderWithTools() {
  const folder = await workFolder();
  onTestFinished(folder.remove);
  await cp(join(fixtures, "inspect-tools.ts"), join(folder.path, "tools/inspect-tools.ts"));
  return folder;
}

/** Resolves once `read()` matches `pattern` (checked every 20 ms, for at most 20 s). */
async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    const match = pattern.exec(read());
    if (match !== null) return match;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never printed ${pattern}; got:\n${read()}`);
}

describe("tooldock inspect (the command)", () => {
  it("prints the URL with its token, serves until stopped, then exits 0", async () => {
    const folder = await folderWithTools();
    const { io, stdout, stderr } = memoryIo(folder.path, folder.env);
    const stop = new AbortController();
    const exit = run(["inspect", "tools", "--no-open", "--port", "0"], { ...io, signal: stop.signal });
    const [, url] = await waitFor(stdout, /^Open (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{43})$/m);
    expect(stdout()).toContain("tooldock inspect: 3 tools from 1 module, reloading on changes.");
    const { origin, hash } = new URL(url as string);
    const response = await fetch(`${origin}/api/state`, {
      headers: { authorization: `Bearer ${hash.slice("#token=".length)}` },
    });
    const state = (await response.json()) as InspectState;
    expect(state.tools.map((tool) => tool.name)).toEqual(["ast_edit", "echo", "stage_note"]);
    stop.abort();
    expect(await exit).toBe(0);
    expect(stderr()).toContain("tooldock inspect: stopping");
    await expect(fetch(`${origin}/api/state`)).rejects.toThrow();
  });

  it.each([["70000"], ["abc"], ["1.5"]])("refuses --port %s as bad usage", async (port) => {
    const folder = await folderWithTools();
    const { io, stderr } = memoryIo(folder.path, folder.env);
    expect(await run(["inspect", "tools", "--no-open", "--port", port], io)).toBe(2);
    expect(stderr()).toContain(`--port must be a whole number from 0 to 65535 (got "${port}")`);
  });

  it("says so when the port is taken", async () => {
    const folder = await folderWithTools();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const { io, stderr } = memoryIo(folder.path, folder.env);
    expect(await run(["inspect", "tools", "--no-open", "--port", String(port)], io)).toBe(2);
    expect(stderr()).toContain(
      `cannot listen on 127.0.0.1:${port} (EADDRINUSE); pick another --port or --host`,
    );
  });
});
