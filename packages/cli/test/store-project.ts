import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { assertBuilt, tempDir } from "./cli-process.js";

/** A project of a test that runs servers and commands with `--store`: read its fields in the tests. */
export interface StoreProject {
  /** The working folder, with the tools in `tools/tools.mjs`. */
  work: Awaited<ReturnType<typeof tempDir>>;
  /** A SQLite store in a private `state` folder of the project's own HOME. */
  store: string;
  /** That HOME, and the cache in it. */
  env: Record<string, string>;
}

/**
 * Makes, before each test of the file, a project whose `tools/tools.mjs` is `tools`, with a
 * HOME of its own holding the store (as a user's, in a folder only they may enter); removes
 * the project after the test, the HOMEs after the file's tests.
 */
export function storeProjectEachTest(tools: string): StoreProject {
  const project = {} as StoreProject;
  // Removed once the file's tests are over: a server a test stops in its onTestFinished (after
  // afterEach) may still be writing its packs into the cache there.
  const homes: Array<Awaited<ReturnType<typeof tempDir>>> = [];
  beforeAll(assertBuilt);
  afterAll(async () => {
    for (const home of homes.splice(0)) await home.remove();
  });
  beforeEach(async () => {
    project.work = await tempDir({ "tools/tools.mjs": tools });
    const home = await tempDir({});
    homes.push(home);
    await mkdir(join(home.path, "state"), { mode: 0o700 });
    project.store = `sqlite:${join(home.path, "state", "pending.db")}`;
    project.env = { HOME: home.path, TOOLDOCK_CACHE_DIR: join(home.path, "cache") };
  });
  afterEach(async () => {
    await project.work.remove();
  });
  return project;
}

/**
 * Tools whose one action writes `out.txt` in the working folder; its apply answers "wrote
 * out.txt (sandboxed)" when it ran under the permission model, "(unsandboxed)" when not.
 */
export const WRITE_TOOLS = `import { writeFileSync } from "node:fs";
import { join } from "node:path";

const sandboxed = () =>
  typeof process.permission?.has === "function" && !process.permission.has("fs.write", "/")
    ? "sandboxed"
    : "unsandboxed";

export default (pi) => [
  {
    name: "stage_write",
    label: "Stage a write",
    description: "Stages the writing of out.txt in the working folder",
    parameters: pi.typebox.Type.Object({}),
    actions: {
      write: {
        async apply(payload, _reason, ctx) {
          writeFileSync(join(ctx.cwd, payload.file), "written\\n");
          return { content: [{ type: "text", text: "wrote " + payload.file + " (" + sandboxed() + ")" }] };
        },
      },
    },
    async execute() {
      pi.pushPendingAction({ label: "Write out.txt", handler: "write", payload: { file: "out.txt" } });
      return { content: [{ type: "text", text: "would write out.txt" }] };
    },
  },
];
`;

/** Tools whose one action's apply waits for `go.txt` in the working folder (it writes `started.txt` first). */
export const SLOW_APPLY_TOOLS = `import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export default (pi) => [
  {
    name: "stage_slow",
    label: "Stage a slow change",
    description: "Stages a change whose apply waits for go.txt",
    parameters: pi.typebox.Type.Object({}),
    actions: {
      slow: {
        async apply(_payload, _reason, ctx) {
          writeFileSync(join(ctx.cwd, "started.txt"), "");
          console.error("apply started");
          while (!existsSync(join(ctx.cwd, "go.txt"))) await new Promise((resolve) => setTimeout(resolve, 20));
          writeFileSync(join(ctx.cwd, "finished.txt"), "");
          return { content: [{ type: "text", text: "applied the slow change" }] };
        },
      },
    },
    async execute() {
      pi.pushPendingAction({ label: "The slow change", handler: "slow", payload: {} });
      return { content: [{ type: "text", text: "staged" }] };
    },
  },
];
`;
