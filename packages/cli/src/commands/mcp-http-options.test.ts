import { describe, expect, it } from "vitest";
import type { ParsedArgs } from "../args/parse-command-args.js";
import { readMcpHttpOptions } from "./mcp-http-options.js";

const args = (values: ParsedArgs["values"]): ParsedArgs => ({
  values: { http: true, ...values },
  positionals: [],
  help: false,
});
const read = (values: ParsedArgs["values"]) => readMcpHttpOptions(args(values), {}, "/");

describe("readMcpHttpOptions", () => {
  it("takes host names, IP addresses and origins as the guard compares them", () => {
    const options = read({
      "allow-host": ["box.lan", "10.0.0.7", "::1", "[fe80::1]", "Box.Example.COM"],
      "allow-origin": [
        "http://localhost:6274",
        "https://app.example.com/",
        "http://localhost:80",
        "https://example.com:443",
      ],
    });
    expect(options?.allowHosts).toEqual(["box.lan", "10.0.0.7", "::1", "[fe80::1]", "Box.Example.COM"]);
    expect(options?.allowOrigins).toEqual([
      "http://localhost:6274",
      "https://app.example.com/",
      "http://localhost:80",
      "https://example.com:443",
    ]);
  });

  // Both were accepted and then never matched a request; the 403 told the user to add the very
  // --allow-host they had given.
  it.each([
    ["allow-host", "box.lan:7717", "give it without the port, --allow-host box.lan"],
    ["allow-host", "http://box.lan", "is not a host name"],
    ["allow-host", "box.lan/mcp", "is not a host name"],
    [
      "allow-origin",
      "localhost:6274",
      'give the scheme, host and port a page\'s Origin header names, e.g. --allow-origin "http://localhost:6274"',
    ],
    ["allow-origin", "http://localhost:6274/page", 'e.g. --allow-origin "http://localhost:6274"'],
    ["allow-origin", "file:///tmp/x.html", "is not an origin"],
    ["allow-origin", "https://example.com:443/app", 'e.g. --allow-origin "https://example.com"'],
  ])("mcp-http-allow-lists-accept-values-that-never-match: refuses --%s %s", (name, value, message) => {
    expect(() => read({ [name]: [value] })).toThrow(message);
  });
});
