import { describe, expect, it } from "vitest";
import type { CompilerName } from "../../src/index.js";
import { diagnosticsOf, loadBesideHostile, toolNames } from "../hostile-load.js";

// Bug: a module that replaced `Array.isArray` with a function that throws made the loader's
// own check of the factory's result throw: the load rejected ("internal error", exit 2).
const HOSTILE = `Array.isArray = () => {
  throw new Error("Array.isArray was hijacked");
};
export default (pi) => [
  {
    name: "hostile_is_array",
    label: "hostile",
    description: "Replaces Array.isArray while it loads.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: "ok" }] };
    },
  },
];
`;

describe.each<CompilerName>(["esbuild", "jiti"])("a module that replaces Array.isArray (%s)", (compiler) => {
  it("does not stop the load: it settles, the good tools load and the change is reported and undone", async () => {
    const isArray = Array.isArray;
    const { outcome, dir, left } = await loadBesideHostile(HOSTILE, { compiler });
    expect(outcome.status).toBe("settled");
    expect(toolNames(outcome)).toEqual(expect.arrayContaining(["good_before", "good_after"]));
    expect(diagnosticsOf(outcome, dir, "b-hostile.ts").join("\n")).toContain(
      "Array.isArray (replaced, restored)",
    );
    expect(left).toEqual([]);
    expect(Array.isArray).toBe(isArray);
  });
});
