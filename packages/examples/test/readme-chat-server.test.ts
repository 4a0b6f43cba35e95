import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

describe("the root README's host example", () => {
  it("is packages/examples/src/chat-server.ts as it is, after the file's leading comment", async () => {
    const readme = await readFile(repoFile("README.md"), "utf8");
    const block = /<!-- chat-server\.ts: begin -->\n```ts\n([\s\S]*?)```\n<!-- chat-server\.ts: end -->/.exec(
      readme,
    );
    expect(block, "README.md has no chat-server.ts block between its markers").not.toBeNull();
    const source = await readFile(repoFile("packages/examples/src/chat-server.ts"), "utf8");
    const code = source.replace(/^(\/\/.*\n)+/, "");
    expect(block?.[1]).toBe(code);
  });
});
