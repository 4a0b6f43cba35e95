import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_RESOLUTIONS } from "../../src/call/resolve-all.js";
import { run } from "../../src/run.js";
import { memoryIo, workFolder } from "../memory-io.js";

// Attack: a tool stages an action whose `apply` stages the same action again. `call --apply`
// resolved "until the stack is empty": it looped 1.3 million times and used 1.46 GB in 20 s.
const MODULE = `import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default (pi) => {
  let applied = 0;
  const stage = () =>
    pi.pushPendingAction({
      label: "again",
      apply: async () => {
        applied += 1;
        stage();
        return { content: [{ type: "text", text: "applied " + applied }] };
      },
      reject: async () => appendFileSync(join(pi.cwd, "rejected"), "x"),
    });
  return {
    name: "restage",
    label: "Restage",
    description: "Stages an action whose apply stages it again.",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => {
      stage();
      return { content: [{ type: "text", text: "staged" }] };
    },
  };
};
`;

describe("call --apply on an action that stages itself again when applied", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;

  beforeEach(async () => {
    folder = await workFolder({ "tools/restage.mjs": MODULE });
  });
  afterEach(() => folder.remove());

  it("stops after a bound with a clear message and exit code 1, discarding the rest", async () => {
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(["call", "restage", "tools", "--apply", "--json"], memory.io);
    expect(code).toBe(1);
    const output = JSON.parse(memory.stdout());
    expect(output.resolved).toHaveLength(MAX_RESOLUTIONS);
    expect(output.stopped).toContain(`stopped after ${MAX_RESOLUTIONS} resolutions`);
    expect(memory.stderr()).toContain(`stopped after ${MAX_RESOLUTIONS} resolutions`);
    expect(memory.stderr()).toContain("does not stage another action every time");
    // The one left on top was discarded on exit through its reject.
    expect(output.pending).toHaveLength(1);
    expect(await readFile(join(folder.path, "rejected"), "utf8")).toBe("x");
  });
});
