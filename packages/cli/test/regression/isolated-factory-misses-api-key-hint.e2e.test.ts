// Found by a bug hunt: under isolation (validate's default), a factory that returns [] unless
// `process.env.WEATHER_API_KEY` is set failed with W_NO_TOOLS whose hint said to check the
// environment variables (an API key), though the user had set it: the tool host gets only
// PATH, HOME, LANG, LC_ALL, TZ and TERM of the CLI's environment, the library's
// `isolation.env` was the only way to pass more, and the CLI had no flag for it. Fixed: the
// hint of a module loaded in a tool host says what the tool host sees and how to pass a
// variable, and `--allow-env NAME` passes one (by name: its value never shows in the process
// list).
import type { Diagnostic } from "@tooldock/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

const WEATHER = `export default (pi) => process.env.WEATHER_API_KEY ? [{
  name: "weather",
  label: "Weather",
  description: "Says the weather.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: "sunny" }] }; },
}] : [];
`;

const env = { WEATHER_API_KEY: "secret-key" };

describe("an isolated factory that reads an API key from the environment", () => {
  it("says the tool host does not see it and how to pass it", async () => {
    const dir = await tempDir({ "tools/weather.ts": WEATHER });
    try {
      const run = await runCli(["validate", "tools", "--format", "json"], { cwd: dir.path, env });
      expect(run.code).toBe(1);
      const warning = (JSON.parse(run.stdout).diagnostics as Diagnostic[]).find(
        (diagnostic) => diagnostic.code === "W_NO_TOOLS",
      );
      expect(warning?.hint).toContain("It was loaded in a tool host, which sees only");
      expect(warning?.hint).toContain("--allow-env NAME");
      expect(warning?.hint).not.toContain("WEATHER_API_KEY");

      const inProcess = await runCli(["validate", "tools", "--no-isolate"], { cwd: dir.path, env });
      expect(inProcess.code).toBe(0);
    } finally {
      await dir.remove();
    }
  });

  it("loads its tool with --allow-env, and says so when the variable is not set", async () => {
    const dir = await tempDir({ "tools/weather.ts": WEATHER });
    try {
      const passed = await runCli(
        ["validate", "tools", "--allow-env", "WEATHER_API_KEY", "--format", "json"],
        {
          cwd: dir.path,
          env,
        },
      );
      expect(passed.code).toBe(0);
      expect(JSON.parse(passed.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(["weather"]);

      const unset = await runCli(["validate", "tools", "--allow-env", "WEATHER_API_KEY_TYPO"], {
        cwd: dir.path,
        env,
      });
      expect(unset.code).toBe(1);
      expect(unset.stderr).toContain("WEATHER_API_KEY_TYPO is not set in this environment");

      const value = await runCli(["validate", "tools", "--allow-env", "WEATHER_API_KEY=x"], {
        cwd: dir.path,
      });
      expect(value.code).toBe(2);
      expect(value.stderr).toContain("--allow-env takes a variable name");
    } finally {
      await dir.remove();
    }
  });
});
