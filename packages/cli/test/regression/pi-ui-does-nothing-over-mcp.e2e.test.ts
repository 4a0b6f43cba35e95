// End to end: the BUILT `tooldock mcp` (build first: pnpm build) over stdio, with the MCP SDK's
// own client.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { workFolder } from "../memory-io.js";

// Failure (issue 27, item 3): `pi.ui.select`, `confirm` and `input` did nothing over MCP
// (`hasUI` false), also with a client that answers elicitation requests, so a tool that asks
// its user before acting could never ask. Fixed: with such a client, each question is an
// `elicitation/create` form of one field; without one, `pi.ui` stays a no-op with `hasUI` false.
const TOOL = `
export default (pi) => ({
  name: "ask_user",
  label: "Ask",
  description: "Asks the user three questions.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    if (!pi.hasUI) return { content: [{ type: "text", text: "no UI" }] };
    const color = await pi.ui.select("Pick a colour", ["red", "green", "blue"]);
    const sure = await pi.ui.confirm("Deploy", "Deploy to staging?");
    const name = await pi.ui.input("Your name", "e.g. Ada");
    return { content: [{ type: "text", text: [color, sure, name].join("|") }] };
  },
});
`;

beforeAll(assertBuilt);

describe("pi.ui over tooldock mcp", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    folder = await workFolder();
    await mkdir(join(folder.path, "tools"), { recursive: true });
    await writeFile(join(folder.path, "tools", "ask.ts"), TOOL);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await folder.remove();
  });

  const connect = async (elicits: boolean) => {
    const asked: Array<{ message: string; field: unknown }> = [];
    const server = await startMcpChild(
      ["tools"],
      folder.path,
      { ...folder.env, NO_COLOR: "1" },
      {
        capabilities: elicits ? { elicitation: {} } : {},
        beforeConnect: (client) => {
          if (!elicits) return;
          client.setRequestHandler(ElicitRequestSchema, async (request) => {
            const params = request.params as unknown as {
              message: string;
              requestedSchema: { properties: { answer: { type: string; enum?: string[] } } };
            };
            const field = params.requestedSchema.properties.answer;
            asked.push({ message: params.message, field });
            const answer = field.enum !== undefined ? field.enum[1] : field.type === "boolean" ? true : "Ada";
            return { action: "accept", content: { answer } };
          });
        },
      },
    );
    cleanups.push(async () => {
      await server.client.close();
      server.kill();
      await server.exited;
    });
    return { client: server.client, asked };
  };

  it("asks a client that answers elicitation, one form field per question", async () => {
    const { client, asked } = await connect(true);
    const result = await client.callTool({ name: "ask_user", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "green|true|Ada" }]);
    expect(asked).toEqual([
      {
        message: "Pick a colour",
        field: { type: "string", title: "Pick a colour", enum: ["red", "green", "blue"] },
      },
      { message: "Deploy\n\nDeploy to staging?", field: { type: "boolean", title: "Deploy" } },
      { message: "Your name", field: { type: "string", title: "Your name", description: "e.g. Ada" } },
    ]);
  });

  it("stays a no-op with hasUI false for a client that does not", async () => {
    const { client } = await connect(false);
    const result = await client.callTool({ name: "ask_user", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "no UI" }]);
  });
});
