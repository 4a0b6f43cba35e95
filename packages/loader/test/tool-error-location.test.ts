import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Session, type SessionEvent } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../src/index.js";
import { createToolHarness } from "../src/testing/index.js";
import { fixturesDir, testCacheDir } from "./helpers.js";

// A real .ts tool module (types and an interface compile away, so compiled lines differ from
// the source's) that throws at lines marked in comments; a helper module it imports.
const toolFile = join(fixturesDir, "tool-error-location", "fails.ts");
const helperFile = join(fixturesDir, "tool-error-location", "quota.ts");
const source = readFileSync(toolFile, "utf8").split("\n");
const lineOf = (marker: string) => source.findIndex((line) => line.includes(`// ${marker}`)) + 1;

const compilers: CompilerName[] = ["esbuild", "jiti"];

// vitest installs its own Error.prepareStackTrace, which does not read the bundles' source maps;
// a host process uses Node's, which does (the loader turns source maps on). The session test
// is that host; the harness sets vitest's aside by itself while a call runs.
let vitestPrepare: typeof Error.prepareStackTrace;
const asHost = {
  enter() {
    vitestPrepare = Error.prepareStackTrace;
    Reflect.deleteProperty(Error, "prepareStackTrace");
  },
  leave() {
    if (vitestPrepare !== undefined) Error.prepareStackTrace = vitestPrepare;
  },
};

describe.each(compilers)("a compiled tool's fault, with compiler %s", (compiler) => {
  const cacheDir = testCacheDir(`error-location-${compiler}`);

  it("reaches tool-call-end with the .ts line of the throw, source-mapped", async () => {
    const session = new Session({ cwd: fixturesDir });
    const loaded = await loadCustomTools({
      paths: [toolFile],
      cwd: fixturesDir,
      session,
      compiler,
      cacheDir,
    });
    expect(loaded.diagnostics).toEqual([]);
    const ends: SessionEvent[] = [];
    session.subscribe((event) => {
      if (event.type === "tool-call-end") ends.push(event);
    });
    asHost.enter();
    const result = await session
      .execute({ toolCallId: "c1", name: "fails", params: { mode: "sync" } })
      .finally(asHost.leave);
    await session.dispose();
    expect(result.content).toEqual([
      {
        type: "text",
        text: 'Tool "fails" failed: quota exceeded: 3 > 2. Check the arguments and the current state, then retry or try another approach.',
      },
    ]);
    const error = ends[0]?.type === "tool-call-end" ? ends[0].error : undefined;
    expect(error).toMatchObject({
      message: "quota exceeded: 3 > 2",
      name: "RangeError",
      location: { file: toolFile, line: lineOf("LINE-SYNC"), column: expect.any(Number) },
    });
    // The stack itself is source-mapped: it names the .ts file at the source line.
    expect(error?.stack).toContain(`${toolFile}:${lineOf("LINE-SYNC")}:`);
  });

  it("gives the harness call the same error: a rejection, and a throw in an imported helper", async () => {
    expect(Error.prepareStackTrace).toBeTypeOf("function"); // vitest's, which the harness sets aside
    const runnerPrepare = Error.prepareStackTrace;
    const harness = await createToolHarness({ paths: toolFile, cwd: fixturesDir, compiler, cacheDir });
    try {
      expect(harness.diagnostics).toEqual([]);
      const rejected = await harness.call("fails", { mode: "async" });
      expect(rejected.isError).toBe(true);
      expect(rejected.error).toMatchObject({
        message: "upstream refused",
        code: "E_UPSTREAM",
        location: { file: toolFile, line: lineOf("LINE-ASYNC") },
      });

      // The helper's frame comes first in the stack; the location is the tool's own line.
      const helper = await harness.call("fails", { mode: "helper" });
      expect(helper.error?.name).toBe("TypeError");
      expect(helper.error?.stack).toContain(`${helperFile}:4:`);
      expect(helper.error?.location).toMatchObject({ file: toolFile, line: lineOf("LINE-HELPER") });

      // A call that does not throw has no error.
      const invalid = await harness.call("fails", { mode: 1 });
      expect(invalid.isError).toBe(true);
      expect(invalid).not.toHaveProperty("error");
      expect(Error.prepareStackTrace).toBe(runnerPrepare); // put back after each call
    } finally {
      await harness.dispose();
    }
  });
});
