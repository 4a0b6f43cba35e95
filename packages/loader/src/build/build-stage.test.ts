import { describe, expect, it } from "vitest";
import { preparedModule } from "../compile/prepared-module.js";
import { BuildStage, COMPILE_AHEAD } from "./build-stage.js";
import type { ModuleCompiler } from "./module-compiler.js";

const modules = Array.from({ length: 8 }, (_, index) => ({
  path: `/t/${index}.ts`,
  resolvedPath: `/t/${index}.ts`,
}));

function recordingCompiler(): ModuleCompiler & { started: string[] } {
  const started: string[] = [];
  return {
    started,
    async prepare(entry) {
      started.push(entry);
      if (entry === "/t/2.ts") throw new Error("does not compile");
      return preparedModule(async () => entry);
    },
    close: async () => {},
    cached: async () => [],
  };
}

describe("BuildStage", () => {
  it("compiles a window ahead, then, once the module taken has compiled, every module found so far", async () => {
    const compiler = recordingCompiler();
    const paths = (some: typeof modules) => some.map((module) => module.path);
    const found = modules.slice(0, 6);
    const stage = new BuildStage(compiler, found);
    const taken = stage.unit(modules[0] as (typeof modules)[number]);
    expect(taken.ready).toBeUndefined(); // nothing had compiled when it was taken
    // The window only: the module taken is not queued behind all the others.
    expect(compiler.started).toEqual(paths(modules.slice(0, COMPILE_AHEAD + 1)));
    const first = await taken.prepared;
    expect(await first.evaluate()).toBe("/t/0.ts");
    await new Promise(setImmediate); // the turn in which the rest are scheduled
    expect(compiler.started).toEqual(paths(found));
    // Module 1 compiled while module 0 was awaited: it comes ready, no promise to wait for.
    found.push(...modules.slice(6)); // discovery found the rest meanwhile
    const second = stage.unit(modules[1] as (typeof modules)[number]);
    expect(await second.ready?.evaluate()).toBe("/t/1.ts");
    await new Promise(setImmediate);
    expect(compiler.started).toEqual(paths(modules));
    const third = stage.unit(modules[2] as (typeof modules)[number]);
    expect(third.ready).toBeUndefined();
    await expect(third.prepared).rejects.toThrow("does not compile");
    await stage.close();
    expect(new Set(compiler.started).size).toBe(compiler.started.length);
  });
});
