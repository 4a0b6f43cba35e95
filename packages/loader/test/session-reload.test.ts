import { mkdir, rm, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools, ToolHost } from "../src/index.js";
import { testCacheDir } from "./helpers.js";
import { echoToolSource, stagingToolSource } from "./tool-sources.js";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** A fresh folder of tool files and a cache beside it, removed after the file's tests. */
async function toolFolder(label: string, files: Record<string, string>) {
  const root = testCacheDir(label);
  roots.push(root);
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return { dir, cacheDir: join(root, "cache") };
}

async function textOf(session: Session, name: string, params: object = {}): Promise<string> {
  const result = await session.execute({ toolCallId: `call-${name}`, name, params });
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

describe.each<CompilerName>(["esbuild", "jiti"])("loading again into the same session (%s)", (compiler) => {
  it("replaces edited tools, drops removed ones, adds new ones and keeps the pending actions", async () => {
    const { dir, cacheDir } = await toolFolder(`session-reload-${compiler}`, {
      "alpha.ts": stagingToolSource("alpha", "v1"),
      "beta.ts": echoToolSource("beta", "beta v1"),
    });
    const host = new ToolHost({ cwd: dir });
    const session = new Session({ cwd: dir });
    const load = () => loadCustomTools({ paths: [dir], cwd: dir, host, session, compiler, cacheDir });
    const first = await load();
    expect(first.diagnostics).toEqual([]);
    expect(first.changes).toEqual({ added: ["alpha", "beta"], removed: [], replaced: [] });

    expect(await textOf(session, "alpha", { label: "rename" })).toBe("v1 staged rename");
    expect(session.pending.list().map((record) => record.label)).toEqual(["v1: rename"]);

    await writeFile(join(dir, "alpha.ts"), stagingToolSource("alpha", "v2"));
    await unlink(join(dir, "beta.ts"));
    await writeFile(join(dir, "gamma.ts"), echoToolSource("gamma", "gamma v1"));
    const second = await load();
    expect(second.diagnostics).toEqual([]);
    expect(second.changes).toEqual({ added: ["gamma"], removed: ["beta"], replaced: ["alpha"] });
    expect(second.tools.map(({ tool }) => tool.name)).toEqual(["alpha", "gamma"]);
    expect(
      session
        .tools()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(["alpha", "gamma", "resolve"]);

    // The action staged by the old version is still pending, and resolve applies it.
    expect(session.pending.list().map((record) => record.label)).toEqual(["v1: rename"]);
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });
    expect(await textOf(session, "resolve", { action: "apply", reason: "ok" })).toContain(
      "v1 applied rename",
    );
    expect(await textOf(session, "gamma")).toBe("gamma v1");
    expect(await textOf(session, "alpha", { label: "move" })).toBe("v2 staged move");
    await session.dispose();
  });
});

