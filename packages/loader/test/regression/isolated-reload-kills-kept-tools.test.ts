// Found by a bug hunt: an isolated watch retired the previous tool host at every reload, as
// soon as no action it had staged was pending. So a reload with a module that failed, which
// keeps that module's previous tools (their proxies run in the previous tool host), left them
// dead ("The host closed it"), and any reload stopped the calls still running there, where
// in-process they finish.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { ToolHost, watchCustomTools } from "../../src/index.js";
import { project, text } from "../isolation/isolation-helpers.js";

const tool = (name: string, version: string, body = "") => `
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "${name}",
  label: "${name}",
  description: "Answers its version",
  parameters: Type.Object({}),
  async execute() {
    ${body}
    return { content: [{ type: "text", text: "${version}" }] };
  },
});
`;

async function watching(files: Record<string, string>) {
  const where = await project(files);
  const session = new Session({ cwd: where.work });
  const host = new ToolHost({ cwd: where.work });
  const watcher = await watchCustomTools({
    paths: [where.tools],
    cwd: where.work,
    host,
    cacheDir: join(where.root, "cache"),
    session,
    isolation: "process",
    debounceMs: 60_000, // reloads come from reload() only
  });
  return { where, session, watcher, host };
}

describe("an isolated watch's reload", () => {
  it("keeps a failed module's previous tools working, and retires their tool host at the next clean reload", async () => {
    const { where, session, watcher } = await watching({
      "alpha.ts": tool("alpha", "alpha v1"),
      "beta.ts": tool("beta", "beta v1"),
    });
    try {
      const first = watcher.initial.isolated;
      await writeFile(join(where.tools, "alpha.ts"), "export default () => ({ name: ");
      const failed = await watcher.reload();
      expect(failed.diagnostics.map((diagnostic) => diagnostic.code)).toContain("E_COMPILE");
      expect(text(await session.execute({ toolCallId: "1", name: "alpha", params: {} }))).toBe("alpha v1");
      expect(text(await session.execute({ toolCallId: "2", name: "beta", params: {} }))).toBe("beta v1");
      expect(first?.pid).toBeGreaterThan(0);

      await writeFile(join(where.tools, "alpha.ts"), tool("alpha", "alpha v2"));
      await watcher.reload();
      expect(text(await session.execute({ toolCallId: "3", name: "alpha", params: {} }))).toBe("alpha v2");
      expect(text(await session.execute({ toolCallId: "4", name: "beta", params: {} }))).toBe("beta v1");
      // Nothing runs there any more: it has retired.
      await new Promise<void>((resolve) => {
        if (first?.pid === undefined) resolve();
        else first.subscribe((event) => event.type === "tool-host-stopped" && resolve());
      });
    } finally {
      await watcher.close();
    }
  });

  // Found by the second read: each failed reload kept its previous tool host, so an editor's
  // saves of a broken module started one more process each until a clean reload.
  it("keeps only the tool host that runs the failed module's previous tools, across failed reloads", async () => {
    const { where, session, watcher } = await watching({
      "alpha.ts": tool("alpha", "alpha v1"),
      "beta.ts": tool("beta", "beta v1"),
    });
    try {
      const first = watcher.initial.isolated;
      await writeFile(join(where.tools, "alpha.ts"), "export default () => ({ name: ");
      const once = await watcher.reload();
      await writeFile(join(where.tools, "alpha.ts"), "export default () => ({ name: 1");
      await watcher.reload();
      // The tool host of the first failed reload runs nothing that is still registered.
      await new Promise<void>((resolve) => {
        if (once.isolated?.pid === undefined) resolve();
        else once.isolated.subscribe((event) => event.type === "tool-host-stopped" && resolve());
      });
      expect(first?.pid).toBeGreaterThan(0);
      expect(text(await session.execute({ toolCallId: "1", name: "alpha", params: {} }))).toBe("alpha v1");
      expect(text(await session.execute({ toolCallId: "2", name: "beta", params: {} }))).toBe("beta v1");
    } finally {
      await watcher.close();
    }
  });

  it("lets a call still running in the previous tool host answer", async () => {
    const { where, session, watcher, host } = await watching({
      "slow.ts": tool(
        "slow",
        "slow done",
        'const released = new Promise((resolve) => pi.events.on("test:release", resolve)); pi.events.emit("test:waiting", {}); await released;',
      ),
      "other.ts": tool("other", "other v1"),
    });
    try {
      const first = watcher.initial.isolated;
      const waiting = new Promise((resolve) => host.events.on("test:waiting", resolve));
      const running = session.execute({ toolCallId: "1", name: "slow", params: {} });
      await waiting; // its listener is on: the release cannot come too early
      await writeFile(join(where.tools, "other.ts"), tool("other", "other v2"));
      await watcher.reload();
      // The reload is in place; the slow call still runs in the first tool host.
      expect(first?.pid).toBeGreaterThan(0);
      host.events.emit("test:release", {});
      expect(text(await running)).toBe("slow done");
      expect(text(await session.execute({ toolCallId: "2", name: "other", params: {} }))).toBe("other v2");
    } finally {
      await watcher.close();
    }
  });
});
