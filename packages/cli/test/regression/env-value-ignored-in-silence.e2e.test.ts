// Found by a docs walk-through: a typo in an environment variable the loader reads was ignored
// in silence (TOOLDOCK_COMPILER=JITI compiled with esbuild, TOOLDOCK_FACTORY_TIMEOUT_MS=30s kept
// 10 s), while a bad TOOLDOCK_ISOLATE_TIMEOUT_MS was a usage error. Fixed: the load warns
// (W_ENV_VALUE) naming the variable, its value and what the load used instead, in both modes.
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const TOOL = `import { Type } from "@sinclair/typebox";
export default () => ({ name: "echo", label: "Echo", description: "Echoes", parameters: Type.Object({}), execute: async () => ({ content: [] }) });
`;

describe("an environment variable whose value the load cannot use", () => {
  it.each([["--isolate"], ["--no-isolate"]])("is a warning that names it (%s)", async (mode) => {
    const dir = await tempDir({ "t/echo.ts": TOOL });
    try {
      const run = await runCli(["list", "t", mode], {
        cwd: dir.path,
        env: { TOOLDOCK_FACTORY_TIMEOUT_MS: "30s" },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("echo");
      expect(run.stdout).toContain("warning W_ENV_VALUE");
      expect(run.stdout).toContain(
        'TOOLDOCK_FACTORY_TIMEOUT_MS="30s" is not a number of milliseconds above 0; the load used 10000.',
      );
    } finally {
      await dir.remove();
    }
  });

  // Found by a second read: validate (isolated) loads each module apart, and each load read the
  // environment again (one warning per module), while it read TOOLDOCK_FACTORY_TIMEOUT_MS itself
  // in silence.
  it("is one warning per variable for a whole validate run", async () => {
    const dir = await tempDir({
      "t/a.ts": TOOL,
      "t/b.ts": TOOL.replace('"echo"', '"echo_b"'),
      "t/c.ts": TOOL.replace('"echo"', '"echo_c"'),
    });
    try {
      const run = await runCli(["validate", "t"], {
        cwd: dir.path,
        env: { TOOLDOCK_COMPILER: "swc", TOOLDOCK_FACTORY_TIMEOUT_MS: "30s" },
      });
      expect(run.code).toBe(0);
      const output = run.stdout + run.stderr;
      expect(output.split("TOOLDOCK_COMPILER=").length - 1).toBe(1);
      expect(output.split("TOOLDOCK_FACTORY_TIMEOUT_MS=").length - 1).toBe(1);
      expect(output).toContain("2 warnings");
    } finally {
      await dir.remove();
    }
  });
});
