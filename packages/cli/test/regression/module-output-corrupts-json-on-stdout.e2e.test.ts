// Found by a bug hunt: a module that prints (console.log at import, console.log or
// process.stdout.write in its factory or execute) wrote into the document the CLI prints on
// stdout: `tooldock schema > tools.json`, `list --json | jq`, `call --json` and
// `validate --no-isolate --format json|junit` gave output no parser could read. Only `mcp`
// kept stdout for itself. Now stdout is the CLI's own on every command; a module's output
// goes to stderr.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

const NOISY = `console.log("noise at import");
// Found by the second read: output after the command is done (an exit handler, a late timer)
// reached stdout, where the CLI had given it back.
process.on("exit", () => console.log("noise at exit"));
export default (pi) => {
  process.stdout.write("noise in the factory\\n");
  return {
    name: "noisy",
    label: "Noisy",
    description: "Prints while it loads and runs",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => {
      console.log("noise in execute");
      return { content: [{ type: "text", text: "result text" }] };
    },
  };
};
`;

beforeAll(assertBuilt);

let dir: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  dir = await tempDir({ "tools/noisy.mjs": NOISY });
});

afterEach(async () => {
  await dir.remove();
});

describe("a module that prints, under the commands that print a document on stdout", () => {
  for (const args of [
    ["schema", "tools"],
    ["list", "tools", "--json"],
    ["call", "noisy", "tools", "--json"],
    ["validate", "tools", "--no-isolate", "--format", "json"],
  ]) {
    it(`tooldock ${args.join(" ")}: stdout is JSON alone, the module's output is on stderr`, async () => {
      const run = await runCli(args, { cwd: dir.path });
      expect(run.code).toBe(0);
      expect(() => JSON.parse(run.stdout)).not.toThrow();
      expect(run.stdout).not.toContain("noise");
      expect(run.stderr).toContain("noise at import");
      expect(run.stderr).toContain("noise at exit");
    });
  }

  it("tooldock validate --no-isolate --format junit: stdout is XML alone", async () => {
    const run = await runCli(["validate", "tools", "--no-isolate", "--format", "junit"], { cwd: dir.path });
    expect(run.code).toBe(0);
    expect(XMLValidator.validate(run.stdout)).toBe(true);
    expect(new XMLParser().parse(run.stdout)).toHaveProperty("testsuites");
    expect(run.stderr).toContain("noise in the factory");
  });

  it("tooldock call: the result is on stdout, what execute printed on stderr", async () => {
    const run = await runCli(["call", "noisy", "tools"], { cwd: dir.path });
    expect(run.stdout).toContain("result text");
    expect(run.stdout).not.toContain("noise");
    expect(run.stderr).toContain("noise in execute");
  });
});
