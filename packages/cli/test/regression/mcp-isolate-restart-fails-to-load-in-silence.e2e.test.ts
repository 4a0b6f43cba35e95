// Found by a review: when `tooldock mcp --isolate` started its tool host again after a stop
// and a module now failed to load (a settings file broken meanwhile), the server said nothing:
// the operator's log showed the stop, then only the client's calls of that module's tools
// being refused. It now says the restarted load's errors on stderr and to the client.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, tempDir } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";

const FRAGILE = `import { existsSync } from "node:fs";
import { join } from "node:path";
if (existsSync(join(process.cwd(), "broken"))) throw new Error("the settings file is broken (missing key 'region')");
export default (pi) => ({
  name: "fragile",
  label: "Fragile",
  description: "Ends its own process",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => process.exit(7),
});
`;

beforeAll(assertBuilt);

let project: Awaited<ReturnType<typeof tempDir>>;
const stops: Array<() => void> = [];

beforeEach(async () => {
  project = await tempDir({ "tools/fragile.mjs": FRAGILE });
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await project.remove();
});

describe("tooldock mcp --isolate, when its tool host restarts and a module fails to load", () => {
  it("says so on stderr and to the client", async () => {
    const server = await startMcpChild(["tools", "--isolate"], project.path);
    stops.push(server.kill);
    const { client } = server;
    expect((await client.callTool({ name: "fragile", arguments: {} })).isError).toBe(true);
    await server.stderrIncludes("the tool host stopped");
    await writeFile(join(project.path, "broken"), "");
    expect((await client.callTool({ name: "fragile", arguments: {} })).isError).toBe(true);
    await server.stderrIncludes("the settings file is broken");
    expect(server.stderr()).toContain(
      "the tool host started again, and loading its modules reported 1 error",
    );
    expect(server.logs.join("\n")).toContain("the settings file is broken");
    server.closeStdin();
    expect(await server.exited).toBe(0);
  }, 60_000);
});
