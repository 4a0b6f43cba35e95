import { type LoadedCustomTool, ToolHost, type ToolsReload } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { ServedTools } from "./served-tools.js";

const { Type } = new ToolHost().createAPI().typebox;

function loaded(name: string, version: string): LoadedCustomTool {
  const tool = defineTool({
    name,
    label: name,
    description: `${name} ${version}`,
    parameters: Type.Object({}),
    async execute() {
      return textResult(version);
    },
  });
  return { tool, path: `/tools/${name}.ts`, resolvedPath: `/tools/${name}.ts` } as LoadedCustomTool;
}

function reload(tools: LoadedCustomTool[], changes: ToolsReload["changes"]): ToolsReload {
  return { tools, changes, diagnostics: [], modules: [], changedPaths: [] } as unknown as ToolsReload;
}

const described = (session: Session) =>
  session
    .tools()
    .filter((tool) => tool.name !== "resolve")
    .map((tool) => tool.description);

describe("ServedTools", () => {
  it("carries a reload into the list and into an open session: removed, replaced, added", () => {
    const tools = new ServedTools([loaded("a", "v1"), loaded("b", "v1"), loaded("c", "v1")]);
    const session = new Session({ cwd: process.cwd() });
    for (const { tool, path } of tools.list()) session.register(tool, path);
    // b failed to reload (not in the reload's tools or changes): it keeps v1.
    const next = reload([loaded("a", "v2"), loaded("d", "v1")], {
      added: ["d"],
      removed: ["c"],
      replaced: ["a"],
    });
    tools.sync(session, next, tools.update(next));
    expect(
      tools
        .list()
        .map(({ tool }) => tool.description)
        .sort(),
    ).toEqual(["a v2", "b v1", "d v1"]);
    expect(described(session).sort()).toEqual(["a v2", "b v1", "d v1"]);
  });

  // Found by a bug hunt: under isolation (mcp --http --watch --isolate) an edit of one module
  // listed only its tools as replaced, the other tools kept their proxies into the previous
  // tool host, which the reload retired: every other tool failed in every session.
  it("swaps every tool whose object is new, also one the changes do not list", () => {
    const initial = [loaded("alpha", "host-1"), loaded("beta", "host-1")];
    const tools = new ServedTools(initial);
    const session = new Session({ cwd: process.cwd() });
    for (const { tool, path } of tools.list()) session.register(tool, path);
    const next = reload([loaded("alpha", "host-2"), loaded("beta", "host-2")], {
      added: [],
      removed: [],
      replaced: ["alpha"],
    });
    const swapped = tools.update(next);
    expect([...swapped].sort()).toEqual(["alpha", "beta"]);
    tools.sync(session, next, swapped);
    expect(described(session).sort()).toEqual(["alpha host-2", "beta host-2"]);
    // The same objects again: nothing to swap.
    expect([...tools.update(next)]).toEqual([]);
  });
});
