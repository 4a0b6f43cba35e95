// Attack: cross-site request forgery. A page the user visits posts to the inspect server
// (the browser would attach its cookie were it not SameSite) to run a tool or apply the top
// pending action. Fix: a POST from a browser must be same-origin (`Origin` equal to
// `http://<Host>`) and JSON (`text/plain`, which a form or a no-preflight fetch can send, is
// refused), so the tool never runs.
import { describe, expect, it } from "vitest";
import { inspectWorkspace, openEvents, send, startTestServer } from "../inspect-server-fixture.js";

describe("regression: cross-site POST to tooldock inspect", () => {
  it("refuses a POST from another origin and a non-JSON POST; the tool does not run", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const events = openEvents(server);
    await events.opened;
    const body = JSON.stringify({ callId: "x", tool: "echo", params: { text: "hi" } });
    const auth = { authorization: `Bearer ${server.token}` };
    const foreign = await send(server.port, {
      method: "POST",
      path: "/api/call",
      headers: { ...auth, origin: "http://evil.example", "content-type": "application/json" },
      body,
    });
    expect(foreign.status).toBe(403);
    const plain = await send(server.port, {
      method: "POST",
      path: "/api/call",
      headers: { ...auth, "content-type": "text/plain" },
      body,
    });
    expect(plain.status).toBe(415);
    const same = await send(server.port, {
      method: "POST",
      path: "/api/call",
      headers: { ...auth, origin: `http://127.0.0.1:${server.port}`, "content-type": "application/json" },
      body,
    });
    expect(same.status).toBe(200);
    // Only the same-origin call ran: by its result in the log, it is the one call logged.
    await events.next((event) => event.event === "log" && (event.data as { kind: string }).kind === "result");
    const calls = events.events.filter(
      (event) => event.event === "log" && (event.data as { kind: string }).kind === "call",
    );
    expect(calls).toHaveLength(1);
  });
});
