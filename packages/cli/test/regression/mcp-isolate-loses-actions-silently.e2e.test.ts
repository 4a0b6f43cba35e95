// Found by a bug hunt: `tooldock mcp --isolate` said nothing when its tool host stopped (a
// tool that exits, crashes or runs out of memory): the actions other tools had staged there
// were dropped from the stack, and the user saw no reason and no W_ACTIONS_LOST anywhere,
// only a `resolve` that later found nothing to resolve.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, tempDir } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { textOf } from "../mcp-in-memory.js";

const TOOLS = `export default (pi) => [
  {
    name: "stage",
    label: "Stage",
    description: "Stages an action",
    parameters: pi.typebox.Type.Object({}),
    execute: async (_id, _params, _onUpdate, ctx) => {
      ctx.pushPendingAction({ label: "Write notes.txt", apply: async () => ({ content: [{ type: "text", text: "written" }] }) });
      return { content: [{ type: "text", text: "staged" }] };
    },
  },
  {
    name: "crash",
    label: "Crash",
    description: "Ends its own process",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => process.exit(7),
  },
];
`;

beforeAll(assertBuilt);

let project: Awaited<ReturnType<typeof tempDir>>;
const stops: Array<() => void> = [];

beforeEach(async () => {
  project = await tempDir({ "tools/tools.mjs": TOOLS });
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await project.remove();
});

describe("tooldock mcp --isolate, when its tool host stops with an action staged", () => {
  it("says on stderr and to the client that the tool host stopped and which actions were lost", async () => {
    const server = await startMcpChild(["tools", "--isolate", "--pending-policy", "allow"], project.path);
    stops.push(server.kill);
    const { client } = server;
    expect(textOf(await client.callTool({ name: "stage", arguments: {} }))).toContain("staged");
    const crashed = await client.callTool({ name: "crash", arguments: {} });
    expect(crashed.isError).toBe(true);
    await server.stderrIncludes("W_ACTIONS_LOST");
    expect(server.stderr()).toContain("the tool host stopped");
    expect(server.stderr()).toContain('"Write notes.txt"');
    expect(server.logs.join("\n")).toContain('"Write notes.txt"');
    server.closeStdin();
    expect(await server.exited).toBe(0);
  }, 60_000);
});
