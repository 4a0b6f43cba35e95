import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { examplesPackageDirectory, examplesToolsDirectory } from "../src/index.js";

describe("the examples package manifest", () => {
  it("lists every tool module in tools/", async () => {
    const manifest = JSON.parse(await readFile(`${examplesPackageDirectory}/package.json`, "utf8"));
    const files = (await readdir(examplesToolsDirectory)).filter((name) => name.endsWith(".ts")).sort();
    expect([...manifest.tooldock.tools].sort()).toEqual(files.map((name) => `./tools/${name}`));
  });
});
