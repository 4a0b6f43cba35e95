// Attack: a tool the host did not trust ran in a tool host (`isolation: "process"`) and staged
// a durable action into a SQLite journal; its payload is the untrusted module's data. A day
// later a library host (runtime and loader, no CLI) opened the same session and loaded the
// same tools in its own process: `resolve` bound the action to the in-process tool's handler,
// which acted on the sandbox's payload with the host's rights (here: wrote a file). Only the
// CLI refused that. The runtime now refuses to apply or discard such an action with a handler
// that does not run in a tool host, unless the host says it trusts the tools
// (`isolatedActionsInProcess: "run"`), and the action stays pending.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openSqliteJournal, Session, type SessionOptions } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type LoadCustomToolsOptions, loadCustomTools } from "../../src/index.js";
import { type Project, project, text } from "../isolation/isolation-helpers.js";

const WRITER = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stage_write",
  label: "Stage a write",
  description: "Stages a durable write of out.txt",
  parameters: Type.Object({}),
  actions: {
    write: {
      async apply(payload, _reason, ctx) {
        writeFileSync(join(ctx.cwd, payload.file), "applied");
        return { content: [{ type: "text", text: "wrote " + payload.file }] };
      },
      async reject(payload, _reason, ctx) {
        writeFileSync(join(ctx.cwd, "rejected.txt"), "rejected");
      },
    },
  },
  async execute(_id, _params, _onUpdate, ctx) {
    ctx.pushPendingAction({ label: "Write out.txt", handler: "write", payload: { file: "out.txt" } });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

const SESSION_ID = "chat-1";

/** A session of the project's journal, its tools loaded as `isolation` says; closed by the returned function. */
async function open(
  where: Project,
  isolation: LoadCustomToolsOptions["isolation"],
  options: Omit<SessionOptions, "pending" | "sessionId"> = {},
) {
  const journal = openSqliteJournal(join(where.root, "pending.db"));
  const session = await Session.open({ ...options, sessionId: SESSION_ID, journal, cwd: where.work });
  const loaded = await loadCustomTools({
    paths: [where.tools],
    cwd: where.work,
    cacheDir: join(where.root, "cache"),
    session,
    isolation,
  });
  expect(loaded.diagnostics).toEqual([]);
  const close = async () => {
    await session.dispose();
    await loaded.isolated?.close();
    await loaded.cached;
    journal.close();
  };
  return { session, journal, close };
}

/** Stages the write with the tool in a tool host, then lets that host and its session go. */
async function stagedInToolHost(): Promise<Project> {
  const where = await project({ "writer.ts": WRITER });
  const staging = await open(where, "process");
  expect(text(await staging.session.execute({ toolCallId: "1", name: "stage_write", params: {} }))).toBe(
    "staged",
  );
  expect(staging.session.pending.peek()?.isolated).toBe(true);
  await staging.close();
  return where;
}

const resolve = (session: Session, action: "apply" | "discard") =>
  session.execute({ toolCallId: `resolve-${action}`, name: "resolve", params: { action, reason: "ok" } });

describe("isolated-action-applied-by-an-in-process-handler", { timeout: 120_000 }, () => {
  it("a library host that loads the tool in-process refuses to apply or discard it; it stays pending", async () => {
    const where = await stagedInToolHost();
    const later = await open(where, undefined);
    try {
      for (const action of ["apply", "discard"] as const) {
        const refused = await resolve(later.session, action);
        expect(existsSync(join(where.work, "out.txt")), "the in-process handler wrote out.txt").toBe(false);
        expect(existsSync(join(where.work, "rejected.txt")), "the in-process reject ran").toBe(false);
        expect(refused.isError).toBe(true);
        expect(text(refused)).toContain("was staged by a tool in a tool host");
        expect(text(refused)).toContain("runs in this process");
        expect(text(refused)).toContain("nothing was applied or discarded");
        expect(text(refused)).toContain('isolation: "process"');
        expect(text(refused)).toContain('isolatedActionsInProcess: "run"');
        expect(refused.details).toMatchObject({ refusedInProcess: true });
        expect(later.session.pending.list().map((record) => record.label)).toEqual(["Write out.txt"]);
      }
      const records = await later.journal.open(SESSION_ID);
      expect(records.map(({ label, state }) => ({ label, state }))).toEqual([
        { label: "Write out.txt", state: "pending" },
      ]);
    } finally {
      await later.close();
    }
  });

  it('with isolatedActionsInProcess: "run" (the host trusts the tools) it is applied in this process', async () => {
    const where = await stagedInToolHost();
    const trusting = await open(where, undefined, { isolatedActionsInProcess: "run" });
    try {
      const applied = await resolve(trusting.session, "apply");
      expect(applied.isError).toBeUndefined();
      expect(text(applied)).toBe("wrote out.txt");
      expect(trusting.session.pending.size).toBe(0);
    } finally {
      await trusting.close();
    }
    expect(existsSync(join(where.work, "out.txt"))).toBe(true);
  });

  it("a session that loads the tool in a tool host again applies it there", async () => {
    const where = await stagedInToolHost();
    // A tool host writes the working folder by default, where the handler writes.
    const isolated = await open(where, "process");
    try {
      const applied = await resolve(isolated.session, "apply");
      expect(text(applied)).toBe("wrote out.txt");
      expect(isolated.session.pending.size).toBe(0);
    } finally {
      await isolated.close();
    }
    expect(existsSync(join(where.work, "out.txt"))).toBe(true);
  });
});
