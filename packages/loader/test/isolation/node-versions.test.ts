// The tool host under each Node that users run: the permission model's flag differs (Node 20
// and 22.0-22.12 spell it --experimental-permission), and Node 25 added the network to it.
// The binaries come from the npm registry (scripts/runtimes.mjs), as on a user's machine.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { builtEntry } from "../helpers.js";
import { attackModule, secretFolder } from "./attack-helpers.js";
import { load, project, text } from "./isolation-helpers.js";

const FETCH = attackModule(`
  const response = await fetch(params.url);
  return "fetched " + response.status;
`).replace("parameters: Type.Object({})", "parameters: Type.Object({ url: Type.String() })");

describe.each(["node@22", "node@24", "node@26"])("a tool host under %s", (spec) => {
  it("runs a tool, refuses a secret, and keeps the network only when allowed (Node 25+)", async () => {
    const execPath = await ensureRuntime(spec);
    const { file, secret } = await secretFolder();
    const where = await project({
      "read.ts": attackModule(`
        const { readFileSync } = await import("node:fs");
        return readFileSync(${JSON.stringify(file)}, "utf8");
      `).replace('name: "attack"', 'name: "read"'),
      "fetch.ts": FETCH.replace('name: "attack"', 'name: "fetch"'),
    });
    const server = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const { session, diagnostics } = await load(where, { mode: "process", execPath });
      expect(diagnostics).toEqual([]);
      const read = await session.execute({ toolCallId: "1", name: "read", params: {} });
      expect(read.isError).toBe(true);
      expect(text(read)).not.toContain(secret);
      const fetched = await session.execute({ toolCallId: "2", name: "fetch", params: { url } });
      const major = Number(spec.split("@")[1]);
      if (major >= 25) expect(read.isError && fetched.isError).toBe(true);
      else expect(text(fetched)).toBe("fetched 200");

      const allowed = await load(where, { mode: "process", execPath, allowNet: true });
      const again = await allowed.session.execute({ toolCallId: "3", name: "fetch", params: { url } });
      expect(text(again)).toBe("fetched 200");
    } finally {
      server.close();
    }
  }, 180_000);
});

describe("a host running on Bun", () => {
  it("runs its tools in a tool host under Node, which Bun has no permission model for", async () => {
    const bun = await ensureRuntime("bun@1.4.4");
    const { file, secret } = await secretFolder();
    const where = await project({
      "read.ts": attackModule(`
        const { readFileSync } = await import("node:fs");
        return readFileSync(${JSON.stringify(file)}, "utf8");
      `),
    });
    const script = join(where.root, "host.mjs");
    await writeFile(
      script,
      `import { loadCustomTools } from ${JSON.stringify(builtEntry("loader"))};
import { Session } from ${JSON.stringify(builtEntry("runtime"))};
const session = new Session({ cwd: ${JSON.stringify(where.work)} });
const loaded = await loadCustomTools({ paths: [${JSON.stringify(where.tools)}], cwd: ${JSON.stringify(where.work)},
  cacheDir: ${JSON.stringify(join(where.root, "cache"))}, session, isolation: "process" });
const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
console.log(JSON.stringify({ bun: typeof Bun, tools: loaded.tools.length, diagnostics: loaded.diagnostics, result }));
await loaded.isolated?.close();
`,
    );
    const { stdout } = await promisify(execFile)(bun, [script], { encoding: "utf8" });
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ bun: "object", tools: 1, diagnostics: [], result: { isError: true } });
    expect(JSON.stringify(report.result)).not.toContain(secret);
    expect(JSON.stringify(report.result)).toMatch(/Access to this API has been restricted/);
  }, 180_000);
});
