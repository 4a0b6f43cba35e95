import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, cliBin, runCli, tempDir } from "../cli-process.js";

// An action's apply takes no abort signal. Ctrl-C during `tooldock pending apply` ended the
// process at once (Node's default), leaving the stored action interrupted and its files
// half changed without a word; `call --apply` did the same on a second Ctrl-C.
const TOOL = `import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";

const actions = {
  write: {
    async apply(payload, _reason, ctx) {
      process.stderr.write("applying\\n");
      // Ends once the test makes the release file: the test waits for the event, not a time.
      await new Promise((resolve) => {
        const timer = setInterval(() => {
          if (existsSync(join(ctx.cwd, "release"))) resolve(clearInterval(timer));
        }, 10);
      });
      writeFileSync(join(ctx.cwd, payload.file), "written\\n");
      return { content: [{ type: "text", text: "wrote " + payload.file }] };
    },
    async reject() {
      return { content: [{ type: "text", text: "nothing written" }] };
    },
  },
};

export default (pi) => ({
  name: "stage_write",
  label: "Stage a write",
  description: "Stages the writing of out.txt",
  parameters: Type.Object({}),
  actions,
  async execute() {
    pi.pushPendingAction({ label: "Write out.txt", handler: "write", payload: { file: "out.txt" } });
    return { content: [{ type: "text", text: "would write out.txt" }] };
  },
});
`;

let work: Awaited<ReturnType<typeof tempDir>>;
const children: ChildProcess[] = [];

beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await work?.remove();
});

/** Starts the CLI with `args`; `stderr()` is what it printed so far, `exited` its exit code. */
function start(args: string[]) {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: work.path,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  /** Resolves once stderr contains `text`; fails when the process exits first. */
  const said = (text: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (stderr.includes(text)) resolve();
        else waiters.push(check);
      };
      check();
      void exited.then(() => {
        if (!stderr.includes(text)) reject(new Error(`exited before saying ${text}:\n${stdout}\n${stderr}`));
      });
    });
  return { child, exited, said, out: () => ({ stdout, stderr }) };
}

describe("Ctrl-C during an action's apply", { timeout: 120_000 }, () => {
  it("tooldock pending apply: a first Ctrl-C waits for the apply, which ends and is reported", async () => {
    work = await tempDir({ "tools/stage-write.ts": TOOL });
    const store = `sqlite:${join(work.path, "pending.db")}`;
    const staged = await runCli(["call", "stage_write", "tools", "--store", store], { cwd: work.path });
    expect(staged.code).toBe(0);
    const run = start(["pending", "apply", "--store", store, "tools"]);
    await run.said("applying");
    run.child.kill("SIGINT");
    await run.said(
      'Ctrl-C during the apply of "Write out.txt", which cannot be stopped cleanly: waiting for it to end',
    );
    await writeFile(join(work.path, "release"), "");
    expect(await run.exited).toBe(0);
    expect(run.out().stdout).toContain("wrote out.txt");
    expect(existsSync(join(work.path, "out.txt"))).toBe(true);
  });

  it("tooldock pending apply: a second Ctrl-C stops, names the action left interrupted and how to discard it", async () => {
    work = await tempDir({ "tools/stage-write.ts": TOOL });
    const store = `sqlite:${join(work.path, "pending.db")}`;
    expect((await runCli(["call", "stage_write", "tools", "--store", store], { cwd: work.path })).code).toBe(
      0,
    );
    const run = start(["pending", "apply", "--store", store, "tools"]);
    await run.said("applying");
    run.child.kill("SIGINT");
    await run.said("Press Ctrl-C again to stop at once");
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(run.out().stderr).toContain(
      `tooldock pending: stopped during the apply of "Write out.txt": what it changed is unknown. The action stays in ${store}, marked interrupted (it can only be discarded): check its files, then run tooldock pending discard --store ${store} tools`,
    );
    const listed = await runCli(["pending", "list", "--store", store, "--json"], { cwd: work.path });
    const { pending } = JSON.parse(listed.stdout) as {
      pending: Array<{ label: string; interrupted?: boolean }>;
    };
    expect(pending).toMatchObject([{ label: "Write out.txt", interrupted: true }]);
  });

  it("tooldock pending apply of an action staged with --isolate: a first Ctrl-C waits for the apply in its tool host", async () => {
    work = await tempDir({ "tools/stage-write.ts": TOOL });
    const store = `sqlite:${join(work.path, "state", "pending.db")}`;
    const staged = await runCli(["call", "stage_write", "tools", "--store", store, "--isolate"], {
      cwd: work.path,
    });
    expect(staged.code, staged.stderr).toBe(0);
    const run = start(["pending", "apply", "--store", store, "tools"]);
    await run.said("applying");
    expect(run.out().stderr).toContain("its handler runs in one");
    run.child.kill("SIGINT");
    await run.said(
      'Ctrl-C during the apply of "Write out.txt", which cannot be stopped cleanly: waiting for it to end',
    );
    await writeFile(join(work.path, "release"), "");
    expect(await run.exited).toBe(0);
    expect(run.out().stdout).toContain("wrote out.txt");
    expect(existsSync(join(work.path, "out.txt"))).toBe(true);
  });

  it("tooldock call --apply: a second Ctrl-C stops and says the action, kept in the process only, is gone", async () => {
    work = await tempDir({ "tools/stage-write.ts": TOOL });
    const run = start(["call", "stage_write", "tools", "--apply"]);
    await run.said("applying");
    run.child.kill("SIGINT");
    await run.said("Press Ctrl-C again to stop at once");
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(run.out().stderr).toContain(
      'tooldock call: stopped during the apply of "Write out.txt": what it changed is unknown, and the action, kept in this process only, is gone. Check its files.',
    );
  });
});
