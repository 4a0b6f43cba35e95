import { describe, expect, it } from "vitest";
import { mapBounded } from "./map-bounded.js";

describe("mapBounded", () => {
  it("never runs more than the limit at once and keeps the input order", async () => {
    let running = 0;
    let most = 0;
    const results = await mapBounded([30, 5, 20, 1, 10], 2, async (delay, index) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running -= 1;
      return index;
    });
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it("lets every task finish before throwing the first failure", async () => {
    const finished: number[] = [];
    await expect(
      mapBounded([1, 2, 3], 2, async (item) => {
        if (item === 1) throw new Error("one failed");
        await new Promise((resolve) => setTimeout(resolve, 5));
        finished.push(item);
      }),
    ).rejects.toThrow("one failed");
    expect(finished.sort()).toEqual([2, 3]);
  });
});
