// Attack (on the operator's attention): `tooldock mcp --http --host 127.0.0.2` listens on a
// loopback address, yet it printed the "anyone who reaches this port can run the tools" warning,
// because only three spellings of loopback were recognised. A warning that cries wolf teaches the
// operator to ignore the one that matters. Fix: the warning asks `isLoopbackHost`, the same
// test `tooldock inspect` uses (all of 127.0.0.0/8, ::1, localhost in any case). Since every
// server has a token unless --no-token, that one's loopback warning speaks of this machine's
// users, and the network warning stays for other addresses.
import { describe, expect, it } from "vitest";
import { startHttpInProcess } from "../mcp-http-in-process.js";

describe("regression: a loopback alias warned that it had no token", () => {
  it("gives 127.0.0.2 or LOCALHOST without a token the loopback warning, not the network one", async () => {
    for (const host of ["127.0.0.2", "LOCALHOST"]) {
      const server = await startHttpInProcess({ host, token: false });
      expect(server.stderr(), host).not.toContain("anyone who reaches this port");
      expect(server.stderr(), host).toContain("every user of this machine can run the tools");
    }
  });

  it("still warns on every address without a token", async () => {
    const server = await startHttpInProcess({ host: "0.0.0.0", token: false });
    expect(server.stderr()).toContain("warning: listening on 0.0.0.0 without a token");
  });
});
