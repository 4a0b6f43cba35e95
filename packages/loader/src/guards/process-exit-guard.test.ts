import { describe, expect, it } from "vitest";
import { runGuarded } from "./process-exit-guard.js";

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
});
