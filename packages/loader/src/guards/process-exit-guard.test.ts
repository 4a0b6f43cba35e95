import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModuleFaults, type ModuleFaults } from "./module-faults.js";
import { currentModuleFaults, holdExitGuard, runGuardedStep } from "./process-exit-guard.js";

/**
 * Runs a guarded step that leaves a promise callback behind, and returns a function that lets
 * the callback run (now, after the step) and resolves to the faults record it saw.
 */
async function leaveCallbackBehind(faults: ModuleFaults): Promise<() => Promise<ModuleFaults | undefined>> {
  let resume: () => void = () => {};
  let later: Promise<ModuleFaults | undefined> = Promise.resolve(undefined);
  const outcome = await runGuardedStep(
    () => {
      later = new Promise<void>((resolve) => (resume = resolve)).then(() => currentModuleFaults());
    },
    undefined,
    faults,
  );
  expect(outcome.status).toBe("ok");
  return () => {
    resume();
    return later;
  };
}

/** Whether this runtime's `AsyncLocalStorage.disable()` clears the store callbacks carry (Node 20's does). */
const DISABLE_CLEARS_CALLBACKS = await (async () => {
  const storage = new AsyncLocalStorage<string>();
  let resume: () => void = () => {};
  let later: Promise<string | undefined> = Promise.resolve(undefined);
  storage.run("stored", () => {
    later = new Promise<void>((resolve) => (resume = resolve)).then(() => storage.getStore());
  });
  storage.disable();
  resume();
  return (await later) === undefined;
})();

describe("runGuardedStep", () => {
  it("returns the value and leaves process.exit as it was", async () => {
    const before = process.exit;
    expect(await runGuardedStep(async () => 42)).toEqual({ status: "ok", value: 42 });
    expect(process.exit).toBe(before);
  });

  it("turns process.exit into an exit outcome, even when the step catches the throw", async () => {
    const before = process.exit;
    expect(await runGuardedStep(() => process.exit(2))).toEqual({
      status: "exit",
      exitCode: 2,
      call: "process.exit(2)",
    });
    const swallowed = await runGuardedStep(() => {
      try {
        process.exit(5);
      } catch {
        return "carried on";
      }
    });
    expect(swallowed).toEqual({ status: "exit", exitCode: 5, call: "process.exit(5)" });
    expect(process.exit).toBe(before);
  });

  it("reports throws and restores process.exit", async () => {
    const before = process.exit;
    const outcome = await runGuardedStep(() => {
      throw new Error("boom");
    });
    expect(outcome).toMatchObject({ status: "throw", error: new Error("boom") });
    expect(process.exit).toBe(before);
  });

  it("times out a step that never settles and restores process.exit", async () => {
    const before = process.exit;
    expect(await runGuardedStep(() => new Promise(() => {}), 20)).toEqual({
      status: "timeout",
      timeoutMs: 20,
    });
    expect(process.exit).toBe(before);
  });

  it("does not time out at once when the deadline is past setTimeout's range (Infinity, 2^31 ms)", async () => {
    const settlesSoon = () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 20));
    expect(await runGuardedStep(settlesSoon, Number.POSITIVE_INFINITY)).toEqual({
      status: "ok",
      value: "done",
    });
    expect(await runGuardedStep(settlesSoon, 2 ** 31)).toEqual({ status: "ok", value: "done" });
  });

  it("keeps the guard while overlapping steps run", async () => {
    const before = process.exit;
    let release: () => void = () => {};
    const slow = runGuardedStep(() => new Promise<void>((resolve) => (release = resolve)));
    const quick = await runGuardedStep(() => process.exit(1));
    expect(quick.status).toBe("exit");
    expect(process.exit).not.toBe(before); // the slow step is still guarded
    release();
    expect((await slow).status).toBe("ok");
    expect(process.exit).toBe(before);
  });

  it("drops the async context when the last step ends, so the host's later awaits carry no hooks", async () => {
    const run = await leaveCallbackBehind(createModuleFaults());
    // The callback was created inside the step; with the context still enabled it would see
    // the step's record. Disabled, it sees none (and Node 20 removes its promise hooks).
    expect(await run()).toBeUndefined();
    // The next step enables the context again.
    const faults = createModuleFaults();
    expect(await runGuardedStep(() => currentModuleFaults(), undefined, faults)).toEqual({
      status: "ok",
      value: faults,
    });
  });

  it("keeps the async context while a batch holds the guard, and drops it on release", async () => {
    const exitBefore = process.exit;
    const release = holdExitGuard();
    const faults = createModuleFaults();
    let runSecond: () => Promise<ModuleFaults | undefined>;
    try {
      const runFirst = await leaveCallbackBehind(faults);
      runSecond = await leaveCallbackBehind(faults);
      // A timer or callback of a module, run while the batch lasts, is still attributed to it.
      expect(await runFirst()).toBe(faults);
    } finally {
      release();
    }
    // Node 20 drops it. On Node 24+, whose AsyncLocalStorage keeps a store in each callback's
    // async context frame (no promise hooks to turn off), `disable()` clears only the
    // current frame: the callback still sees the ended step, where nothing reads it any more
    // (the guard is off, and it read the same store on Node 20 once a step enabled it again).
    expect(await runSecond()).toBe(DISABLE_CLEARS_CALLBACKS ? undefined : faults);
    expect(process.exit).toBe(exitBefore);
  });
});

