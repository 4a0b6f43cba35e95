// Found validating a module that fetches, on Node 26: Node 25+'s permission model refuses the
// network of a tool host (isolation.allowNet, the CLI's --allow-net), and fetch rejects with
// "fetch failed", the refusal only in its `cause`. The tool's result and an import's E_IMPORT
// said "fetch failed" and nothing else: neither that the sandbox refused it nor what allows it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { attackModule } from "../isolation/attack-helpers.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

describe("a tool host on Node 26 that refuses a fetch", () => {
  it("says the permission model refused it and how to allow it", async (context) => {
    const execPath = await testRuntime("node@26", context.skip);
    const server = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const where = await project({
        "fetches.ts": attackModule(`return (await fetch(${JSON.stringify(url)})).status;`),
        "at-import.ts": `await fetch(${JSON.stringify(url)});\nexport default () => [];\n`,
      });
      const { session, diagnostics } = await load(where, { mode: "process", execPath });
      const result = await session.execute({ toolCallId: "1", name: "attack", params: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /fetch failed \(.*Access to this API has been restricted\. Use --allow-net/,
      );
      const imported = diagnostics.find((diagnostic) => diagnostic.path.endsWith("at-import.ts"));
      expect(imported?.code).toBe("E_IMPORT");
      expect(imported?.message).toMatch(/fetch failed \(.*Use --allow-net/);
    } finally {
      server.close();
    }
  }, 120_000);
});
