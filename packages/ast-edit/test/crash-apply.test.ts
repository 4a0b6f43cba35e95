import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAstEditTool } from "../src/ast-edit-tool.js";
import { fakeContext } from "./fake-context.js";

// Crash-safe apply (issue 7): a child process previews and applies a multi-file ast_edit
// with the BUILT package while this process SIGKILLs it at a random point. After each kill
// every file must be byte for byte its before or its after image; after the next start
// (the tool's onSession "start") no temporary file or journal may remain (in the working
// directory or in the run's private journal folder), and the files must be all before or all
// after. `pnpm test:crash` runs 50 kills; the normal suite runs 8.

const RUNS = Number(process.env.TOOLDOCK_CRASH_RUNS ?? 8);
const CHILD = fileURLToPath(new URL("./crash-apply-child.mjs", import.meta.url));
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const JOURNAL = /\/[0-9a-f]{8}-\d+-[0-9a-f]{12}\.journal$/;
const LITTER = /(\.tooldock-tmp|\.journal)$/;

const bigFile = (seed: number) =>
  Array.from({ length: 5000 }, (_, n) =>
    n % 500 === seed
      ? `export function f${n}() { return oldName(${n}, "x"); }`
      : `export const v${n} = "${"y".repeat(40)}";`,
  ).join("\n");
const smallFile = (n: number) =>
  `import { oldName } from "./names";\n\nexport const r${n} = oldName(${n});\nexport function g${n}(x: number) {\n  return oldName(x, ${n}) + 1;\n}\n`;

/** Relative path to before image; every one of them changes except `UNTOUCHED`. */
const BEFORE: Record<string, string> = {
  "src/big-1.ts": bigFile(0),
  "src/big-2.ts": bigFile(7),
  ...Object.fromEntries(
    Array.from({ length: 10 }, (_, n) => [`src/${["a", "b", "c"][n % 3]}/mod-${n}.ts`, smallFile(n)]),
  ),
  "src/names.ts": "export const other = 1;\n",
  "README.md": "oldName(1)\n",
};
const UNTOUCHED = new Set(["src/names.ts", "README.md"]);
const AFTER: Record<string, string> = Object.fromEntries(
  Object.entries(BEFORE).map(([path, text]) => [
    path,
    UNTOUCHED.has(path) ? text : text.replaceAll("oldName(", "newName("),
  ]),
);

interface FsEvent {
  type: "fs";
  op: string;
  index: number;
  paths: string[];
}

interface RunOutcome {
  events: FsEvent[];
  /** Milliseconds from the first fs call of the apply to the child's "applied". */
  writePhaseMs?: number;
  /** Index of the event at which the child was killed (step mode). */
  killedAtEvent?: number;
  /** The kill was sent after letting that event's call start. */
  killedInsideCall: boolean;
  sawApplying: boolean;
  sawApplied: boolean;
  signal: NodeJS.Signals | null;
  stderr: string;
}

type KillPlan =
  | { mode: "none" }
  | { mode: "step"; atEvent: number; insideCall: boolean }
  | { mode: "timer"; afterMs: number };

let root: string;

