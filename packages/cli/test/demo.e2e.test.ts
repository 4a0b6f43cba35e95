import { readdir } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "./cli-process.js";

beforeAll(assertBuilt);

describe("tooldock demo", () => {
  it("runs the whole tour, exits 0 and leaves nothing behind", async () => {
    // A private TMPDIR: whatever the demo creates there must be gone when it exits.
    const scratch = await tempDir();
    try {
      const run = await runCli(["demo"], { env: { TMPDIR: scratch.path, TOOLDOCK_CACHE_DIR: "" } });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const steps = [
        "batch_rename_preview",
        "Pending actions (1, top first",
        "tool choice forced to resolve",
        '"function":{"name":"resolve"}',
        "Call `resolve` first",
        "the apply fails, changes nothing, and the action stays pending",
        "Pending actions (1, top first",
        "the same action applies",
        "Files: intro.md  notes.txt  src/log.ts  usage.md",
        "AST Edit: 2 replacements in 1 file",
        "src/log.ts still uses console.log: yes",
        "Pending actions (2, top first",
        "src/log.ts now uses logger.info: yes",
        "✔ Demo finished.",
      ];
      let from = 0;
      for (const step of steps) {
        const at = run.stdout.indexOf(step, from);
        expect(at, `"${step}" after offset ${from}`).toBeGreaterThanOrEqual(0);
        from = at;
      }
      // LIFO: the ast_edit pushed last is applied first, the rename pushed first is discarded after it.
      const stack = run.stdout.slice(run.stdout.indexOf("Pending actions (2"));
      expect(stack.indexOf("Applied AST Edit")).toBeLessThan(stack.indexOf("Discarded: Rename 1 file:"));
      // The tools come from the CLI package itself, not from a private @tooldock/examples.
      expect(run.stdout).toMatch(/from \S*packages[/\\]cli[/\\]dist[/\\]demo-tools/);
      expect(await readdir(scratch.path)).toEqual([]);
    } finally {
      await scratch.remove();
    }
  });
});
