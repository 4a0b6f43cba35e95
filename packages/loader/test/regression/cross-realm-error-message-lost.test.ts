import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Found by a bug hunt: an Error made in another realm (`node:vm`, vitest's `vmThreads` pool,
// Jest) is no `instanceof Error` here, and the loader described it as JSON: "threw: {}". The
// author's own message was lost, in-process and in a tool host alike.
const AT_IMPORT = `import { runInNewContext } from "node:vm";
runInNewContext("throw new TypeError('config.apiKey is missing')");
export default (pi) => ({ name: "realm_a", label: "A", description: "d", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) });
`;
const IN_FACTORY = `import { runInNewContext } from "node:vm";
export default () => { runInNewContext("throw new RangeError('factory blew up')"); };
`;

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe.each(["none", "process"] as const)("an Error of another realm (isolation %s)", (isolation) => {
  it("is reported with its own message (cross-realm-error-message-lost)", async () => {
    const root = testCacheDir(`regression-cross-realm-${isolation}`);
    roots.push(root);
    const tools = join(root, "tools");
    await mkdir(tools, { recursive: true });
    await writeFile(join(tools, "a.mjs"), AT_IMPORT);
    await writeFile(join(tools, "b.mjs"), IN_FACTORY);
    const result = await loadCustomTools({
      paths: [tools],
      cwd: root,
      cacheDir: join(root, "cache"),
      isolation,
    });
    await result.isolated?.close();
    const messages = result.diagnostics.map(({ code, message }) => `${code} ${message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^E_IMPORT Importing .*a\.mjs threw: config\.apiKey is missing$/),
      expect.stringMatching(/^E_FACTORY_THROW The factory of .*b\.mjs threw: factory blew up$/),
    ]);
  });
});
