import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { loadCustomTools, ToolHost } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Bug: a host that loaded the same paths again into the same session (a `/reload`) got
// E_NAME_CONFLICT for every tool, from the session's own earlier registration, so it had to
// throw the session and its pending actions away. Now the load replaces the tools of the
// modules it loaded before, keeps the pending actions, and reports what changed.
describe("loading the same paths again into the same session", () => {
  it("replaces the tools instead of refusing them, and keeps the pending action", async () => {
    const cacheDir = testCacheDir("regression-reload-session");
    const host = new ToolHost({ cwd: fixturesDir });
    const session = new Session({ cwd: fixturesDir });
    const load = () => loadCustomTools({ paths: ["pending"], cwd: fixturesDir, host, session, cacheDir });
    expect((await load()).diagnostics).toEqual([]);
    await session.execute({ toolCallId: "1", name: "stage_note", params: { text: "draft" } });

    const again = await load();
    expect(again.diagnostics).toEqual([]);
    expect(again.tools.map(({ tool }) => tool.name)).toEqual(["stage_note"]);
    expect(again.changes).toEqual({ added: [], removed: [], replaced: ["stage_note"] });
    expect(session.pending.list().map((record) => record.label)).toEqual(['Write note "draft"']);
    const applied = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "after the reload" },
    });
    expect(applied.isError).toBeFalsy();
    expect(applied.content[0]).toMatchObject({ text: expect.stringContaining('Wrote "draft"') });
    await session.dispose();
  });
});
