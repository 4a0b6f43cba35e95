import { afterEach, describe, expect, it } from "vitest";
import { watchProcessListeners } from "./load-guard.js";

const listener = () => {};

afterEach(() => {
  process.removeListener("exit", listener);
  process.removeListener("SIGTERM", listener);
});

describe("watchProcessListeners", () => {
  it("reports nothing when no listener was added", () => {
    expect(watchProcessListeners()()).toEqual([]);
  });

  it("names each event that gained a listener since the previous check, once", () => {
    const check = watchProcessListeners();
    process.on("exit", listener);
    process.on("SIGTERM", listener);
    expect(check()).toEqual(["exit", "SIGTERM"]);
    expect(check()).toEqual([]);
  });

  it("ignores listeners of other events and removed ones", () => {
    const check = watchProcessListeners();
    process.on("warning", listener);
    process.removeListener("warning", listener);
    expect(check()).toEqual([]);
  });
});
