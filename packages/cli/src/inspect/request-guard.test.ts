import { describe, expect, it } from "vitest";
import { isLoopbackHost, urlHost } from "../http/local-address.js";
import { secretsMatch } from "../http/secrets-match.js";
import { hostChecker, sameOrigin } from "./request-guard.js";

describe("inspect request guard", () => {
  it("answers the loopback names and the bound address at the server's port only", () => {
    const check = hostChecker("127.0.0.1", 4100);
    expect(["127.0.0.1:4100", "LOCALHOST:4100", "[::1]:4100"].map(check)).toEqual([true, true, true]);
    expect(["127.0.0.1", "127.0.0.1:4101", "evil.example:4100", "", undefined].map(check)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(hostChecker("::1", 80)("[::1]:80")).toBe(true);
    expect(hostChecker("192.168.1.5", 80)("192.168.1.5:80")).toBe(true);
    expect(hostChecker("192.168.1.5", 80)("evil.example:80")).toBe(false);
  });

  it("answers any Host on a wildcard address (the token alone guards it)", () => {
    expect(hostChecker("0.0.0.0", 80)("my-laptop.local:80")).toBe(true);
    expect(hostChecker("::", 80)(undefined)).toBe(false);
  });

  it("takes a POST from the page itself or from no browser, not from another site", () => {
    expect(sameOrigin(undefined, "127.0.0.1:80")).toBe(true);
    expect(sameOrigin("http://127.0.0.1:80", "127.0.0.1:80")).toBe(true);
    expect(sameOrigin("http://evil.example", "127.0.0.1:80")).toBe(false);
    expect(sameOrigin("null", "127.0.0.1:80")).toBe(false);
  });

  it("knows loopback hosts and writes IPv6 addresses in brackets", () => {
    const loopback = ["127.0.0.1", "127.1.2.3", "localhost", "LocalHost", "::1", "[::1]", "0:0:0:0:0:0:0:1"];
    expect(loopback.filter((host) => !isLoopbackHost(host))).toEqual([]);
    expect(["::ffff:127.0.0.1", "[::ffff:127.9.8.7]", "::ffff:7f00:1"].every(isLoopbackHost)).toBe(true);
    const others = ["0.0.0.0", "::", "::2", "::ffff:10.0.0.1", "128.0.0.1", "localhost.evil.example", "[::1"];
    expect(others.filter(isLoopbackHost)).toEqual([]);
    expect(urlHost("::1")).toBe("[::1]");
    expect(urlHost("127.0.0.1")).toBe("127.0.0.1");
  });

  it("compares tokens whole", () => {
    expect(secretsMatch("secret", "secret")).toBe(true);
    expect(secretsMatch("secre", "secret")).toBe(false);
    expect(secretsMatch(undefined, "secret")).toBe(false);
  });
});
