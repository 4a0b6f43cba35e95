import { describe, expect, it } from "vitest";
import type { CompilerName } from "../../src/index.js";
import { diagnosticsOf, loadBesideHostile, toolNames } from "../hostile-load.js";

// Bug: a module that replaced `Promise.race` (here: with one that never settles) in its
// factory made the loader's deadline race never settle: the load hung, no report.
const HOSTILE = `export default (pi) => {
  Promise.race = () => new Promise(() => {});
  return {
    name: "hostile_race",
    label: "hostile",
    description: "Replaces Promise.race in its factory.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: "ok" }] };
    },
  };
};
`;

describe.each<CompilerName>(["esbuild", "jiti"])("a module that replaces Promise.race (%s)", (compiler) => {
  it("does not stop the load: it settles, the good tools load and the change is reported and undone", async () => {
    const race = Promise.race;
    const { outcome, dir, left } = await loadBesideHostile(HOSTILE, { compiler });
    expect(outcome.status).toBe("settled");
    expect(toolNames(outcome)).toEqual(expect.arrayContaining(["good_before", "good_after"]));
    expect(diagnosticsOf(outcome, dir, "b-hostile.ts").join("\n")).toContain(
      "Promise.race (replaced, restored)",
    );
    expect(left).toEqual([]);
    expect(Promise.race).toBe(race);
  });
});
