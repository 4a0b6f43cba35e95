import { fileURLToPath } from "node:url";
import { createToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir, textOf } from "./temp-dir.js";

const tool = fileURLToPath(new URL("../tools/project-info.ts", import.meta.url));

describe("project_info (async factory)", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    dir = await tempDir({
      "package.json": JSON.stringify({
        name: "demo-app",
        version: "1.2.3",
        scripts: { build: "tsc", test: "vitest" },
      }),
    });
  });

  afterEach(() => dir.remove());

  it("reads package.json while loading and names the scripts in its description", async () => {
    const harness = await createToolHarness({ paths: tool, cwd: dir.path });
    try {
      expect(harness.tools[0]?.tool.description).toContain("demo-app");
      expect(harness.tools[0]?.tool.description).toContain("(build, test)");
      expect(textOf(await harness.call("project_info", {}))).toBe(
        "demo-app@1.2.3\nScripts:\n  build: tsc\n  test: vitest",
      );
    } finally {
      await harness.dispose();
    }
  });

  it("still loads without a package.json and says so when called", async () => {
    const empty = await tempDir();
    const harness = await createToolHarness({ paths: tool, cwd: empty.path });
    try {
      expect(harness.tools[0]?.tool.description).toContain("was not found at load time");
      const result = await harness.call("project_info", {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("No readable package.json");
    } finally {
      await harness.dispose();
      await empty.remove();
    }
  });
});