describe("reload keeps what it cannot replace", () => {
  it("keeps the previous tool of a module that no longer compiles, and reports why", async () => {
    const { dir, cacheDir } = await toolFolder("session-reload-broken", {
      "alpha.ts": echoToolSource("alpha", "alpha v1"),
    });
    const session = new Session({ cwd: dir });
    const load = () => loadCustomTools({ paths: [dir], cwd: dir, session, cacheDir });
    expect((await load()).diagnostics).toEqual([]);
    await writeFile(join(dir, "alpha.ts"), "export default (pi: any) => ({ name: ");
    const broken = await load();
    expect(broken.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_COMPILE"]);
    expect(broken.changes).toEqual({ added: [], removed: [], replaced: [] });
    expect(await textOf(session, "alpha")).toBe("alpha v1");

    await writeFile(join(dir, "alpha.ts"), echoToolSource("alpha", "alpha v2"));
    const fixed = await load();
    expect(fixed.changes).toEqual({ added: [], removed: [], replaced: ["alpha"] });
    expect(await textOf(session, "alpha")).toBe("alpha v2");
    await session.dispose();
  });

  // An editor saving package.json mid-edit (not JSON for a moment) made the next reload drop
  // every tool of the package; the next good save brought them back as new tools.
  it.each(["none", "process"] as const)(
    "package-json-mid-edit-drops-tools: keeps a package's tools while its manifest cannot be read (isolation %s)",
    async (isolation) => {
      const { dir, cacheDir } = await toolFolder(`session-reload-manifest-${isolation}`, {});
      const pkg = join(dir, "pkg");
      await mkdir(join(pkg, "tools"), { recursive: true });
      const manifest = JSON.stringify({ name: "pkg", tooldock: { tools: ["./tools"] } });
      await writeFile(join(pkg, "package.json"), manifest);
      await writeFile(join(pkg, "tools", "alpha.ts"), echoToolSource("alpha", "alpha v1"));
      await writeFile(join(dir, "beta.ts"), echoToolSource("beta", "beta v1"));
      const session = new Session({ cwd: dir });
      const loads: Array<{ isolated?: { close(): Promise<void> } | undefined }> = [];
      const load = async () => {
        const result = await loadCustomTools({ paths: [dir], cwd: dir, session, cacheDir, isolation });
        loads.push(result);
        return result;
      };
      expect((await load()).changes.added.sort()).toEqual(["alpha", "beta"]);

      await writeFile(join(pkg, "package.json"), manifest.slice(0, 20));
      await unlink(join(dir, "beta.ts"));
      const broken = await load();
      expect(broken.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_DISCOVERY"]);
      expect(broken.diagnostics[0]?.message).toContain("its package.json is not valid JSON");
      expect(broken.changes).toEqual({ added: [], removed: ["beta"], replaced: [] });
      expect(await textOf(session, "alpha")).toBe("alpha v1");

      await writeFile(join(pkg, "package.json"), manifest);
      await writeFile(join(pkg, "tools", "alpha.ts"), echoToolSource("alpha", "alpha v2"));
      const fixed = await load();
      expect(fixed.diagnostics).toEqual([]);
      expect(fixed.changes).toEqual({ added: [], removed: [], replaced: ["alpha"] });
      expect(await textOf(session, "alpha")).toBe("alpha v2");

      // A package whose manifest no longer lists tools at all gives them up.
      await writeFile(join(pkg, "package.json"), JSON.stringify({ name: "pkg" }));
      await rm(join(pkg, "tools"), { recursive: true });
      expect((await load()).changes.removed).toEqual(["alpha"]);
      for (const result of loads) await result.isolated?.close();
      await session.dispose();
    },
  );

  it("never replaces a tool the host registered under a loaded name since", async () => {
    const { dir, cacheDir } = await toolFolder("session-reload-host-swap", {
      "alpha.ts": echoToolSource("alpha", "alpha from the module"),
      "beta.ts": echoToolSource("beta", "beta from the module"),
    });
    const session = new Session({ cwd: dir });
    const load = () => loadCustomTools({ paths: [dir], cwd: dir, session, cacheDir });
    const first = await load();
    const hostAlpha = first.tools.find(({ tool }) => tool.name === "alpha");
    if (hostAlpha === undefined) throw new Error("alpha did not load");
    session.unregister("alpha");
    session.register(hostAlpha.tool, "the host's own alpha");
    session.unregister("beta");
    await unlink(join(dir, "beta.ts"));

    const again = await load();
    expect(again.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.toolName])).toEqual([
      ["E_NAME_CONFLICT", "alpha"],
    ]);
    expect(again.changes).toEqual({ added: [], removed: [], replaced: [] });
    expect(session.originOf("alpha")).toBe("the host's own alpha");
    await session.dispose();
  });

  it("still refuses a name held by a built-in or by another load's module", async () => {
    const { dir, cacheDir } = await toolFolder("session-reload-conflict", {
      "alpha.ts": echoToolSource("alpha", "alpha v1"),
      "gamma.ts": echoToolSource("gamma", "gamma from the module"),
    });
    const other = await toolFolder("session-reload-other", { "alpha.ts": echoToolSource("alpha", "other") });
    const session = new Session({ cwd: dir });
    const builtIn = (await loadCustomTools({ paths: [join(dir, "gamma.ts")], cwd: dir, cacheDir })).tools[0];
    if (builtIn === undefined) throw new Error("the stand-in built-in did not load");
    session.register(builtIn.tool, "built-in");
    const first = await loadCustomTools({ paths: [dir], cwd: dir, session, cacheDir });
    expect(first.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.toolName])).toEqual([
      ["E_NAME_CONFLICT", "gamma"],
    ]);
    const again = await loadCustomTools({ paths: [dir], cwd: dir, session, cacheDir });
    expect(again.changes).toEqual({ added: [], removed: [], replaced: ["alpha"] });
    expect(again.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_NAME_CONFLICT"]);

    const fromOther = await loadCustomTools({ paths: [other.dir], cwd: other.dir, session, cacheDir });
    expect(fromOther.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.toolName])).toEqual([
      ["E_NAME_CONFLICT", "alpha"],
    ]);
    expect(fromOther.diagnostics[0]?.message).toContain(join(dir, "alpha.ts"));
    expect(fromOther.changes).toEqual({ added: [], removed: [], replaced: [] });
    expect(await textOf(session, "alpha")).toBe("alpha v1");
    await session.dispose();
  });
});
