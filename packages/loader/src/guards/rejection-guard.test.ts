import { describe, expect, it } from "vitest";
import { createModuleFaults } from "./module-faults.js";
import { runGuardedStep } from "./process-exit-guard.js";
import { holdRejectionGuard } from "./rejection-guard.js";

describe("holdRejectionGuard", () => {
  it("records a rejection from a module's async context and passes others on", async () => {
    const emit = process.emit;
    const release = holdRejectionGuard();
    const seen: unknown[] = [];
    const listener = (reason: unknown) => seen.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const faults = createModuleFaults();
      await runGuardedStep(
        () => {
          setTimeout(() => Promise.reject(new Error("from the module")), 0);
        },
        undefined,
        faults,
      );
      // Emitted directly, outside any module context: the host's listeners see it.
      process.emit("unhandledRejection", new Error("from the host"), Promise.resolve());
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(faults.rejections).toEqual([new Error("from the module")]);
      expect(seen).toEqual([new Error("from the host")]);
    } finally {
      process.off("unhandledRejection", listener);
      release();
    }
    expect(process.emit).toBe(emit);
  });
});
