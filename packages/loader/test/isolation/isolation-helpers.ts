import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Session, type SessionOptions } from "@tooldock/runtime";
import { onTestFinished } from "vitest";
import { type LoadCustomToolsOptions, loadCustomTools } from "../../src/index.js";
import type { LoadCustomToolsResult } from "../../src/load/types.js";

/** A project folder of its own: `tools/` with the given files, and a `work/` folder as cwd. */
export interface Project {
  root: string;
  tools: string;
  work: string;
}

const cleanups: Array<() => Promise<void>> = [];

/**
 * Runs `cleanup` when the running test finishes, after those added later (last in, first
 * out). Registered per test, not as a module-level `afterEach`: test files share their
 * worker's modules, so this module's top level runs once per worker, not once per file.
 */
function afterThisTest(cleanup: () => Promise<void>): void {
  if (cleanups.length === 0)
    onTestFinished(async () => {
      for (const each of cleanups.splice(0).reverse()) await each();
    });
  cleanups.push(cleanup);
}

/** Makes a project with `files` (paths relative to `tools/`). Removed after the test. */
export async function project(files: Record<string, string>): Promise<Project> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-isolation-")));
  afterThisTest(() => rm(root, { recursive: true, force: true }));
  const tools = join(root, "tools");
  const work = join(root, "work");
  await mkdir(work, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(tools, path)), { recursive: true });
    await writeFile(join(tools, path), text);
  }
  return { root, tools, work };
}

/** Loads `project`'s tools into a new session, in-process or isolated; closed after the test. */
export async function load(
  where: Project,
  isolation: LoadCustomToolsOptions["isolation"],
  options: Partial<LoadCustomToolsOptions> = {},
  sessionOptions: SessionOptions = {},
): Promise<LoadCustomToolsResult & { session: Session }> {
  const session = new Session({ cwd: where.work, ...sessionOptions });
  const result = await loadCustomTools({
    paths: [where.tools],
    cwd: where.work,
    cacheDir: join(where.root, "cache"),
    session,
    isolation,
    ...options,
  });
  afterThisTest(async () => {
    await session.dispose();
    await result.isolated?.close();
    await result.cached; // on Node 22.15+ the packs are written after the load, into the project
  });
  return { ...result, session };
}

/** The text of a result's first block. */
export function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? "").join("\n");
}

/**
 * A tool entry, as module source (in an array a factory returns; `Type` imported from
 * TypeBox): `stage` stages "Write a.txt", whose apply answers "applied". What a test needs to
 * see whether an action staged in a tool host survives what another tool does.
 */
export const STAGE_TOOL = `{
  name: "stage",
  label: "Stage",
  description: "Stages an action",
  parameters: Type.Object({}),
  async execute(_id, _params, _onUpdate, ctx) {
    ctx.pushPendingAction({ label: "Write a.txt", apply: async () => ({ content: [{ type: "text", text: "applied" }] }) });
    return { content: [{ type: "text", text: "staged" }] };
  },
},`;

/**
 * A module of one tool, `stage`, that answers `version` and stages "from <version>", whose
 * apply answers "applied by <version>": what tells a reload's tool hosts apart.
 */
export const stager = (version: string) => `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stage",
  label: "Stage",
  description: "Stages an action",
  parameters: Type.Object({}),
  async execute(id, params, onUpdate, ctx) {
    ctx.pushPendingAction({ label: "from ${version}", apply: async () => ({ content: [{ type: "text", text: "applied by ${version}" }] }) });
    return { content: [{ type: "text", text: "${version}" }] };
  },
});
`;

/**
 * A module of one tool, `stager`, that stages `times` callback actions labelled `kind`: a
 * "slow" one's apply settles only when the host emits "fail", and then fails ("late
 * failure"); any other applies at once. What a test needs to hold an apply in the tool host
 * past a resolve's timeout, then settle it when it chooses.
 */
export const LATE_FAILING_STAGER = `
import { Type } from "@sinclair/typebox";
export default (pi) => {
  const waiting = [];
  pi.events.on("fail", () => { for (const fail of waiting.splice(0)) fail(new Error("late failure")); });
  return {
    name: "stager",
    label: "Stager",
    description: "Stages callback actions; 'slow' ones apply only when the host says fail",
    parameters: Type.Object({ kind: Type.String(), times: Type.Optional(Type.Number()) }),
    async execute(_id, { kind, times = 1 }, _onUpdate, ctx) {
      for (let each = 0; each < times; each += 1)
        ctx.pushPendingAction({
          label: kind,
          apply: kind === "slow"
            ? () => new Promise((_resolve, reject) => waiting.push(reject))
            : async () => ({ content: [] }),
        });
      return { content: [{ type: "text", text: "staged" }] };
    },
  };
};
`;

/**
 * SQLite in memory, for a journal whose tests write a thousand conversations without a disk's
 * sync for each, through the driver the journal itself would take: `node:sqlite` where Node
 * has it, else `better-sqlite3`.
 */
export function sqliteInMemory() {
  const require = createRequire(import.meta.url);
  if (process.versions.sqlite !== undefined) return new (require("node:sqlite").DatabaseSync)(":memory:");
  return new (require("better-sqlite3"))(":memory:");
}
