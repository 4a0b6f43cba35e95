import { describe, expect, it } from "vitest";
import { load, project } from "./isolation-helpers.js";

// The host tells the tool host's own W_NO_TOOLS apart by what it is about (a module it loaded,
// whose factory returned nothing), never by its text.
describe("an isolated load with a module that provides no tools", () => {
  it("says a factory that returned nothing sees only the variables the tool host was given", async () => {
    const where = await project({ "empty.ts": "export default () => [];\n" });
    const { diagnostics } = await load(where, { mode: "process", env: { ZETA: "1", ALPHA: "2" } });
    expect(diagnostics.map(({ code }) => code)).toEqual(["W_NO_TOOLS"]);
    expect(diagnostics[0]?.hint).toMatch(/It was loaded in a tool host, which sees only .*ALPHA, .*ZETA/);
  });

  it("keeps the hint of a package that lists no tools", async () => {
    const where = await project({
      "package.json": JSON.stringify({ name: "nothing", pi: { tools: [] } }),
    });
    const { diagnostics } = await load(where, "process");
    expect(diagnostics.map(({ code }) => code)).toEqual(["W_NO_TOOLS"]);
    expect(diagnostics[0]?.hint).toMatch(/^List the tool modules in "pi"/);
  });
});
