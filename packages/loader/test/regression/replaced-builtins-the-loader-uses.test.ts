import { describe, expect, it } from "vitest";
import type { CompilerName } from "../../src/index.js";
import { diagnosticsOf, loadBesideHostile, toolNames } from "../hostile-load.js";

// The same attack as replaced-promise-race / replaced-array-isarray, on the other built-ins
// the load path calls between a module's code and the check that restores them: array and
// map methods, the array iterator, Function.prototype.call/apply/bind, JSON and Object
// statics, Promise statics and Promise.prototype.catch/finally, replaced with functions that
// throw. Before, the load rejected ("internal error") or never settled.
const REPLACED = [
  "Array.prototype.push",
  "Array.prototype.map",
  "Array.prototype.filter",
  "Array.prototype.some",
  "Array.prototype.findIndex",
  "Array.prototype[Symbol.iterator]",
  "Map.prototype.get",
  "Map.prototype.set",
  "Map.prototype.has",
  "Set.prototype.add",
  "Set.prototype.delete",
  "Function.prototype.call",
  "Function.prototype.apply",
  "Function.prototype.bind",
  "JSON.stringify",
  "JSON.parse",
  "Object.keys",
  "Object.entries",
  "Promise.all",
  "Promise.allSettled",
  "Promise.resolve",
  "Promise.prototype.catch",
  "Promise.prototype.finally",
];

const replaceAll = REPLACED.map((name) => `  ${name} = hostile;`).join("\n");

/** What each of `REPLACED` is now, read by evaluating its name. */
function currentBuiltIns(): unknown[] {
  return REPLACED.map((name) => new Function(`return ${name};`)());
}

/** The tool the hostile module's factory returns (source text; `pi` is the factory's argument). */
const TOOL = `{
  name: "hostile_builtins",
  label: "hostile",
  description: "Replaces the built-ins the loader uses.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "ok" }] };
  },
}`;

/** Replaces them in its factory (after its import, before the loader's own checks). */
const IN_FACTORY = `export default (pi) => {
  const tool = ${TOOL};
  const hostile = () => {
    throw new Error("hijacked built-in");
  };
${replaceAll}
  return tool;
};
`;

/**
 * Replaces them while it is imported, then waits some promise turns, so the loader's own
 * promise jobs (the deadline it arms, the steps it chains) run meanwhile. Not a timer: in a
 * timer's wait the test runner's own timers and IPC callbacks run too, call the replaced
 * built-ins and crash the test worker (2 runs in 5 on a loaded machine), which is the host's
 * code failing, not the loader's.
 */
const AT_IMPORT = `const hostile = () => {
  throw new Error("hijacked built-in");
};
${replaceAll}
for (let turn = 0; turn < 50; turn++) await null;
export default (pi) => (${TOOL});
`;

const cases: Array<[CompilerName, string, string]> = [
  ["esbuild", "in its factory", IN_FACTORY],
  ["jiti", "in its factory", IN_FACTORY],
  ["esbuild", "while it is imported", AT_IMPORT],
  ["jiti", "while it is imported", AT_IMPORT],
];

describe.each(cases)(
  "a module that replaces the built-ins the loader uses (%s, %s)",
  (compiler, _when, source) => {
    it("does not stop the load: it settles, the good tools load and every change is undone", async () => {
      const before = currentBuiltIns();
      const { outcome, dir, left } = await loadBesideHostile(source, { compiler });
      expect(outcome.status).toBe("settled");
      expect(toolNames(outcome)).toEqual(expect.arrayContaining(["good_before", "good_after"]));
      const reported = diagnosticsOf(outcome, dir, "b-hostile.ts").join("\n");
      for (const name of REPLACED) expect(reported).toContain(`${name} (replaced, restored)`);
      expect(JSON.stringify([1])).toBe("[1]");
      expect([1, 2].map((value) => value * 2)).toEqual([2, 4]);
      expect(left).toEqual([]);
      const after = currentBuiltIns();
      for (let index = 0; index < REPLACED.length; index++)
        expect(after[index], REPLACED[index]).toBe(before[index]);
    });
  },
);
