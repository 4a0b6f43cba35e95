// Found by a bug hunt: `tooldock call t1/word-count.ts --args …` (a module's path where the
// tool name goes) said "no tool paths given, and <cwd> has neither .tooldock/tools nor …"
// without saying that `t1/word-count.ts` had been taken as the tool name. Fixed: when the tool
// name is a path that exists, the usage error says so and shows the call with a tool first.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

describe("call with a module's path where the tool name goes", () => {
  it("says the path was taken as the tool name, and how to call a tool of it", async () => {
    const dir = await tempDir({ "t1/word-count.ts": "export default () => [];\n" });
    try {
      const run = await runCli(["call", "t1/word-count.ts", "--args", "{}"], { cwd: dir.path });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('"t1/word-count.ts" was taken as the tool name');
      expect(run.stderr).toContain("tooldock call <tool> t1/word-count.ts");

      const name = await runCli(["call", "word_count", "--args", "{}"], { cwd: dir.path });
      expect(name.code).toBe(2);
      expect(name.stderr).toContain("no tool paths given");
      expect(name.stderr).not.toContain("taken as the tool name");
    } finally {
      await dir.remove();
    }
  });
});
