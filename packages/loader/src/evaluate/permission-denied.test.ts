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

  it("leaves every other error as it is described", () => {
    expect(thrownText(new TypeError("x is not a function"))).toEqual({ text: "x is not a function" });
    expect(thrownText("a string")).toEqual({ text: "a string" });
    expect(thrownText(null).hint).toBeUndefined();
  });
});
