// Found by a bug hunt: with isolation (validate's default, --isolate elsewhere) what a module
// printed (console.log, console.error, at import or in a call) was dropped: a tool author
// debugging a module saw nothing, where the same module in-process printed on stderr. It now
// reaches the CLI's stderr, with terminal control characters escaped (the text is a module's,
// an untrusted one's under isolation), and stdout stays the CLI's own.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

const NOISY = `console.log("loading noisy");
console.error("clear screen: \\u001b[2J");
export default (pi) => ({
  name: "noisy",
  label: "Noisy",
  description: "Prints while it loads and runs",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => {
    console.error("running noisy");
    return { content: [{ type: "text", text: "result text" }] };
  },
});
`;

beforeAll(assertBuilt);

let dir: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  dir = await tempDir({ "tools/noisy.mjs": NOISY });
});

afterEach(async () => {
  await dir.remove();
});

describe("what an isolated module prints", () => {
  it("reaches stderr under validate (isolated by default), escaped", async () => {
    const run = await runCli(["validate", "tools"], { cwd: dir.path });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("loading noisy");
    expect(run.stderr).toContain("clear screen: \\e[2J");
    expect(run.stderr).not.toContain("\u001b[2J");
    expect(run.stdout).not.toContain("loading noisy");
  });

  it("reaches stderr under call --isolate, while the call runs too", async () => {
    const run = await runCli(["call", "noisy", "tools", "--isolate"], { cwd: dir.path });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("result text");
    expect(run.stderr).toContain("loading noisy");
    expect(run.stderr).toContain("running noisy");
  });
});
