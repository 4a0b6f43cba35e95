import { describe, expect, it } from "vitest";
import {
  allowedHostsFor,
  allowedOriginsFor,
  checkRequest,
  hostnameOf,
  type RequestGuard,
} from "./request-guard.js";

const guard: RequestGuard = {
  allowedHosts: ["localhost", "127.0.0.1", "[::1]"],
  allowedOrigins: ["http://127.0.0.1:7717", "http://localhost:7717"],
};

describe("checkRequest", () => {
  it("lets a local request without Origin through, whatever the port in Host", () => {
    expect(checkRequest({ host: "127.0.0.1:7717" }, guard)).toBeUndefined();
    expect(checkRequest({ host: "LOCALHOST:1" }, guard)).toBeUndefined();
    expect(checkRequest({ host: "[::1]:7717" }, guard)).toBeUndefined();
  });

  it("refuses a Host that names another machine, a missing Host and a Host with a path (403)", () => {
    expect(checkRequest({ host: "evil.example:7717" }, guard)?.status).toBe(403);
    expect(checkRequest({}, guard)?.status).toBe(403);
    expect(checkRequest({ host: "localhost/evil" }, guard)?.status).toBe(403);
    expect(checkRequest({ host: "user@localhost" }, guard)?.status).toBe(403);
  });

  it("refuses an Origin not allowed (403), accepting allowed ones in any case", () => {
    const refused = checkRequest({ host: "localhost:7717", origin: "https://evil.example" }, guard);
    expect(refused).toEqual({ status: 403, message: expect.stringContaining("--allow-origin") });
    expect(checkRequest({ host: "localhost:7717", origin: "null" }, guard)?.status).toBe(403);
    expect(checkRequest({ host: "localhost:7717", origin: "HTTP://LOCALHOST:7717" }, guard)).toBeUndefined();
  });

  it("with a token: a missing or wrong bearer is 401, the right one (any case of Bearer) passes", () => {
    const withToken = { ...guard, token: "abc123" };
    const host = "127.0.0.1:7717";
    expect(checkRequest({ host }, withToken)?.status).toBe(401);
    expect(checkRequest({ host, authorization: "Bearer abc124" }, withToken)?.status).toBe(401);
    expect(checkRequest({ host, authorization: "Bearer abc1234" }, withToken)?.status).toBe(401);
    expect(checkRequest({ host, authorization: "Basic abc123" }, withToken)?.status).toBe(401);
    expect(checkRequest({ host, authorization: "Bearer " }, withToken)?.status).toBe(401);
    expect(checkRequest({ host, authorization: "bearer abc123" }, withToken)).toBeUndefined();
  });

  // The 401 told the client to use "the server's --token", a flag mcp --http refuses (exit 2).
  it("mcp-http-401-names-refused-token-flag: points at where the token really is", () => {
    const withToken = { ...guard, token: "abc123" };
    const host = "127.0.0.1:7717";
    for (const headers of [{ host }, { host, authorization: "Bearer nope" }]) {
      const message = checkRequest(headers, withToken)?.message ?? "";
      expect(message).not.toMatch(/--token\b(?!-file)/);
      expect(message).toContain("TOOLDOCK_MCP_TOKEN");
      expect(message).toContain("--token-file");
      expect(message).toContain("printed on stderr");
      expect(message).not.toContain("abc123");
    }
  });

  it("checks Host and Origin before the token: a foreign page learns nothing about the token", () => {
    const withToken = { ...guard, token: "abc123" };
    expect(checkRequest({ host: "evil.example", authorization: "Bearer abc123" }, withToken)?.status).toBe(
      403,
    );
  });
});

describe("hostnameOf", () => {
  it("drops the port and lower-cases; not a hostname is undefined", () => {
    expect(hostnameOf("Example.COM:80")).toBe("example.com");
    expect(hostnameOf("[::1]:9")).toBe("[::1]");
    expect(hostnameOf("")).toBeUndefined();
    expect(hostnameOf("a b")).toBeUndefined();
  });
});

describe("allow-lists", () => {
  it("a wildcard address adds no hostname: other names must be allowed one by one", () => {
    expect(allowedHostsFor("0.0.0.0", [])).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect(allowedHostsFor("::", ["Box.LAN"])).toEqual(["localhost", "127.0.0.1", "[::1]", "box.lan"]);
    expect(allowedHostsFor("::1", [])).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect(allowedHostsFor("192.168.1.5", [])).toContain("192.168.1.5");
  });

  it("origins: the server's own on its port, plus the given ones as browsers send them", () => {
    expect(allowedOriginsFor("127.0.0.1", 7717, ["http://LOCALHOST:6274/"])).toEqual([
      "http://localhost:7717",
      "http://127.0.0.1:7717",
      "http://[::1]:7717",
      "http://localhost:6274",
    ]);
  });
});