beforeAll(async () => {
  await assertBuiltRuntimeIsFresh();
  root = await mkdtemp(join(tmpdir(), "tooldock-crash-apply-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function assertBuiltRuntimeIsFresh(): Promise<void> {
  const sourceDirectory = join(PACKAGE, "src");
  for (const name of await readdir(sourceDirectory)) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts") || name.endsWith(".test-d.ts")) continue;
    const built = join(PACKAGE, "dist", name.replace(/\.ts$/, ".js"));
    const [source, output] = await Promise.all([
      stat(join(sourceDirectory, name)),
      stat(built).catch(() => undefined),
    ]);
    if (output === undefined || output.mtimeMs < source.mtimeMs)
      throw new Error(
        `${built} is missing or older than its source; the crash test runs the built package. Run \`pnpm build\` first.`,
      );
  }
}

let workspaces = 0;
/** The state folder of a workspace's runs (journals go to its `ast-edit-journals`). */
const stateOf = (cwd: string) => `${cwd}-state`;
async function freshWorkspace(): Promise<string> {
  const cwd = join(root, `run-${workspaces++}`);
  for (const [path, text] of Object.entries(BEFORE)) {
    await mkdir(dirname(join(cwd, path)), { recursive: true });
    await writeFile(join(cwd, path), text);
  }
  return cwd;
}

function runChild(cwd: string, plan: KillPlan): Promise<RunOutcome> {
  const child: ChildProcess = spawn(process.execPath, [CHILD, cwd, plan.mode === "step" ? "step" : "timer"], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: { ...process.env, TOOLDOCK_STATE_DIR: stateOf(cwd) },
  });
  const outcome: RunOutcome = {
    events: [],
    killedInsideCall: false,
    sawApplying: false,
    sawApplied: false,
    signal: null,
    stderr: "",
  };
  const kill = () => child.kill("SIGKILL");
  child.stderr?.on("data", (chunk) => {
    outcome.stderr += chunk;
  });
  let firstEventAt = 0;
  child.on("message", (message: FsEvent | { type: "applying" } | { type: "applied" }) => {
    if (message.type === "applying") {
      outcome.sawApplying = true;
    } else if (message.type === "applied") {
      outcome.sawApplied = true;
      outcome.writePhaseMs = performance.now() - firstEventAt;
    } else if (message.type === "fs") {
      if (message.index === 0) firstEventAt = performance.now();
      outcome.events.push(message);
      if (plan.mode === "timer" && message.index === 0) setTimeout(kill, plan.afterMs);
      if (plan.mode !== "step") return;
      if (message.index !== plan.atEvent) {
        child.send("go");
        return;
      }
      outcome.killedAtEvent = message.index;
      if (!plan.insideCall) return void kill();
      outcome.killedInsideCall = true;
      child.send("go");
      setTimeout(kill, Math.floor(Math.random() * 3));
    }
  });
  return new Promise((resolve) => {
    child.on("exit", (_code, signal) => resolve({ ...outcome, signal }));
  });
}

type FileState = "before" | "after" | "empty" | "partial" | "missing";

async function fileStates(cwd: string): Promise<Record<string, FileState>> {
  const states: Record<string, FileState> = {};
  for (const path of Object.keys(BEFORE)) {
    const bytes = await readFile(join(cwd, path)).catch(() => undefined);
    states[path] =
      bytes === undefined
        ? "missing"
        : bytes.length === 0
          ? "empty"
          : bytes.equals(Buffer.from(BEFORE[path] ?? ""))
            ? "before"
            : bytes.equals(Buffer.from(AFTER[path] ?? ""))
              ? "after"
              : "partial";
  }
  return states;
}

/** Temporary files and journals in the workspace and in its journal folder, relative to `root`. */
async function litter(cwd: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (LITTER.test(entry.name)) found.push(relative(root, path).split(sep).join("/"));
    }
  };
  await walk(cwd);
  await walk(stateOf(cwd));
  return found.sort();
}

/** The next start: a new ast_edit tool for the same directory gets its session's start event. */
async function nextStart(cwd: string): Promise<void> {
  const tool = createAstEditTool({ cwd, stateDirectory: stateOf(cwd) });
  await tool.onSession?.({ reason: "start" }, fakeContext({ cwd }));
}

/** True when the journal's second rename (prepared -> committed) had completed before the kill. */
function committedBeforeKill(outcome: RunOutcome): boolean {
  const completed = outcome.events.filter((event) => event.index < (outcome.killedAtEvent ?? 0));
  return completed.filter((event) => event.op === "rename" && JOURNAL.test(event.paths[1] ?? "")).length >= 2;
}

const random = (below: number) => Math.floor(Math.random() * below);