/**
 * The process-ending methods below the guard, replaced by recorders for these tests: if the
 * guard let a call through, it is recorded here instead of ending (or killing) anything.
 */
describe("runGuardedStep", () => {
  it("hands back a synchronous step's outcome at once: a value, a throw, a blocked exit", () => {
    const before = process.exit;
    const tools = [{ name: "a" }];
    expect(runGuardedStep(() => tools)).toEqual({ status: "ok", value: tools });
    const error = new Error("boom");
    expect(
      runGuardedStep(() => {
        throw error;
      }),
    ).toEqual({ status: "throw", error });
    expect(runGuardedStep(() => process.exit(4))).toEqual({
      status: "exit",
      exitCode: 4,
      call: "process.exit(4)",
    });
    expect(process.exit).toBe(before);
  });

  it("hands back a promise for a step that returns one, or a thenable", async () => {
    const pending = runGuardedStep(async () => 7);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ status: "ok", value: 7 });
    const thenable = runGuardedStep((): unknown => ({
      // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test is about.
      then: (resolve: (value: number) => void) => resolve(8),
    }));
    expect(await thenable).toEqual({ status: "ok", value: 8 });
  });
});

describe("runGuardedStep and the other ways to end the process", () => {
  type Method = "reallyExit" | "abort" | "_kill";
  const methods = process as unknown as Record<Method, (...args: unknown[]) => unknown>;
  const saved: Partial<Record<Method, unknown>> = {};
  let reached: string[];

  beforeEach(() => {
    reached = [];
    for (const method of ["reallyExit", "abort", "_kill"] as const) {
      saved[method] = methods[method];
      methods[method] = (...args: unknown[]) => {
        reached.push(`${method}(${args.map(String).join(", ")})`);
        return 0;
      };
    }
  });
  afterEach(() => {
    for (const method of ["reallyExit", "abort", "_kill"] as const) methods[method] = saved[method] as never;
  });

  it("blocks process.reallyExit and process.abort like process.exit", async () => {
    const recorder = methods.reallyExit;
    const internals = process as unknown as { reallyExit: (code: number) => void };
    expect(await runGuardedStep(() => internals.reallyExit(0))).toEqual({
      status: "exit",
      exitCode: 0,
      call: "process.reallyExit(0)",
    });
    expect(await runGuardedStep(() => process.abort())).toEqual({
      status: "exit",
      exitCode: undefined,
      call: "process.abort()",
    });
    expect(reached).toEqual([]);
    expect(methods.reallyExit).toBe(recorder);
  });

  it("blocks process.kill aimed at this process or a process group, whatever the signal but 0", async () => {
    const pid = process.pid;
    expect(await runGuardedStep(() => process.kill(pid))).toMatchObject({
      status: "exit",
      call: `process.kill(${pid})`,
    });
    expect(await runGuardedStep(() => process.kill(pid, "SIGKILL"))).toMatchObject({
      call: `process.kill(${pid}, "SIGKILL")`,
    });
    expect(await runGuardedStep(() => process.kill(0, "SIGINT"))).toMatchObject({
      call: 'process.kill(0, "SIGINT")',
    });
    expect(await runGuardedStep(() => process.kill(-1, 9))).toMatchObject({ call: "process.kill(-1, 9)" });
    expect(await runGuardedStep(() => process.kill(String(pid) as unknown as number))).toMatchObject({
      call: `process.kill("${pid}")`,
    });
    const internals = process as unknown as { _kill: (pid: number, signal: number) => number };
    expect(await runGuardedStep(() => internals._kill(pid, 15))).toMatchObject({
      call: `process._kill(${pid}, 15)`,
    });
    expect(reached).toEqual([]);
  });

  it("lets through signal 0 (a check that the process exists) and signals to other processes", async () => {
    expect(await runGuardedStep(() => process.kill(process.pid, 0))).toEqual({ status: "ok", value: true });
    expect(await runGuardedStep(() => process.kill(4_000_000, "SIGTERM"))).toEqual({
      status: "ok",
      value: true,
    });
    expect(reached).toEqual([`_kill(${process.pid}, 0)`, "_kill(4000000, 15)"]);
  });

  it("records a kill from a timer of a module whose step has ended, while a batch holds the guard", async () => {
    const release = holdExitGuard();
    const faults = createModuleFaults();
    try {
      let fire: () => void = () => {};
      await runGuardedStep(
        () => {
          const fired = new Promise<void>((resolve) => (fire = resolve));
          void fired.then(() => process.kill(process.pid, "SIGTERM"));
        },
        undefined,
        faults,
      );
      fire();
      await new Promise((resolve) => setTimeout(resolve, 0));
    } finally {
      release();
    }
    expect(faults.lateExits).toEqual([`process.kill(${process.pid}, "SIGTERM")`]);
    expect(reached).toEqual([]);
  });
});
