import { describe, expect, it } from "vitest";
import { holdExitGuard } from "./process-exit-guard.js";
import { releaseOnce } from "./release-once.js";

describe("releaseOnce", () => {
  it("runs the release on the first call only", () => {
    let released = 0;
    const release = releaseOnce(() => {
      released += 1;
    });
    release();
    release();
    expect(released).toBe(1);
  });

  it("keeps a guard held by another owner when one owner releases twice", () => {
    const original = process.exit;
    const first = holdExitGuard();
    const second = holdExitGuard();
    first();
    first(); // a second release of the same hold must not drop the other owner's hold
    expect(process.exit).not.toBe(original);
    second();
    expect(process.exit).toBe(original);
  });
});