describe("ast_edit apply killed with SIGKILL", () => {
  let eventsPerApply = 0;
  let writePhaseMs = 0;

  it("control: an apply that is not killed writes every after image and leaves nothing behind", async () => {
    const cwd = await freshWorkspace();
    const outcome = await runChild(cwd, { mode: "none" });
    expect(outcome.stderr).toBe("");
    expect(outcome.sawApplied).toBe(true);
    const states = await fileStates(cwd);
    for (const [path, state] of Object.entries(states))
      expect(state, path).toBe(UNTOUCHED.has(path) ? "before" : "after");
    expect(await litter(cwd)).toEqual([]);
    eventsPerApply = outcome.events.length;
    writePhaseMs = outcome.writePhaseMs ?? 0;
    // A journal (prepare and commit), one temporary file and one rename per changed file.
    expect(outcome.events.filter((event) => event.op === "rename")).toHaveLength(2 + 12);
  });

  it(`leaves each file whole and, after the next start, all files in one image with no litter (${RUNS} kills)`, async () => {
    expect(eventsPerApply).toBeGreaterThan(0);
    const figures = {
      runs: 0,
      landedDuringApply: 0,
      step: 0,
      timer: 0,
      mixedBeforeRecovery: 0,
      litterBeforeRecovery: 0,
      rolledBack: 0,
      rolledForward: 0,
    };
    const runOne = async (run: number) => {
      const cwd = await freshWorkspace();
      const plan: KillPlan =
        run % 2 === 0
          ? { mode: "step", atEvent: random(eventsPerApply), insideCall: random(2) === 1 }
          : { mode: "timer", afterMs: Math.random() * writePhaseMs * 1.2 };
      const outcome = await runChild(cwd, plan);
      const where = `run ${run} ${JSON.stringify(plan)}, killed after ${outcome.events.length} fs event(s)`;
      expect(outcome.sawApplying, `${where}: the child did not reach apply\n${outcome.stderr}`).toBe(true);

      const states = await fileStates(cwd);
      for (const [path, state] of Object.entries(states)) {
        expect(["before", "after"], `${where}: ${path} is ${state}`).toContain(state);
        if (UNTOUCHED.has(path)) expect(state, `${where}: ${path}`).toBe("before");
      }
      const landed = outcome.signal === "SIGKILL" && !outcome.sawApplied;
      figures.runs++;
      figures[plan.mode === "step" ? "step" : "timer"]++;
      if (landed) figures.landedDuringApply++;
      // A child held before an fs call cannot finish: these kills always land inside apply.
      if (plan.mode === "step" && !plan.insideCall) expect(landed, `${where}: did not land`).toBe(true);
      if (new Set(Object.values(states)).size > 1) figures.mixedBeforeRecovery++;
      if ((await litter(cwd)).length > 0) figures.litterBeforeRecovery++;

      await nextStart(cwd);

      expect(await litter(cwd), `${where}: left after the next start`).toEqual([]);
      const recovered = await fileStates(cwd);
      const changed = Object.entries(recovered).filter(([path]) => !UNTOUCHED.has(path));
      const images = new Set(changed.map(([, state]) => state));
      expect([...images], `${where}: after the next start ${JSON.stringify(recovered)}`).toHaveLength(1);
      const image = [...images][0];
      expect(["before", "after"], where).toContain(image);
      if (image === "after") figures.rolledForward++;
      else figures.rolledBack++;
      if (plan.mode === "step" && !outcome.killedInsideCall)
        expect(image, `${where}: the commit point decides`).toBe(
          committedBeforeKill(outcome) ? "after" : "before",
        );
    };

    // Two children at a time (the suite runs on two cores); each run has its own directory.
    // The first failure stops both workers; each finishes its run, so no child outlives the test.
    let next = 0;
    const worker = async () => {
      while (next < RUNS) {
        await runOne(next++).catch((error: unknown) => {
          next = RUNS;
          throw error;
        });
      }
    };
    const settled = await Promise.allSettled([worker(), worker()]);
    for (const result of settled) if (result.status === "rejected") throw result.reason;

    console.log(`crash-apply figures: ${JSON.stringify({ ...figures, eventsPerApply, writePhaseMs })}`);
    expect(figures.runs).toBe(RUNS);
  }, 600_000);
});
