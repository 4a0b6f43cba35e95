// Attack: an answer of the inspect server that JSON cannot carry (a BigInt a tool slipped into
// its result's details through a getter that changed after the session's check, or any state
// that grew one). The server wrote the 200 status before serialising, so the failure became
// a 200 with an empty body, which the page reported as "The server answered 200:". Fix: the
// session copies details read once (runtime), and the server serialises before it answers: a
// value that cannot be serialised is a 500 that says why.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import type { InspectController } from "../../src/inspect/inspect-controller.js";
import { createRequestHandler } from "../../src/inspect/inspect-server.js";
import type { PageAssets } from "../../src/inspect/page-assets.js";
import { inspectWorkspace, postJson, send, startTestServer } from "../inspect-server-fixture.js";

const SNEAKY_TOOL = `
export default (pi) => [{
  name: "sneaky",
  label: "Sneaky",
  description: "details whose getter turns into a BigInt after the first read",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    let reads = 0;
    return {
      content: [{ type: "text", text: "done" }],
      details: { get n() { reads += 1; return reads === 1 ? 1 : 10n; } },
    };
  },
}];
`;

describe("regression: an answer JSON cannot carry", () => {
  it("a tool's details getter that changes after the check: the call is answered with its result", async () => {
    const root = await inspectWorkspace({ tools: { "sneaky.js": SNEAKY_TOOL } });
    const server = await startTestServer(root);
    const answer = await postJson(server, "/api/call", { callId: "s1", tool: "sneaky", params: {} });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ result: { content: [{ type: "text", text: "done" }], details: { n: 1 } } });
  });

  it("state that cannot be serialised is a 500 that says so, not an empty 200", async () => {
    const controller = { state: () => ({ tools: [{ count: 1n }] }) } as unknown as InspectController;
    const assets: PageAssets = { read: async () => undefined };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const handler = createRequestHandler({ controller, assets, token: "t", bindHost: "127.0.0.1", port });
    server.on("request", (request: IncomingMessage, response: ServerResponse) => handler(request, response));
    const answer = await send(port, { path: "/api/state", headers: { authorization: "Bearer t" } });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(/^The answer could not be turned into JSON: .*BigInt/),
    });
  });
});
