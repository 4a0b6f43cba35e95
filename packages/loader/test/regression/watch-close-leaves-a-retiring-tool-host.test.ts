// Found by a bug hunt: an isolated watch's close() ended the tool host of its last load and
// those a failed reload kept, but not an earlier one still retiring (waiting for an action it
// had staged to be resolved): that process ran on after close(), and its action could still
// be applied, where the README says close() ends the tool hosts of its loads and loses what
// they staged.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { watchCustomTools } from "../../src/index.js";
import { project, stager, text } from "../isolation/isolation-helpers.js";

describe("an isolated watch's close()", () => {
  it("ends a replaced tool host that waits for its staged action to be resolved", async () => {
    const where = await project({ "stage.ts": stager("v1") });
    const session = new Session({ cwd: where.work });
    const watcher = await watchCustomTools({
      paths: [where.tools],
      cwd: where.work,
      cacheDir: join(where.root, "cache"),
      session,
      isolation: "process",
      debounceMs: 60_000, // reloads come from reload() only
    });
    const first = watcher.initial.isolated;
    try {
      expect(text(await session.execute({ toolCallId: "1", name: "stage", params: {} }))).toBe("v1");
      await writeFile(join(where.tools, "stage.ts"), stager("v2"));
      await watcher.reload();
      // Replaced, it waits for its action: it still runs.
      expect(first?.pid).toBeGreaterThan(0);
    } finally {
      await watcher.close();
    }
    expect(first?.pid).toBeUndefined();
    const applied = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "after close" },
    });
    expect(text(applied)).not.toContain("applied by v1");
    await session.dispose();
  });
});
