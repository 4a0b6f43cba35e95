import { describe, expect, it } from "vitest";
import type { CompilerName } from "../../src/index.js";
import { diagnosticsOf, loadBesideHostile, toolNames } from "../hostile-load.js";

// Bug: a module that defined a non-enumerable `Object.prototype.then` made every object the
// loader passed through a promise a "thenable" whose `then` never calls back: the load never
// settled (`tooldock validate` exited 13 with no report). The global check kept the method
// ("added, kept", as for a polyfill), so even the host's own awaits hung afterwards.
const HOSTILE = `Object.defineProperty(Object.prototype, "then", {
  value() {},
  writable: true,
  configurable: true,
  enumerable: false,
});
export default (pi) => ({
  name: "hostile_then",
  label: "hostile",
  description: "Defines Object.prototype.then while it loads.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "ok" }] };
  },
});
`;

describe.each<CompilerName>(["esbuild", "jiti"])(
  "a module that defines Object.prototype.then (%s)",
  (compiler) => {
    it("does not stop the load: it settles, the good tools load and the module is reported", async () => {
      const { outcome, dir, left } = await loadBesideHostile(HOSTILE, { compiler, factoryTimeoutMs: 2_000 });
      expect(outcome.status).toBe("settled");
      expect(toolNames(outcome)).toContain("good_before");
      expect(toolNames(outcome)).toContain("good_after");
      const reported = diagnosticsOf(outcome, dir, "b-hostile.ts");
      expect(reported.length).toBeGreaterThan(0);
      expect(reported.join("\n")).toMatch(/Object\.prototype\.then \(added, removed\)|did not finish within/);
      expect(left).toEqual([]);
      expect(Object.getOwnPropertyDescriptor(Object.prototype, "then")).toBeUndefined();
    });
  },
);
