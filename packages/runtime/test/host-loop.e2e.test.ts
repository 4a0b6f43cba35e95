import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Session } from "../src/session/session.js";
import { type AnthropicRequest, toAnthropicRequest } from "../src/steering/anthropic-request.js";
import { textOf } from "./fake-context.js";
import { echoTool } from "./tools.js";
import { writeFilesTool } from "./write-files-tool.js";

interface ModelCall {
  name: string;
  params: unknown;
}
type Turn = { offered: AnthropicRequest; call: ModelCall; result: AgentToolResult };
/** One scripted model step: sees the request the host would send, returns its tool call. */
type Step = (request: AnthropicRequest) => ModelCall | Promise<ModelCall>;

/**
 * A host loop as a real agent would run it: build the request from the session, let the
 * "model" answer with a tool call, execute it, append reminders to the conversation.
 */
async function runHost(session: Session, script: Step[]) {
  const turns: Turn[] = [];
  const reminders: string[] = [];
  const unsubscribe = session.subscribe((event) => {
    if (event.type === "reminder") reminders.push(event.text);
  });
  for (const [index, step] of script.entries()) {
    const offered = toAnthropicRequest(session);
    const call = await step(offered);
    const result = await session.execute({ toolCallId: `toolu_${index}`, ...call });
    turns.push({ offered, call, result });
  }
  unsubscribe();
  return { turns, reminders };
}

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-runtime-e2e-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function newSession() {
  const session = new Session({ cwd: root, sessionId: "e2e" });
  session.register(writeFilesTool(root), "test/write-files-tool.ts");
  session.register(echoTool("note"), "test/tools.ts");
  return session;
}

const write =
  (path: string, text: string): Step =>
  () => ({ name: "write_files", params: { files: [{ path, text }] } });
const resolveWith =
  (action: "apply" | "discard", reason: string): Step =>
  () => ({
    name: "resolve",
    params: { action, reason },
  });

