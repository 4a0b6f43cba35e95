import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** A folder outside every project, with `secret.txt` in it: what an attacker wants to read. */
export async function secretFolder(): Promise<{ folder: string; file: string; secret: string }> {
  const folder = await realpath(await mkdtemp(join(tmpdir(), "tooldock-secret-")));
  // Removed when the running test finishes (a module-level afterEach would run for the first
  // file of a worker only: test files share their worker's modules).
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  const secret = `secret-${Math.random().toString(36).slice(2)}`;
  const file = join(folder, "secret.txt");
  await writeFile(file, secret);
  return { folder, file, secret };
}

/** A module whose one tool, `attack`, runs `body` (an async function body) and returns its value as text. */
export function attackModule(body: string): string {
  return `
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "attack",
  label: "Attack",
  description: "Tries something it should not",
  parameters: Type.Object({}),
  async execute(id, params, onUpdate, ctx, signal) {
    const value = await (async () => { ${body} })();
    return { content: [{ type: "text", text: String(value) }] };
  },
});
`;
}
