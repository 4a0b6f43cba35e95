import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";

// Importing @tooldock/ast-edit (or @tooldock/runtime) must not load the native @ast-grep/napi
// addon: only a call of ast_edit does. Runs the built packages in a fresh process, as a host
// imports them.
const PACKAGE = join(import.meta.dirname, "..");
const CHILD = `
import { createRequire } from "node:module";
const runtime = await import(process.argv[2]);
const astEdit = await import(process.argv[1]);
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("@ast-grep"));
const afterImport = loaded();
const session = new runtime.Session({ cwd: process.argv[3] });
session.register(astEdit.createAstEditTool({ cwd: process.argv[3] }));
const result = await session.execute({ toolCallId: "1", name: "ast_edit", params: { ops: [{ pat: "var $A = $B", out: "let $A = $B" }] } });
console.log(JSON.stringify({ afterImport, afterCall: loaded(), text: result.content[0].text }));
`;

let cwd = "";
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "tooldock-lazy-"));
  await writeFile(join(cwd, "a.js"), "var x = 1;\n");
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

it("loads @ast-grep/napi on the first ast_edit call, not on import", async () => {
  const entry = join(PACKAGE, "dist/index.js");
  const runtimeEntry = join(PACKAGE, "node_modules/@tooldock/runtime/dist/index.js");
  const [built, source] = await Promise.all([
    stat(join(PACKAGE, "dist/preview.js")),
    stat(join(PACKAGE, "src/preview.ts")),
  ]);
  if (built.mtimeMs < source.mtimeMs) throw new Error("dist is older than src; run `pnpm build` first.");
  const { stdout } = await promisify(execFile)(process.execPath, [
    "--input-type=module",
    "-e",
    CHILD,
    entry,
    runtimeEntry,
    cwd,
  ]);
  const outcome = JSON.parse(stdout) as { afterImport: boolean; afterCall: boolean; text: string };
  expect(outcome.afterImport).toBe(false);
  expect(outcome.afterCall).toBe(true);
  expect(outcome.text).toContain("1 replacement");
});
