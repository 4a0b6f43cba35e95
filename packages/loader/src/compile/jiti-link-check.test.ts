import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJiti } from "jiti";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkJitiImports, isTypeScript } from "./jiti-link-check.js";

const jiti = createJiti(import.meta.url);
const transform = (file: string, source: string) =>
  jiti.transform({ source, filename: file, ts: isTypeScript(file) });
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-jiti-link-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function tool(name: string, index: string, helper: string): Promise<string> {
  await writeFile(join(root, `${name}-helper.ts`), helper);
  await writeFile(join(root, `${name}.ts`), index);
  return join(root, `${name}.ts`);
}

describe("checkJitiImports", () => {
  it("reports a name the helper does not export, located at the import", async () => {
    const entry = await tool(
      "missing",
      'import { present, absent } from "./missing-helper.js";\nexport default () => [present, absent];\n',
      "export const present = 1;\nexport function other() {}\n",
    );
    expect(() => checkJitiImports(entry, transform)).toThrow(
      expect.objectContaining({
        message: 'No matching export in "./missing-helper.js" for import "absent"',
        location: expect.objectContaining({ line: 1, column: 19 }),
      }),
    );
  });

  it("does not take text that only looks like an export for one", async () => {
    const entry = await tool(
      "lookalike",
      'import { missing } from "./lookalike-helper.js";\nexport default () => [missing];\n',
      'export const note = "exports.missing = 1";\n',
    );
    expect(() => checkJitiImports(entry, transform)).toThrow(/for import "missing"/);
  });

  it("lets through the names of a helper with `export *` and of renamed or default exports", async () => {
    await writeFile(join(root, "other.ts"), "export const fromStar = 1;\n");
    const entry = await tool(
      "star",
      'import value, { fromStar, renamed } from "./star-helper.js";\nexport default () => [value, fromStar, renamed];\n',
      'export * from "./other.js";\nconst local = 2;\nexport { local as renamed };\nexport default 3;\n',
    );
    expect(() => checkJitiImports(entry, transform)).not.toThrow();
  });
});
