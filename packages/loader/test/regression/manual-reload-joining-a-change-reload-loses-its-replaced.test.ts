// Found by a review: `watcher.reload()` called while a reload the changes started was already
// queued joined that reload, and got its view: `replaced` narrowed to the tools of the edited
// modules. A host that called `reload()` to reload everything (a server's "reload tools"
// command) was told that only the edited tool was replaced. A reload a caller asked for now
// reports every tool it replaced, whoever queued it first.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import type { TooldockError } from "@tooldock/sdk";
import { afterAll, expect, it, vi } from "vitest";
import { type ToolsReload, watchCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";
import { echoToolSource } from "../tool-sources.js";

const root = testCacheDir("manual-reload-joins-change-reload");
afterAll(() => rm(root, { recursive: true, force: true }));

/** A tool whose factory waits while the test holds `globalThis.__tooldockHoldGate`. */
const GATE = `export default async (pi: any) => {
  await (globalThis as any).__tooldockHoldGate?.();
  return {
    name: "gate",
    label: "Gate",
    description: "Answers a fixed text.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text" as const, text: "gate" }] };
    },
  };
};
`;

declare global {
  var __tooldockHoldGate: (() => Promise<void>) | undefined;
}

it("manual-reload-joining-a-change-reload-loses-its-replaced: reload() reports every tool it replaced", async () => {
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "alpha.ts"), echoToolSource("alpha", "a0"));
  await writeFile(join(dir, "gate.ts"), GATE);
  const session = new Session({ cwd: dir });
  const errors: TooldockError[] = [];
  const heard: ToolsReload[] = [];
  const watcher = await watchCustomTools({
    paths: [dir],
    cwd: dir,
    session,
    cacheDir: join(root, "cache"),
    debounceMs: 0,
    // The first change reloads, the second queues behind it, the third is held back and
    // reported: that report is how the test knows a reload of the changes is queued.
    reloadLimit: { reloads: 2, perMs: 3_600_000 },
    onError: (error) => errors.push(error),
    onReload: (reload) => heard.push(reload),
  });
  let release = () => {};
  const entered: Array<() => void> = [];
  const gateEntered = new Promise<void>((resolve) => entered.push(resolve));
  globalThis.__tooldockHoldGate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
      entered.shift()?.();
    });
  try {
    // A reload of the changes runs, held in the gate's factory.
    await writeFile(join(dir, "gate.ts"), `${GATE}// edited\n`);
    await gateEntered;
    globalThis.__tooldockHoldGate = undefined;
    // Edits of alpha until the limit is reported: the reload of the changes is then queued.
    let edits = 0;
    await vi.waitFor(
      async () => {
        edits += 1;
        await writeFile(join(dir, "alpha.ts"), echoToolSource("alpha", `a${edits}`));
        expect(errors.map(({ code }) => code)).toContain("E_WATCH");
      },
      { timeout: 30_000, interval: 50 },
    );
    const manual = watcher.reload(); // joins the queued reload
    release();
    const reload = await manual;
    expect(reload.diagnostics).toEqual([]);
    expect([...reload.changes.replaced].sort()).toEqual(["alpha", "gate"]);
  } finally {
    globalThis.__tooldockHoldGate = undefined;
    release();
    await watcher.close();
    await session.dispose();
    // On Node 22.15+ a cold load writes its packs after it returns: not into a removed folder.
    await Promise.all([watcher.initial.cached, ...heard.map(({ cached }) => cached)]);
  }
  expect(heard.length).toBeGreaterThanOrEqual(2);
});
