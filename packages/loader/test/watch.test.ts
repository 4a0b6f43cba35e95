import { mkdir, readFile, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import type { TooldockError } from "@tooldock/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type ToolsReload, type ToolWatcher, watchCustomTools } from "../src/index.js";
import { testCacheDir } from "./helpers.js";
import { echoToolSource, stagingToolSource } from "./tool-sources.js";

// Real files in a scratch folder; every wait is on an event (a reload), never on a delay.
const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function toolFolder(label: string, files: Record<string, string>) {
  const root = testCacheDir(label);
  roots.push(root);
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return { dir, cacheDir: join(root, "cache") };
}

/** Reloads as they come, and a way to wait for the first one that satisfies a check. */
function reloads() {
  const seen: ToolsReload[] = [];
  const waiters: Array<{ check: (reload: ToolsReload) => boolean; resolve: (reload: ToolsReload) => void }> =
    [];
  return {
    seen,
    onReload(reload: ToolsReload) {
      seen.push(reload);
      for (const waiter of [...waiters]) {
        if (!waiter.check(reload)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(reload);
      }
    },
    next(check: (reload: ToolsReload) => boolean): Promise<ToolsReload> {
      const done = seen.find(check);
      if (done !== undefined) return Promise.resolve(done);
      return new Promise((resolve) => waiters.push({ check, resolve }));
    },
  };
}

async function textOf(session: Session, name: string, params: object = {}): Promise<string> {
  const result = await session.execute({ toolCallId: `call-${name}`, name, params });
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

describe("watchCustomTools", () => {
  it("reloads on edits, additions and removals, keeping the session's pending actions", async () => {
    const { dir, cacheDir } = await toolFolder("watch-session", {
      "alpha.ts": stagingToolSource("alpha", "v1"),
      "beta.ts": echoToolSource("beta", "beta v1"),
    });
    const session = new Session({ cwd: dir });
    const events = reloads();
    const errors: TooldockError[] = [];
    let watcher: ToolWatcher | undefined;
    try {
      watcher = await watchCustomTools({
        paths: [dir],
        cwd: dir,
        session,
        cacheDir,
        debounceMs: 20,
        onReload: events.onReload,
        onError: (error) => errors.push(error),
      });
      expect(watcher.initial.changes).toEqual({ added: ["alpha", "beta"], removed: [], replaced: [] });
      expect(await textOf(session, "alpha", { label: "rename" })).toBe("v1 staged rename");

      await writeFile(join(dir, "alpha.ts"), stagingToolSource("alpha", "v2"));
      const edited = await events.next((reload) => reload.changes.replaced.includes("alpha"));
      expect(edited.diagnostics).toEqual([]);
      // Only what changed: beta was reloaded with it, and is not reported.
      expect(edited.changes).toEqual({ added: [], removed: [], replaced: ["alpha"] });
      expect(edited.changedPaths).toContain(join(dir, "alpha.ts"));
      expect(session.pending.list().map((record) => record.label)).toEqual(["v1: rename"]);

      await writeFile(join(dir, "gamma.ts"), echoToolSource("gamma", "gamma v1"));
      await events.next((reload) => reload.changes.added.includes("gamma"));
      await unlink(join(dir, "beta.ts"));
      await events.next((reload) => reload.changes.removed.includes("beta"));
      expect(
        session
          .tools()
          .map((tool) => tool.name)
          .sort(),
      ).toEqual(["alpha", "gamma", "resolve"]);

      // The action the first version staged still resolves; the new version runs now.
      expect(await textOf(session, "resolve", { action: "apply", reason: "ok" })).toContain(
        "v1 applied rename",
      );
      expect(await textOf(session, "alpha", { label: "move" })).toBe("v2 staged move");
      expect(errors).toEqual([]);
    } finally {
      await watcher?.close();
      await session.dispose();
    }
  });

  it("keeps the old tool when an edit does not compile, and reports the diagnostic", async () => {
    const { dir, cacheDir } = await toolFolder("watch-broken", {
      "alpha.ts": echoToolSource("alpha", "alpha v1"),
    });
    const session = new Session({ cwd: dir });
    const events = reloads();
    const watcher = await watchCustomTools({
      paths: [dir],
      cwd: dir,
      session,
      cacheDir,
      debounceMs: 20,
      onReload: events.onReload,
    });
    try {
      await writeFile(join(dir, "alpha.ts"), "export default (pi: any) => ({ name: ");
      // A reload may also catch the file half-written; wait for the one that saw all of it.
      const broken = await events.next((reload) =>
        reload.diagnostics.some(({ code }) => code === "E_COMPILE"),
      );
      expect(broken.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_COMPILE"]);
      expect(broken.changes).toEqual({ added: [], removed: [], replaced: [] });
      expect(await textOf(session, "alpha")).toBe("alpha v1");

      await writeFile(join(dir, "alpha.ts"), echoToolSource("alpha", "alpha v2"));
      await events.next(
        (reload) => reload.diagnostics.length === 0 && reload.changes.replaced.includes("alpha"),
      );
      expect(await textOf(session, "alpha")).toBe("alpha v2");
    } finally {
      await watcher.close();
      await session.dispose();
    }
  });

  // A tool folder linked into the watched folder from a project (`ln -s`, `npm link`): an edit
  // of its helper in a subfolder was never seen, as `fs.watch` follows no link inside a folder.
  it("linked-tool-folder-edits-unseen: reloads when a helper of a linked tool folder changes", async () => {
    const { dir, cacheDir } = await toolFolder("watch-linked", {});
    const project = join(dir, "..", "project");
    await mkdir(join(project, "lib"), { recursive: true });
    const helper = (text: string) => `export const text = ${JSON.stringify(text)};\n`;
    await writeFile(join(project, "lib", "text.ts"), helper("linked v1"));
    await writeFile(
      join(project, "index.ts"),
      [
        'import { text } from "./lib/text.js";',
        "export default (pi: any) => ({",
        '  name: "linked", label: "Linked", description: "Says its helper\'s text",',
        "  parameters: pi.typebox.Type.Object({}),",
        '  async execute() { return { content: [{ type: "text", text }] }; },',
        "});",
        "",
      ].join("\n"),
    );
    await symlink(project, join(dir, "linked"), "dir");
    const session = new Session({ cwd: dir });
    const events = reloads();
    const watcher = await watchCustomTools({
      paths: [dir],
      cwd: dir,
      session,
      cacheDir,
      debounceMs: 20,
      onReload: events.onReload,
    });
    /** Waits for reloads of the helper until the tool says `text` (a reload may see a write half done). */
    const says = async (text: string) => {
      for (let seen = 0; ; seen = events.seen.length) {
        await events.next(
          (reload) =>
            events.seen.indexOf(reload) >= seen &&
            reload.changedPaths.includes(join(project, "lib", "text.ts")),
        );
        if ((await textOf(session, "linked")) === text) return;
      }
    };
    try {
      expect(await textOf(session, "linked")).toBe("linked v1");
      await writeFile(join(project, "lib", "text.ts"), helper("linked v2"));
      await says("linked v2");
      // An editor's atomic save (written beside it, renamed over it) is seen too.
      await writeFile(join(project, "lib", "text.ts.tmp"), helper("linked v3"));
      await rename(join(project, "lib", "text.ts.tmp"), join(project, "lib", "text.ts"));
      await says("linked v3");

      // Pointed elsewhere (a second read found the first folder watched until close()): the
      // edits of the project it left start no reload. Both are written before one is awaited:
      // a watched first edit would be reported with the second or before it.
      const other = join(dir, "..", "other");
      await mkdir(join(other, "lib"), { recursive: true });
      await writeFile(join(other, "lib", "text.ts"), helper("other v1"));
      await writeFile(join(other, "index.ts"), await readFile(join(project, "index.ts"), "utf8"));
      await unlink(join(dir, "linked"));
      await symlink(other, join(dir, "linked"), "dir");
      const repointed = events.seen.length;
      await watcher.reload();
      expect(await textOf(session, "linked")).toBe("other v1");
      await writeFile(join(project, "lib", "text.ts"), helper("left behind"));
      await writeFile(join(other, "lib", "text.ts"), helper("other v2"));
      // The link's own change starts a reload too: wait past each one seen.
      for (let seen = repointed + 1; ; seen = events.seen.length) {
        await events.next((reload) => events.seen.indexOf(reload) >= seen);
        if ((await textOf(session, "linked")) === "other v2") break;
      }
      const after = events.seen.slice(repointed + 1).flatMap((reload) => reload.changedPaths);
      expect(after).not.toContain(join(project, "lib", "text.ts"));
    } finally {
      await watcher.close();
      await session.dispose();
    }
  });

  it("relinked-tool-folder-unseen: reloads when a linked tool folder is pointed elsewhere or made a folder", async () => {
    const { dir, cacheDir } = await toolFolder("watch-relinked", {});
    const linked = join(dir, "linked");
    for (const name of ["one", "two"]) {
      await mkdir(join(dir, "..", name), { recursive: true });
      await writeFile(join(dir, "..", name, "index.ts"), echoToolSource("linked", name));
    }
    await symlink(join(dir, "..", "one"), linked, "dir");
    const session = new Session({ cwd: dir });
    const events = reloads();
    const watcher = await watchCustomTools({
      paths: [dir],
      cwd: dir,
      session,
      cacheDir,
      debounceMs: 20,
      onReload: events.onReload,
    });
    /** Waits for the reload after which the tool says `text` (a reload may see a step half done). */
    const says = async (text: string) => {
      for (let seen = events.seen.length; ; seen = events.seen.length) {
        await events.next((reload) => events.seen.indexOf(reload) >= seen);
        if ((await textOf(session, "linked")) === text) return;
      }
    };
    try {
      expect(await textOf(session, "linked")).toBe("one");
      // Pointed elsewhere, as `ln -sfn ../two linked` does.
      await unlink(linked);
      await symlink(join(dir, "..", "two"), linked, "dir");
      await says("two");
      // Made a folder of its own, then edited there.
      await unlink(linked);
      await mkdir(linked);
      await writeFile(join(linked, "index.ts"), echoToolSource("linked", "own"));
      await says("own");
      await writeFile(join(linked, "index.ts"), echoToolSource("linked", "own v2"));
      await says("own v2");
    } finally {
      await watcher.close();
      await session.dispose();
    }
  });

  it("linked-module-file-edits-unseen: reloads when the file a watched module path links to changes", async () => {
    const { dir, cacheDir } = await toolFolder("watch-linked-file", {});
    const project = join(dir, "..", "project");
    await mkdir(project, { recursive: true });
    await writeFile(join(project, "tool.ts"), echoToolSource("linked", "linked v1"));
    // A module given by its own path (`--tools ./linked.ts`), a link to a file kept elsewhere.
    await symlink(join(project, "tool.ts"), join(dir, "linked.ts"));
    const session = new Session({ cwd: dir });
    const events = reloads();
    const watcher = await watchCustomTools({
      paths: [join(dir, "linked.ts")],
      cwd: dir,
      session,
      cacheDir,
      debounceMs: 20,
      onReload: events.onReload,
    });
    try {
      expect(await textOf(session, "linked")).toBe("linked v1");
      await writeFile(join(project, "tool.ts"), echoToolSource("linked", "linked v2"));
      // A reload may see the write half done: wait for the one that answers the new text.
      for (let seen = 0; ; seen = events.seen.length) {
        await events.next((reload) => events.seen.indexOf(reload) >= seen);
        if ((await textOf(session, "linked")) === "linked v2") break;
      }
    } finally {
      await watcher.close();
      await session.dispose();
    }
  });

  it("without a session, compares tool names with the previous load", async () => {
    const { dir, cacheDir } = await toolFolder("watch-no-session", {
      "alpha.ts": echoToolSource("alpha", "a"),
    });
    const watcher = await watchCustomTools({ paths: [dir], cwd: dir, cacheDir, debounceMs: 1_000_000 });
    try {
      await writeFile(join(dir, "beta.ts"), echoToolSource("beta", "b"));
      const reload = await watcher.reload();
      expect(reload.changes).toEqual({ added: ["beta"], removed: [], replaced: ["alpha"] });
    } finally {
      await watcher.close();
    }
  });

  it("close() is idempotent, stops reloading and refuses a manual reload", async () => {
    const { dir, cacheDir } = await toolFolder("watch-close", { "alpha.ts": echoToolSource("alpha", "a") });
    const events = reloads();
    const watcher = await watchCustomTools({ paths: [dir], cwd: dir, cacheDir, onReload: events.onReload });
    await Promise.all([watcher.close(), watcher.close()]);
    await watcher.close();
    await expect(watcher.reload()).rejects.toMatchObject({ code: "E_WATCH" });
    await writeFile(join(dir, "beta.ts"), echoToolSource("beta", "b"));
    expect(events.seen).toEqual([]);
  });

  it("stop() stops reloading and keeps an isolated tool answering until close()", async () => {
    const { dir, cacheDir } = await toolFolder("watch-stop", {
      "alpha.ts": echoToolSource("alpha", "alpha v1"),
    });
    const session = new Session({ cwd: dir });
    const watcher = await watchCustomTools({
      paths: [dir],
      cwd: dir,
      session,
      cacheDir,
      isolation: "process",
    });
    try {
      await Promise.all([watcher.stop(), watcher.stop()]);
      await expect(watcher.reload()).rejects.toMatchObject({ code: "E_WATCH" });
      expect(await textOf(session, "alpha")).toBe("alpha v1");
      await watcher.close();
      expect(await textOf(session, "alpha")).toMatch(/tool host/);
    } finally {
      await watcher.close();
      await session.dispose();
    }
  });

  it("reports a path it cannot watch and still loads the others", async () => {
    const { dir, cacheDir } = await toolFolder("watch-missing", { "alpha.ts": echoToolSource("alpha", "a") });
    const errors: TooldockError[] = [];
    const missing = join(dir, "..", "no-such-folder");
    const watcher = await watchCustomTools({
      paths: [dir, missing],
      cwd: dir,
      cacheDir,
      onError: (error) => errors.push(error),
    });
    try {
      expect(watcher.initial.tools.map(({ tool }) => tool.name)).toEqual(["alpha"]);
      expect(errors.map((error) => error.code)).toEqual(["E_WATCH"]);
      expect(errors[0]?.message).toContain(`Cannot watch ${missing} for changes`);
    } finally {
      await watcher.close();
    }
  });

  it("refuses a negative debounce", async () => {
    await expect(watchCustomTools({ paths: [], debounceMs: -1 })).rejects.toMatchObject({
      code: "E_INVALID_OPTION",
    });
  });
});
