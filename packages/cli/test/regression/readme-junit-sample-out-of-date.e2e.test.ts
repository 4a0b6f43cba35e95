// The root README's "Validate in CI" shows the JUnit file its GitHub Actions step writes. The
// sample had fallen behind the CLI: no `file` and `line` attributes (the ones the step's
// action-junit-report reads), the report's lines not indented, no caret under the column, and
// esbuild's wording of the syntax error, where `validate` (isolated by default) gives the tool
// host's. A user comparing their report with it saw a different file. This runs the README's
// command on the three modules the sample names, in a folder standing for `/ci`, and requires
// the sample to be exactly what it writes.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, examplesDir, repoRoot, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The `run:` command of the README's workflow step and the XML block after it. */
async function readmeSample(): Promise<{ command: string; xml: string }> {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Validate in CI"), readme.indexOf("\n## Use your tools"));
  const command = /run: npx @tooldock\/cli (.*)\n/.exec(section)?.[1];
  const xml = /```xml\n([\s\S]*?)```/.exec(section)?.[1];
  if (command === undefined || xml === undefined)
    throw new Error("the README's Validate in CI section moved");
  return { command, xml };
}

describe("the root README's JUnit sample", () => {
  it("is the report the README's validate step writes", async () => {
    const { command, xml } = await readmeSample();
    const notes = await readFile(join(examplesDir, "tools/notes.ts"), "utf8");
    const work = await tempDir({
      "tools/no-factory.ts": "export function helper() {}\n",
      "tools/notes.ts": notes,
      "tools/syntax-error.ts": "export default () => {\n  const broken = ;\n};\n",
    });
    cleanups.push(work.remove);
    const run = await runCli(command.split(" "), { cwd: work.path });
    expect(run.code).toBe(1);
    const written = await readFile(join(work.path, "reports/tooldock.xml"), "utf8");
    expect(written.replaceAll(work.path, "/ci")).toBe(xml);
  });
});