describe("a host driving a Session with a scripted model", () => {
  it("previews, forces resolve, refuses other tools, applies, and the files hold the change", async () => {
    await writeFile(join(root, "a.txt"), "old");
    const session = newSession();
    await session.start();
    let onDiskWhilePending: string | undefined;
    const { turns, reminders } = await runHost(session, [
      write("a.txt", "new"),
      async () => {
        onDiskWhilePending = await readFile(join(root, "a.txt"), "utf8");
        return { name: "note", params: { text: "let me do something else first" } };
      },
      resolveWith("apply", "the preview is what the user asked for"),
      () => ({ name: "note", params: { text: "done" } }),
    ]);

    expect(turns[0]?.offered.tool_choice).toEqual({ type: "auto" });
    expect(turns[0]?.offered.tools.map((tool) => tool.name)).toEqual(["write_files", "note"]);
    expect(textOf(turns[0]?.result ?? { content: [] })).toContain("a.txt: old -> new");
    expect(onDiskWhilePending).toBe("old");
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toContain("Nothing has changed yet");
    expect(reminders[0]).toContain("Write 1 file(s)");

    expect(turns[1]?.offered.tool_choice).toEqual({ type: "tool", name: "resolve" });
    expect(turns[1]?.offered.tools.map((tool) => tool.name)).toContain("resolve");
    expect(turns[1]?.result.isError).toBe(true);
    expect(textOf(turns[1]?.result ?? { content: [] })).toContain("Call `resolve` first");

    expect(turns[2]?.result.isError).toBeUndefined();
    expect(textOf(turns[2]?.result ?? { content: [] })).toBe("Wrote a.txt");
    expect(turns[2]?.result.details).toMatchObject({
      action: "apply",
      label: "Write 1 file(s)",
      sourceToolName: "write_files",
    });
    expect(await readFile(join(root, "a.txt"), "utf8")).toBe("new");

    expect(turns[3]?.offered.tool_choice).toEqual({ type: "auto" });
    expect(turns[3]?.offered.tools.map((tool) => tool.name)).not.toContain("resolve");
    expect(textOf(turns[3]?.result ?? { content: [] })).toBe("done");
    await session.dispose();
  });

  it("discards, and the files on disk are untouched", async () => {
    await writeFile(join(root, "a.txt"), "old");
    const session = newSession();
    const { turns } = await runHost(session, [
      write("a.txt", "new"),
      resolveWith("discard", "the user changed their mind"),
    ]);
    expect(textOf(turns[1]?.result ?? { content: [] })).toBe(
      "Discarded: Write 1 file(s). Reason: the user changed their mind",
    );
    expect(await readFile(join(root, "a.txt"), "utf8")).toBe("old");
    expect(session.pending.hasPending).toBe(false);
    expect(session.toolChoice()).toBe("auto");
  });

  it("keeps a failed apply pending with the same id, and a retry after the fix succeeds", async () => {
    const session = new Session({ cwd: root });
    session.register(writeFilesTool(root, { createDirectories: false }));
    const { turns } = await runHost(session, [write("missing-dir/b.txt", "b"), resolveWith("apply", "go")]);
    const failed = turns[1]?.result ?? { content: [] };
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('Apply failed for "Write 1 file(s)"');
    expect(textOf(failed)).toContain("ENOENT");
    expect(textOf(failed)).toContain("still pending");
    const record = session.pending.peek();
    expect(record?.id).toBe((failed.details as { id: string }).id);
    expect(toAnthropicRequest(session).tool_choice).toEqual({ type: "tool", name: "resolve" });

    await mkdir(join(root, "missing-dir"));
    const retried = await session.execute({
      toolCallId: "retry",
      name: "resolve",
      params: { action: "apply", reason: "created the folder" },
    });
    expect(retried.details).toMatchObject({ id: record?.id });
    expect(await readFile(join(root, "missing-dir/b.txt"), "utf8")).toBe("b");
  });

  it("resolves actions from three producers last in, first out", async () => {
    const session = new Session({ cwd: root, pendingPolicy: "allow" });
    for (const name of ["writer_a", "writer_b", "writer_c"]) session.register(writeFilesTool(root, { name }));
    const order: string[] = [];
    session.subscribe((event) => {
      if (event.type === "action-applied" || event.type === "action-discarded")
        order.push(event.record.sourceToolName);
    });
    const { turns } = await runHost(session, [
      () => ({ name: "writer_a", params: { files: [{ path: "a.txt", text: "A" }] } }),
      () => ({ name: "writer_b", params: { files: [{ path: "b.txt", text: "B" }] } }),
      () => ({ name: "writer_c", params: { files: [{ path: "c.txt", text: "C" }] } }),
      resolveWith("apply", "c first"),
      resolveWith("discard", "b not wanted"),
      resolveWith("apply", "a last"),
      resolveWith("apply", "nothing left"),
    ]);
    expect(order).toEqual(["writer_c", "writer_b", "writer_a"]);
    expect(textOf(turns[6]?.result ?? { content: [] })).toBe(
      "No pending action to resolve. Nothing to apply or discard.",
    );
    expect(await readFile(join(root, "a.txt"), "utf8")).toBe("A");
    await expect(readFile(join(root, "b.txt"), "utf8")).rejects.toThrow("ENOENT");
    expect(await readFile(join(root, "c.txt"), "utf8")).toBe("C");
  });

  it("dispose discards what is still pending, and nothing is written", async () => {
    const session = newSession();
    await runHost(session, [write("late.txt", "x")]);
    const discarded: string[] = [];
    session.subscribe((event) => {
      if (event.type === "action-discarded") discarded.push(event.reason);
    });
    await session.dispose();
    expect(discarded).toEqual(["session disposed"]);
    await expect(readFile(join(root, "late.txt"), "utf8")).rejects.toThrow("ENOENT");
  });
});
