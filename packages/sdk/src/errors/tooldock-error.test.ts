import { describe, expect, it } from "vitest";
import { TooldockError } from "./tooldock-error.js";

describe("TooldockError", () => {
  it("carries a code, a message and a cause", () => {
    const cause = new Error("disk full");
    const error = new TooldockError("E_COMPILE", "could not compile a.ts", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("TooldockError");
    expect(error.code).toBe("E_COMPILE");
    expect(error.message).toBe("could not compile a.ts");
    expect(error.cause).toBe(cause);
  });

  it("is recognised across copies of the package by its brand", () => {
    // A second copy of the package has its own class but the same registered symbol.
    const foreign = Object.assign(new Error("x"), { [Symbol.for("tooldock.error")]: true, code: "E_IMPORT" });
    expect(foreign instanceof TooldockError).toBe(false);
    expect(TooldockError.isInstance(foreign)).toBe(true);
  });

  it("does not recognise plain errors or non-objects", () => {
    expect(TooldockError.isInstance(new Error("x"))).toBe(false);
    expect(TooldockError.isInstance(null)).toBe(false);
    expect(TooldockError.isInstance("E_IMPORT")).toBe(false);
  });

  it("recognises subclasses", () => {
    class NameConflictError extends TooldockError {}
    expect(TooldockError.isInstance(new NameConflictError("E_NAME_CONFLICT", "taken"))).toBe(true);
  });
});
