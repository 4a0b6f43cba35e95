import { chmod, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { openSqliteJournal } from "@tooldock/runtime";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { describePostgres } from "../../../scripts/describe-postgres.js";
import { ensureRuntime } from "../../../scripts/runtimes.mjs";
import { assertBuilt, cliBin, examplesDir, fixturesDir, runCli, runProcess, tempDir } from "./cli-process.js";
import { startMcpChild } from "./mcp-child.js";

/**
 * `tooldock call --store` and `tooldock pending` (issue 28, item 4): a preview staged by one
 * process is kept in an SQLite file and applied by another. The CLI runs under Node 24
 * (`node:sqlite`); under the suite's Node 20 it opens the store with `better-sqlite3`, and says
 * what to do when that package is missing or broken.
 */
const renameTool = join(examplesDir, "tools/batch-rename-preview.ts");
let node = "";
let work: Awaited<ReturnType<typeof tempDir>>;
let state = "";

beforeAll(async () => {
  assertBuilt();
  node = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
  work = await tempDir({ "notes-draft.md": "a note\n" });
  state = join(work.path, "state");
  await mkdir(state, { mode: 0o700 });
}, 600_000);
afterAll(async () => {
  await work?.remove();
});

const cli = (...args: string[]) => runProcess(node, [cliBin, ...args], { cwd: work.path });

describe("tooldock call --store, then tooldock pending", { timeout: 120_000 }, () => {
  it("a call's preview is kept in the store and applied by `tooldock pending apply` in a later process, in the call's folder", async () => {
    const store = `sqlite:${join(state, "pending.db")}`;
    const args = JSON.stringify({ files: ["notes-draft.md"], find: "draft", replace: "final", regex: false });
    const call = await cli("call", "batch_rename_preview", renameTool, "--args", args, "--store", store);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain(`1 action stays pending in ${store} (session "tooldock-cli")`);
    // Made by the command, readable by its user alone.
    expect((await stat(join(state, "pending.db"))).mode & 0o777).toBe(0o600);
    expect(call.stdout).toContain(`tooldock pending apply|discard --store ${store} ${renameTool}`);
    expect(await readdir(work.path)).toContain("notes-draft.md");

    const listed = await cli("pending", "list", "--store", store, "--json");
    expect(listed.code).toBe(0);
    const { pending } = JSON.parse(listed.stdout) as { pending: Array<{ label: string; handler: string }> };
    expect(pending.map(({ label, handler }) => [label, handler])).toEqual([
      ['Rename 1 file: "draft" → "final"', "rename"],
    ]);

    // The store's session waits for its action: another call is refused until it is resolved.
    const refused = await cli("call", "batch_rename_preview", renameTool, "--args", args, "--store", store);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('session "tooldock-cli" of');
    expect(refused.stderr).toContain("has 1 pending action");

    // From another folder: the action renames in the folder it was planned in.
    const applied = await runProcess(
      node,
      [cliBin, "pending", "apply", "--store", store, renameTool, "--reason", "reviewed"],
      { cwd: state },
    );
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("notes-draft.md → notes-final.md");
    expect((await readdir(work.path)).sort()).toEqual(["notes-final.md", "state"]);

    const history = await cli("pending", "list", "--store", store, "--json");
    const listedAfter = JSON.parse(history.stdout) as {
      pending: unknown[];
      history: Array<{ kind: string }>;
    };
    expect(listedAfter.pending).toEqual([]);
    expect(listedAfter.history.map(({ kind }) => kind)).toEqual(["staged", "applied"]);
    const nothing = await cli("pending", "apply", "--store", store, renameTool);
    expect(nothing.code).toBe(1);
    expect(nothing.stdout).toContain("No pending action in session");
  });

  // The suite's Node 20 has no node:sqlite, and the repository installs better-sqlite3 for it:
  // each preload makes this process a machine where that package is missing, or broken.
  const driverFixtures = join(fixturesDir, "sqlite-driver");
  const nodeSqlite = process.versions.sqlite !== undefined;

  /** An empty file, which SQLite opens as an empty database (`pending` makes no database). */
  const emptyStore = async (name: string) => {
    await writeFile(join(state, name), "", { mode: 0o600 });
    return `sqlite:${join(state, name)}`;
  };

  it.skipIf(nodeSqlite)("says what is missing on a Node without a SQLite driver", async () => {
    const run = await runCli(["pending", "list", "--store", await emptyStore("other.db")], {
      cwd: work.path,
      nodeArgs: ["--require", join(driverFixtures, "without-better-sqlite3.cjs")],
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("E_PENDING_STORE: No SQLite driver for the pending-action database");
    expect(run.stderr).toContain("Run Node 22.13 or later, or install better-sqlite3");
  });

  it.skipIf(nodeSqlite)(
    "says that better-sqlite3 is broken, not missing, when its addon was built for another Node",
    async () => {
      const run = await runCli(["pending", "list", "--store", await emptyStore("other.db")], {
        cwd: work.path,
        nodeArgs: ["--require", join(driverFixtures, "better-sqlite3-built-for-another-node.cjs")],
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "uses the better-sqlite3 package, which is installed but could not be loaded: The module '/project/node_modules/better-sqlite3/build/Release/better_sqlite3.node' was compiled against a different Node.js version",
      );
      expect(run.stderr).toContain(
        `Rebuild it for this Node (${process.version}) with npm rebuild better-sqlite3`,
      );
    },
  );

  it.skipIf(nodeSqlite)("opens the store on Node 20 with better-sqlite3", async () => {
    const store = `sqlite:${join(state, "node20.db")}`;
    const folder = await tempDir({ "a-draft.md": "a\n" });
    onTestFinished(() => folder.remove());
    const args = JSON.stringify({ files: ["a-draft.md"], find: "draft", replace: "final", regex: false });
    const stage = ["call", "batch_rename_preview", renameTool, "--args", args, "--store", store];
    const call = await runCli(stage, { cwd: folder.path });
    expect(call.code, call.stderr).toBe(0);
    expect((await stat(join(state, "node20.db"))).mode & 0o777).toBe(0o600);
    const run = await runCli(["pending", "list", "--store", store], { cwd: folder.path });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Rename 1 file: "draft" → "final"');
  });

  it("refuses a store another user could have planted (a folder writable by others)", async () => {
    const shared = join(work.path, "shared");
    await mkdir(shared);
    await chmod(shared, 0o1777);
    await writeFile(join(shared, "pending.db"), "", { mode: 0o600 });
    const run = await cli("pending", "list", "--store", `sqlite:${join(shared, "pending.db")}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/E_PENDING_STORE: the store's folder .*shared is writable by group or others/);
  });

  // Found by a bug hunt: the server read its session's stack once, at its start. An action
  // another process discarded went on blocking every tool ("Call resolve first"), and the
  // resolve the model was sent to then found it resolved elsewhere.
  it("mcp --store sees an action another process resolved: the next tool call runs", async () => {
    const store = `sqlite:${join(state, "mcp.db")}`;
    const draft = await tempDir({ "plan-draft.md": "a plan\n" });
    onTestFinished(draft.remove);
    const args = { files: ["plan-draft.md"], find: "draft", replace: "final", regex: false };
    const staged = await runProcess(
      node,
      [cliBin, "call", "batch_rename_preview", renameTool, "--args", JSON.stringify(args), "--store", store],
      { cwd: draft.path },
    );
    expect(staged.code).toBe(0);
    const server = await startMcpChild([renameTool, "--store", store], draft.path);
    onTestFinished(server.kill);
    const discarded = await runProcess(
      node,
      [cliBin, "pending", "discard", "--store", store, renameTool, "--reason", "operator"],
      { cwd: draft.path },
    );
    expect(discarded.code).toBe(0);
    const again = await server.client.callTool({ name: "batch_rename_preview", arguments: args });
    expect(again.isError).toBeUndefined();
    expect(JSON.stringify(again.content)).not.toContain("Call `resolve` first");
    server.closeStdin();
    expect(await server.exited).toBe(0);
  });

  it("says which file it cannot open, or which record it cannot read, not an internal error (found by a bug hunt)", async () => {
    const garbage = join(state, "garbage.db");
    await writeFile(garbage, "this is no database, only text long enough to be read as a header", {
      mode: 0o600,
    });
    const run = await cli("pending", "list", "--store", `sqlite:${garbage}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `tooldock pending: E_PENDING_STORE: The pending-action database ${garbage} cannot be opened`,
    );
    expect(run.stderr).not.toContain("internal error");
  });

  it("says there is no store at a path that does not exist, and makes none (found by a bug hunt)", async () => {
    const typo = join(state, "no-such-folder", "pending.db");
    const run = await cli("pending", "list", "--store", `sqlite:${typo}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`there is no pending-action database at ${typo}`);
    expect(await readdir(state)).not.toContain("no-such-folder");
  });

  it("says there is no store at a file name that does not exist, and makes none (found by a bug hunt)", async () => {
    const typo = join(state, "pendng.db");
    const run = await cli("pending", "list", "--store", `sqlite:${typo}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`there is no pending-action database at ${typo} (no such file)`);
    expect(await readdir(state)).not.toContain("pendng.db");
  });

  // Found by a bug hunt (factory-jumps-the-queue): `pending apply` loads the tools after reading
  // the top action; an action a factory staged while loading sat above it and was applied
  // instead, under the listed action's label.
  it("resolves the action listed, not one a factory staged while the tools loaded", async () => {
    const folder = await tempDir({
      "tools/stager.mjs": DURABLE_STAGER,
      "tools/at-load.mjs": STAGES_AT_LOAD,
    });
    onTestFinished(() => folder.remove());
    const store = `sqlite:${join(folder.path, "pending.db")}`;
    const tools = join(folder.path, "tools");
    const run = (...args: string[]) => runProcess(node, [cliBin, ...args], { cwd: folder.path });
    expect((await run("call", "stage_note", join(tools, "stager.mjs"), "--store", store)).code).toBe(0);
    const applied = await run("pending", "apply", "--store", store, tools);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("apply Write note.txt");
    expect(applied.stderr).toContain('"Written at load" was staged while the tools loaded');
    expect((await readdir(folder.path)).sort()).toEqual(["note.txt", "pending.db", "tools"]);
    expect(applied.stdout).not.toContain("more pending");
  });

  // Found by a bug hunt: after a failed apply, "1 more pending" counted the very action the
  // answer had just reported (back on top), with nothing else pending.
  it("counts no action twice after a failed apply", async () => {
    const folder = await tempDir({ "tools/failing.mjs": FAILING_STAGER });
    onTestFinished(() => folder.remove());
    const store = `sqlite:${join(folder.path, "pending.db")}`;
    const tool = join(folder.path, "tools", "failing.mjs");
    const run = (...args: string[]) => runProcess(node, [cliBin, ...args], { cwd: folder.path });
    expect((await run("call", "stage_failing", tool, "--store", store)).code).toBe(0);
    const failed = await run("pending", "apply", "--store", store, tool);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("the disk is full");
    expect(failed.stdout).not.toContain("more pending");
  });

  // Found by a bug hunt: while another process applied the only action, `pending list` said
  // "No pending action" and `pending discard` "nothing to discard", with no word of the apply.
  it("names an action another process is applying now", async () => {
    const folder = await tempDir({ "tools/stager.mjs": DURABLE_STAGER });
    onTestFinished(() => folder.remove());
    const file = join(folder.path, "pending.db");
    const tool = join(folder.path, "tools", "stager.mjs");
    const run = (...args: string[]) => runProcess(node, [cliBin, ...args], { cwd: folder.path });
    expect((await run("call", "stage_note", tool, "--store", `sqlite:${file}`)).code).toBe(0);
    // Another process (this test's, alive) has claimed it and applies it.
    const journal = openSqliteJournal(file);
    const [record] = await journal.open("tooldock-cli");
    const applier = { host: hostname(), pid: process.pid, token: "another-process" };
    expect(
      await journal.move(record?.id as string, { from: ["pending"], to: "applying", owner: applier }),
    ).toBe(true);
    await journal.close();

    const listed = await run("pending", "list", "--store", `sqlite:${file}`);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("Being applied now by another process");
    expect(listed.stdout).toContain(`Write note.txt  (process ${process.pid} on ${hostname()}`);
    const asJson = JSON.parse(
      (await run("pending", "list", "--store", `sqlite:${file}`, "--json")).stdout,
    ) as {
      applying: Array<{ label: string }>;
    };
    expect(asJson.applying.map(({ label }) => label)).toEqual(["Write note.txt"]);
    const discard = await run("pending", "discard", "--store", `sqlite:${file}`, tool);
    expect(discard.code).toBe(1);
    expect(discard.stdout).toContain("nothing to discard");
    expect(discard.stdout).toContain("Being applied now by another process");
  });

  it("is bad usage without --store, or with a store it cannot open", async () => {
    expect((await cli("pending", "list")).code).toBe(2);
    const redis = await cli("pending", "list", "--store", "redis://localhost/0");
    expect(redis.code).toBe(2);
    expect(redis.stderr).toContain(
      '--store takes sqlite:PATH (a file) or a postgresql:// connection string, got "redis://localhost/0"',
    );
  });
});

describePostgres(
  "tooldock call --store postgresql://…, then tooldock pending",
  { timeout: 120_000 },
  (cluster) => {
    it("a preview staged by one process is applied by another through the same server (the suite's Node)", async () => {
      const folder = await tempDir({ "todo-draft.md": "a list\n" });
      onTestFinished(folder.remove);
      const store = cluster().url;
      const args = JSON.stringify({ files: ["todo-draft.md"], find: "draft", replace: "done", regex: false });
      const call = await runCli(
        ["call", "batch_rename_preview", renameTool, "--args", args, "--store", store, "--session", "ops-1"],
        { cwd: folder.path },
      );
      expect(call.code).toBe(0);
      expect(call.stdout).toContain(`1 action stays pending in ${store} (session "ops-1")`);

      const applied = await runCli(
        ["pending", "apply", "--store", store, "--session", "ops-1", renameTool, "--reason", "reviewed"],
        { cwd: work.path },
      );
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain("todo-draft.md → todo-done.md");
      expect(await readdir(folder.path)).toEqual(["todo-done.md"]);
      const listed = await runCli(["pending", "list", "--store", store, "--session", "ops-1", "--json"]);
      const { history } = JSON.parse(listed.stdout) as { history: Array<{ kind: string }> };
      expect(history.map(({ kind }) => kind)).toEqual(["staged", "applied"]);
    });

    it("an ast_edit preview is kept as data and applied by `tooldock pending apply` in another process", async () => {
      const folder = await tempDir({ "src/log.ts": "console.log('a', 1);\n" });
      onTestFinished(folder.remove);
      const store = cluster().url;
      const ops = JSON.stringify({ ops: [{ pat: "console.log($$$A)", out: "logger.info($$$A)" }] });
      const call = await runCli(
        ["call", "ast_edit", renameTool, "--args", ops, "--store", store, "--session", "ops-2"],
        { cwd: folder.path },
      );
      expect(call.code).toBe(0);
      expect(call.stdout).toContain("1 action stays pending");
      const listed = await runCli(["pending", "list", "--store", store, "--session", "ops-2", "--json"]);
      const { pending } = JSON.parse(listed.stdout) as { pending: Array<{ handler: string }> };
      expect(pending.map(({ handler }) => handler)).toEqual(["rewrite"]);

      const applied = await runCli(["pending", "apply", "--store", store, "--session", "ops-2", renameTool], {
        cwd: work.path,
      });
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain("Applied AST Edit: wrote 1 replacement in 1 file.");
      expect(await readFile(join(folder.path, "src/log.ts"), "utf8")).toBe("logger.info('a', 1);\n");
    });

    it("says which server it could not reach", async () => {
      const url = `postgresql://tooldock@localhost/postgres?host=${encodeURIComponent(join(work.path, "no-server"))}`;
      const run = await runCli(["pending", "list", "--store", url]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("E_PENDING_STORE: The pending-action database could not be opened");
      expect(run.stderr).toContain("no-server");
    });
  },
);

/** Stages a durable action that writes note.txt in the working folder. */
const DURABLE_STAGER = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default (pi) => ({
  name: "stage_note",
  label: "Stage note",
  description: "Stages writing note.txt",
  parameters: pi.typebox.Type.Object({}),
  actions: {
    write: {
      async apply(_payload, _reason, ctx) {
        writeFileSync(join(ctx.cwd, "note.txt"), "note");
        return { content: [{ type: "text", text: "note written" }] };
      },
    },
  },
  async execute(_id, _params, _onUpdate, ctx) {
    ctx.pushPendingAction({ label: "Write note.txt", handler: "write", payload: {} });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

/** A factory that stages an action while it loads, whose apply would write at-load.txt. */
const STAGES_AT_LOAD = `import { writeFileSync } from "node:fs";
export default (pi) => {
  pi.pushPendingAction({
    label: "Written at load",
    apply: async () => {
      writeFileSync("at-load.txt", "x");
      return { content: [{ type: "text", text: "at-load written" }] };
    },
  });
  return { name: "noop", label: "Noop", description: "Does nothing", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) };
};
`;

/** Stages a durable action whose apply always fails. */
const FAILING_STAGER = `export default (pi) => ({
  name: "stage_failing",
  label: "Stage failing",
  description: "Stages an action that cannot be applied",
  parameters: pi.typebox.Type.Object({}),
  actions: { fail: { async apply() { throw new Error("the disk is full"); } } },
  async execute(_id, _params, _onUpdate, ctx) {
    ctx.pushPendingAction({ label: "Never applies", handler: "fail", payload: {} });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;
