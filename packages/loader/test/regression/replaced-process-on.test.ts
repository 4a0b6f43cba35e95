import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { CompilerName } from "../../src/index.js";
import { diagnosticsOf, loadBesideHostile, toolNames } from "../hostile-load.js";

// Bug: `process.on` is inherited from EventEmitter.prototype, so a module that assigned its
// own `process.on` "added" a property: the check reported "process.on (added, kept)" and
// left the replacement in place for the host (which then could not listen to any event).
const HOSTILE = `process.on = function () {
  return process;
};
export default (pi) => ({
  name: "hostile_process_on",
  label: "hostile",
  description: "Replaces process.on while it loads.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "ok" }] };
  },
});
`;

describe.each<CompilerName>(["esbuild", "jiti"])("a module that replaces process.on (%s)", (compiler) => {
  it("is undone: process.on is the EventEmitter method again, reported as replaced, restored", async () => {
    const { outcome, dir, left } = await loadBesideHostile(HOSTILE, { compiler });
    expect(outcome.status).toBe("settled");
    expect(toolNames(outcome)).toEqual(expect.arrayContaining(["good_before", "good_after"]));
    const reported = diagnosticsOf(outcome, dir, "b-hostile.ts").join("\n");
    expect(reported).toContain("process.on (replaced, restored)");
    expect(reported).not.toContain("kept");
    expect(left).toEqual([]);
    expect(Object.hasOwn(process, "on")).toBe(false);
    expect(process.on).toBe(EventEmitter.prototype.on);
  });
});
