import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { checkSessionHooks, loadCustomTools, reportSessionHookFailures } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Attack: a tool's onSession throws on "start". The session only emitted `tool-hook-failed`,
// which no command listened to: `tooldock list`, `validate` and `call` said nothing, and the
// tool ran without the state its hook should have restored. Fixed: the loader turns it into a
// W_ON_SESSION_FAILED warning (checkSessionHooks for list/validate, reportSessionHookFailures
// for a host that starts the session itself).
describe("an onSession hook that throws", () => {
  const path = join(fixturesDir, "dialects", "oh-my-pi", "api", "on-session-throws.ts");

  it("is a W_ON_SESSION_FAILED warning, for a load alone and for a started session", async () => {
    const loaded = await loadCustomTools({
      paths: [path],
      cwd: fixturesDir,
      cacheDir: testCacheDir("on-session"),
    });
    expect(loaded.diagnostics).toEqual([]);
    const checked = await checkSessionHooks(loaded.tools);
    expect(checked).toEqual([
      expect.objectContaining({
        code: "W_ON_SESSION_FAILED",
        severity: "warning",
        toolName: "omp_restore",
        path,
      }),
    ]);

    const session = new Session();
    const again = await loadCustomTools({
      paths: [path],
      cwd: fixturesDir,
      cacheDir: testCacheDir("on-session"),
      session,
    });
    const reported: string[] = [];
    reportSessionHookFailures(session, again.tools, (diagnostic) => reported.push(diagnostic.code));
    await session.start();
    await session.dispose();
    expect(reported).toEqual(["W_ON_SESSION_FAILED"]);
  });
});
