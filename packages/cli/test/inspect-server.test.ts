import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CallResponse, InspectState, LogEntry } from "../src/inspect/inspect-protocol.js";
import { inspectWorkspace, openEvents, postJson, send, startTestServer } from "./inspect-server-fixture.js";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("tooldock inspect: access", () => {
  it("prints the token in the URL's fragment, and serves the page's files without it", async () => {
    const server = await startTestServer(await inspectWorkspace());
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=test-token`);
    const page = await send(server.port, { path: "/" });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain("<title>inspect</title>");
    expect(page.body).not.toContain("test-token");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
  });

  it("serves the API to a bearer token", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const answer = await send(server.port, { path: "/api/state", headers: bearer(server.token) });
    expect(answer.status).toBe(200);
    const state = JSON.parse(answer.body) as InspectState;
    expect(state.tools.map((tool) => tool.name)).toEqual(["ast_edit", "echo", "stage_note"]);
  });

  it("answers 404 with where the page is for an unknown path", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const answer = await send(server.port, { path: "/nothing", headers: bearer(server.token) });
    expect(answer.status).toBe(404);
    expect(answer.body).toContain("The page is at /");
  });
});

describe("tooldock inspect: state", () => {
  it("lists each tool with its flags, annotations, origin and JSON Schema, and the load's diagnostics with their code frame", async () => {
    const server = await startTestServer(await inspectWorkspace({ broken: true }));
    const state = (await send(server.port, { path: "/api/state", headers: bearer(server.token) })).body;
    const { tools, diagnostics, pending, toolChoice, cwd } = JSON.parse(state) as InspectState;
    const stage = tools.find((tool) => tool.name === "stage_note");
    expect(stage).toMatchObject({
      label: "Stage a note",
      deferrable: true,
      hidden: false,
      origin: join("tools", "inspect-tools.ts"),
      annotations: { title: "Stage a note", readOnlyHint: true },
      parameters: { type: "object", properties: { note: { type: "string" } } },
    });
    expect(tools.find((tool) => tool.name === "ast_edit")).toMatchObject({
      origin: "built-in",
      deferrable: true,
    });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.diagnostic.code).toBe("E_COMPILE");
    // formatDiagnostic's text: location, the source line with a caret, the hint
    expect(diagnostics[0]?.text).toContain(`${join("tools", "broken.ts")}:2:`);
    expect(diagnostics[0]?.text).toContain("const x = ;");
    expect(diagnostics[0]?.text).toContain("^");
    expect(diagnostics[0]?.text).toMatch(/hint/i);
    expect(pending).toEqual([]);
    expect(toolChoice).toBe("auto");
    expect(cwd).toBeTypeOf("string");
  });

  it("checks arguments with the session's validator, each issue at its JSON Pointer", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const bad = await postJson(server, "/api/validate", { tool: "echo", params: { text: "", times: 0 } });
    expect(bad.status).toBe(200);
    const paths = (bad.json.issues as Array<{ path: string }>).map((issue) => issue.path).sort();
    expect(paths).toEqual(["/text", "/times"]);
    const good = await postJson(server, "/api/validate", { tool: "echo", params: { text: "hi" } });
    expect(good.json.issues).toEqual([]);
  });
});

describe("tooldock inspect: calls, events and resolving", () => {
  it("runs a call, streams its partial result and logs the call and its result", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const events = openEvents(server);
    await events.opened;
    await events.next((event) => event.event === "state");
    const answer = await postJson(server, "/api/call", {
      callId: "c1",
      tool: "echo",
      params: { text: "hi" },
    });
    expect(answer.status).toBe(200);
    expect((answer.json as unknown as CallResponse).result.content).toEqual([
      { type: "text", text: "echo: hi" },
    ]);
    const update = await events.next((event) => event.event === "call-update");
    expect(update.data).toEqual({
      callId: "c1",
      partial: { content: [{ type: "text", text: "working on hi" }] },
    });
    const result = await events.next(
      (event) => event.event === "log" && (event.data as LogEntry).kind === "result",
    );
    expect((result.data as LogEntry).summary).toBe("echo returned ok (inspect-c1)");
    expect(
      events.events.some((event) => event.event === "log" && (event.data as LogEntry).kind === "call"),
    ).toBe(true);
  });

  it("cancels a running call: the call answers that it was aborted", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const events = openEvents(server);
    await events.opened;
    const call = postJson(server, "/api/call", { callId: "long", tool: "echo", params: { text: "wait" } });
    await events.next(
      (event) => event.event === "state" && (event.data as InspectState).running.includes("long"),
    );
    const again = await postJson(server, "/api/call", {
      callId: "long",
      tool: "echo",
      params: { text: "x" },
    });
    expect(again.status).toBe(409);
    const cancel = await postJson(server, "/api/cancel", { callId: "long" });
    expect(cancel.json).toEqual({ cancelled: true });
    const answer = (await call).json as unknown as CallResponse;
    expect(answer.result.isError).toBe(true);
    expect(JSON.stringify(answer.result.content)).toContain('Tool \\"echo\\" was aborted');
    expect((await postJson(server, "/api/cancel", { callId: "long" })).json).toEqual({ cancelled: false });
  });

  it("resolves the top action as resolve does: a failed apply stays pending with its cause, the next apply empties the stack", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const events = openEvents(server);
    await events.opened;
    await postJson(server, "/api/call", { callId: "s1", tool: "stage_note", params: { note: "a" } });
    const staged = await events.next(
      (event) => event.event === "state" && (event.data as InspectState).pending.length === 1,
    );
    const [top] = (staged.data as InspectState).pending;
    expect(top).toMatchObject({ label: 'Write note "a"', sourceToolName: "stage_note" });
    expect((staged.data as InspectState).toolChoice).toBe("resolve");

    const failed = (await postJson(server, "/api/resolve", { action: "apply", reason: "try" })).json;
    expect((failed as unknown as CallResponse).result.isError).toBe(true);
    const state = JSON.parse(
      (await send(server.port, { path: "/api/state", headers: bearer(server.token) })).body,
    );
    expect(state.pending).toHaveLength(1);
    expect(state.pending[0].id).toBe(top?.id);
    expect(state.pending[0].applyFailure.message).toBe("the disk is busy");

    const applied = (await postJson(server, "/api/resolve", { action: "apply", reason: "again" })).json;
    expect(JSON.stringify(applied)).toContain("note written");
    const after = JSON.parse(
      (await send(server.port, { path: "/api/state", headers: bearer(server.token) })).body,
    );
    expect(after.pending).toEqual([]);
    const kinds = events.events
      .filter((event) => event.event === "log")
      .map((event) => (event.data as LogEntry).kind);
    expect(kinds).toEqual(expect.arrayContaining(["push", "reminder", "resolution"]));
  });

  it("says that nothing is pending when resolving an empty stack", async () => {
    const server = await startTestServer(await inspectWorkspace());
    const answer = (await postJson(server, "/api/resolve", { action: "discard", reason: "none" })).json;
    expect(JSON.stringify(answer)).toContain("No pending action to resolve");
  });

  it("reloads an edited tool file into the same session: the page gets the new tool, the pending stack survives", async () => {
    const root = await inspectWorkspace();
    const server = await startTestServer(root);
    const events = openEvents(server);
    await events.opened;
    await postJson(server, "/api/call", { callId: "s1", tool: "stage_note", params: { note: "kept" } });
    await writeFile(
      join(root, "tools/extra.ts"),
      `export default (pi) => ({ name: "extra", label: "Extra", description: "Added later.", parameters: pi.typebox.Type.Object({}), async execute() { return { content: [] }; } });\n`,
    );
    const reloaded = await events.next(
      (event) =>
        event.event === "state" && (event.data as InspectState).tools.some((tool) => tool.name === "extra"),
    );
    expect((reloaded.data as InspectState).pending.map((action) => action.label)).toEqual([
      'Write note "kept"',
    ]);
    const log = await events.next(
      (event) => event.event === "log" && (event.data as LogEntry).summary.startsWith("reloaded"),
    );
    expect((log.data as LogEntry).summary).toContain("added extra");
  });
});
