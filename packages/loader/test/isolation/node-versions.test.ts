// The tool host under each Node that users run: the permission model's flag differs (Node 20
// and 22.0-22.12 spell it --experimental-permission), and Node 25 added the network to it.
// The binaries come from the npm registry (scripts/runtimes.mjs), as on a user's machine.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
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
