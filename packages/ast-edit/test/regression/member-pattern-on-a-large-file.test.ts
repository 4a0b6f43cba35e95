// Attack (a model's broad pattern as often as malice): `ast_edit` with `$A.$B` on a large file.
// It is no lone metavariable, so it passed the pattern check, and one native `findAll` over the
// whole file matched every member expression before the match cap could be checked: on 900 KB,
// 84,000 matches, 155 MB and 2-4 s of a blocked event loop, past the call's deadline. Fix: a
// text over 64 KB is matched piece by piece (subtrees of at most 64 KB), with a turn of the event
// loop after each piece and the cap checked after each, so the work stops soon after the cap.
import { readFile } from "node:fs/promises";
import { Lang } from "@ast-grep/napi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_MATCHES_PER_FILE, rewriteSource } from "../../src/rewrite.js";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

let workspace: AstEditWorkspace;
beforeEach(async () => {
  workspace = await astEditWorkspace("member-pattern");
});
afterEach(async () => {
  await workspace.remove();
});

describe("regression: a member pattern on a file with three times the match cap", () => {
  it("stops soon after the cap, staging nothing", async () => {
    // Each statement holds three member expressions: `a.b.c.d`, `a.b.c` and `a.b`.
    const statements = MAX_MATCHES_PER_FILE + 1;
    const source = "a.b.c.d;\n".repeat(statements);
    const path = await workspace.write("src/members.ts", source);
    const { result, actions } = await previewAstEdit(workspace.cwd, { ops: [{ pat: "$A.$B", out: "$B" }] });
    expect(result.isError).toBe(true);
    const found = /ops\[0\]\.pat matches (?:at least )?(\d+) times in src\/members\.ts/.exec(textOf(result));
    expect(found).not.toBeNull();
    // Stopped within one piece of the cap, not after matching all 150,003.
    expect(Number(found?.[1])).toBeGreaterThan(MAX_MATCHES_PER_FILE);
    expect(Number(found?.[1])).toBeLessThan(2 * MAX_MATCHES_PER_FILE);
    expect(actions).toHaveLength(0);
    expect(await readFile(path, "utf8")).toBe(source);
  });

  it("turns the event loop between the pieces of the match itself (a pattern that matches nothing)", async () => {
    // Nothing to rewrite, so no turn comes from the rewrite: only the matching can give them.
    const source = "a.b.c.d;\n".repeat(MAX_MATCHES_PER_FILE + 1);
    let turns = 0;
    let running = true;
    const turn = (): void => {
      turns += 1;
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    const outcome = await rewriteSource(Lang.TypeScript, source, [{ pat: "zzz($A)", out: "y" }]);
    running = false;
    expect(outcome.replacements).toBe(0);
    // 450 KB in pieces of at most 64 KB, a turn after each; one findAll over it gives none.
    expect(turns).toBeGreaterThanOrEqual(5);
  });

  it("rewrites a large file below the cap exactly as one findAll would", async () => {
    const source = "x.y(1);\n".repeat(20_000);
    const path = await workspace.write("src/calls.ts", source);
    const { result, actions } = await previewAstEdit(workspace.cwd, {
      ops: [{ pat: "x.y($A)", out: "z($A)" }],
    });
    expect(result.isError).not.toBe(true);
    expect(actions).toHaveLength(1);
    await actions[0]?.apply("apply it");
    expect(await readFile(path, "utf8")).toBe("z(1);\n".repeat(20_000));
  });
});
