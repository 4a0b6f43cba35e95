import { describe, expect, it } from "vitest";
import { createModuleFaults, type ModuleFaults } from "./module-faults.js";
import { currentModuleFaults, holdExitGuard, runGuarded } from "./process-exit-guard.js";

/**
 * Runs a guarded step that leaves a promise callback behind, and returns a function that lets
 * the callback run (now, after the step) and resolves to the faults record it saw.
 */
async function leaveCallbackBehind(faults: ModuleFaults): Promise<() => Promise<ModuleFaults | undefined>> {
  let resume: () => void = () => {};
  let later: Promise<ModuleFaults | undefined> = Promise.resolve(undefined);
  const outcome = await runGuarded(
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

describe("runGuarded", () => {
  it("returns the value and leaves process.exit as it was", async () => {
    const before = process.exit;
    expect(await runGuarded(async () => 42)).toEqual({ status: "ok", value: 42 });
    expect(process.exit).toBe(before);
  });

  it("turns process.exit into an exit outcome, even when the step catches the throw", async () => {
    const before = process.exit;
    expect(await runGuarded(() => process.exit(2))).toEqual({ status: "exit", exitCode: 2 });
    const swallowed = await runGuarded(() => {
      try {
        process.exit(5);
      } catch {
        return "carried on";
      }
    });
    expect(swallowed).toEqual({ status: "exit", exitCode: 5 });
    expect(process.exit).toBe(before);
  });

  it("reports throws and restores process.exit", async () => {
    const before = process.exit;
    const outcome = await runGuarded(() => {
      throw new Error("boom");
    });
    expect(outcome).toMatchObject({ status: "throw", error: new Error("boom") });
    expect(process.exit).toBe(before);
  });

  it("times out a step that never settles and restores process.exit", async () => {
    const before = process.exit;
    expect(await runGuarded(() => new Promise(() => {}), 20)).toEqual({ status: "timeout", timeoutMs: 20 });
    expect(process.exit).toBe(before);
  });

  it("does not time out at once when the deadline is past setTimeout's range (Infinity, 2^31 ms)", async () => {
    const settlesSoon = () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 20));
    expect(await runGuarded(settlesSoon, Number.POSITIVE_INFINITY)).toEqual({ status: "ok", value: "done" });
    expect(await runGuarded(settlesSoon, 2 ** 31)).toEqual({ status: "ok", value: "done" });
  });

  it("keeps the guard while overlapping steps run", async () => {
    const before = process.exit;
    let release: () => void = () => {};
    const slow = runGuarded(() => new Promise<void>((resolve) => (release = resolve)));
    const quick = await runGuarded(() => process.exit(1));
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
    expect(await runGuarded(() => currentModuleFaults(), undefined, faults)).toEqual({
      status: "ok",
      value: faults,
    });
  });

  it("keeps the async context while a batch holds the guard, and drops it on release", async () => {
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
    expect(await runSecond()).toBeUndefined();
  });
});
