// End to end: the BUILT `tooldock mcp --http` (build first: pnpm build), with the MCP SDK's own
// client over Streamable HTTP.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt } from "../cli-process.js";
import { startMcpHttpChild } from "../mcp-http-child.js";
import { TEST_TOKEN } from "../mcp-http-in-process.js";
import { workFolder } from "../memory-io.js";

// Failure (issue 27, item 3, found by the conformance suite's tools-call-elicitation): over
// `--http`, `pi.ui` did nothing for every client, also one that answers elicitation requests:
// the tools were loaded once for every session, and `pi.hasUI` could not differ per client.
// Now each read of `pi.ui` and `pi.hasUI` during a call looks up the calling session's client
// (in process, and from a tool host: its question names the call, or the apply, that asks).
const TOOL = `
export default (pi) => ({
  name: "ask_user",
  label: "Ask",
  description: "Asks its user before staging a change, and again when it is applied.",
  parameters: pi.typebox.Type.Object({}),
  async execute(_id, _params, _onUpdate, ctx) {
    if (!pi.hasUI) return { content: [{ type: "text", text: "no UI" }] };
    const color = await pi.ui.select("Pick a colour", ["red", "green", "blue"]);
    ctx.pushPendingAction({
      label: "Paint the shed",
      apply: async () => {
        const sure = await pi.ui.confirm("Paint", "Paint it " + color + "?");
        return { content: [{ type: "text", text: "painted: " + sure + " (UI " + pi.hasUI + ")" }] };
      },
    });
    return { content: [{ type: "text", text: "staged " + color }] };
  },
});
`;

beforeAll(assertBuilt);

describe.each([[], ["--isolate"]])("pi.ui over tooldock mcp --http %s", (...flags: string[]) => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    folder = await workFolder();
    await mkdir(join(folder.path, "tools"), { recursive: true });
    await writeFile(join(folder.path, "tools", "ask.ts"), TOOL);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await folder.remove();
  });

  const connect = async (url: string, elicits: boolean) => {
    const asked: string[] = [];
    const client = new Client(
      { name: "http-ui", version: "1.0.0" },
      { capabilities: elicits ? { elicitation: {} } : {} },
    );
    if (elicits) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        const field = (
          request.params as unknown as {
            requestedSchema: { properties: { answer: { type: string; enum?: string[] } } };
          }
        ).requestedSchema.properties.answer;
        return { action: "accept", content: { answer: field.enum !== undefined ? field.enum[1] : true } };
      });
    }
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } },
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, asked };
  };

  it("asks the calling session's client when it elicits, during the call and the apply; another client's call has no UI", async () => {
    const server = await startMcpHttpChild(["tools", ...flags], folder.path, folder.env);
    cleanups.push(async () => {
      server.kill();
      await server.exited;
    });
    const eliciting = await connect(server.url, true);
    const plain = await connect(server.url, false);

    const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]?.text;
    expect(text(await plain.client.callTool({ name: "ask_user", arguments: {} }))).toBe("no UI");
    expect(text(await eliciting.client.callTool({ name: "ask_user", arguments: {} }))).toBe("staged green");
    const applied = await eliciting.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "yes" },
    });
    expect(text(applied)).toBe("painted: true (UI true)");
    expect(eliciting.asked).toEqual(["Pick a colour", "Paint\n\nPaint it green?"]);
  });
});
