import { describe, expect, it } from "vitest";
import { thrownText } from "./permission-denied.js";

/** An error as Node's permission model throws it. */
function denied(permission: string, resource = ""): Error {
  return Object.assign(
    new Error("Access to this API has been restricted. Use --allow-fs-read to manage permissions."),
    {
      code: "ERR_ACCESS_DENIED",
      permission,
      resource,
    },
  );
}

describe("thrownText", () => {
  it("says what the permission model refused and which option grants it", () => {
    expect(thrownText(denied("FileSystemRead", "/home/me/secret.txt"))).toEqual({
      text: "its tool host may not read /home/me/secret.txt (ERR_ACCESS_DENIED, Node's permission model)",
      hint: expect.stringContaining("isolation.allowRead (the CLI's --allow-read)"),
    });
    expect(thrownText(denied("FileSystemWrite", "/etc/x")).text).toContain("may not write /etc/x");
    expect(thrownText(denied("ChildProcess")).hint).toContain("--allow-exec");
    expect(thrownText(denied("WorkerThreads")).text).toContain("may not start a worker thread");
    expect(thrownText(denied("Net")).hint).toContain("--allow-net");
    expect(thrownText(denied("Inspector")).text).toContain("may not use Inspector");
  });

  // `tooldock validate` grants no write at all; the hint said "writes only the working folder".
  it("says what the tool host may write, as its permission model has it", () => {
    const had = Object.getOwnPropertyDescriptor(process, "permission");
    try {
      for (const [writable, says] of [
        [true, "writes only the working folder"],
        [false, "writes nothing (not even the working folder)"],
      ] as const) {
        Object.defineProperty(process, "permission", {
          configurable: true,
          value: { has: (scope: string) => scope !== "fs.write" || writable },
        });
        expect(thrownText(denied("FileSystemWrite", "/work/out.txt")).hint).toContain(says);
      }
    } finally {
      if (had === undefined) Reflect.deleteProperty(process, "permission");
      else Object.defineProperty(process, "permission", had);
    }
  });

  it("leaves every other error as it is described", () => {
    expect(thrownText(new TypeError("x is not a function"))).toEqual({ text: "x is not a function" });
    expect(thrownText("a string")).toEqual({ text: "a string" });
    expect(thrownText(null).hint).toBeUndefined();
  });
});
