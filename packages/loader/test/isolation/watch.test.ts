import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { type IsolatedToolHostEvent, watchCustomTools } from "../../src/index.js";
import { project, stager, text } from "./isolation-helpers.js";

describe("watching an isolated load", () => {
  it("reloads into a new tool host; the old one applies what it staged, then closes", async () => {
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
    let latest = watcher.initial.isolated;
    try {
      const first = watcher.initial.isolated;
      const events: IsolatedToolHostEvent["type"][] = [];
      first?.subscribe((event) => events.push(event.type));
      expect(text(await session.execute({ toolCallId: "1", name: "stage", params: {} }))).toBe("v1");

      await writeFile(join(where.tools, "stage.ts"), stager("v2"));
      const reloaded = await watcher.reload();
      expect(reloaded.changes.replaced).toEqual(["stage"]);
      expect(reloaded.isolated).not.toBe(first);
      latest = reloaded.isolated;
      // The old tool host still runs: its action is pending.
      expect(first?.pid).toBeGreaterThan(0);

      const applied = await session.execute({
        toolCallId: "2",
        name: "resolve",
        params: { action: "apply", reason: "ok" },
      });
      expect(text(applied)).toContain("applied by v1");
      // Now it has nothing left to apply: it retires.
      await new Promise<void>((resolve) => {
        if (events.includes("tool-host-stopped")) resolve();
        else first?.subscribe((event) => event.type === "tool-host-stopped" && resolve());
      });
      expect(first?.pid).toBeUndefined();

      expect(text(await session.execute({ toolCallId: "3", name: "stage", params: {} }))).toBe("v2");
    } finally {
      await watcher.close();
    }
    // Closing the watcher closes the tool host of the last load.
    expect(latest?.pid).toBeUndefined();
  });
});
