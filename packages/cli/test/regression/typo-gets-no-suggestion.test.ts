// Attack (a newcomer's trap): a mistyped command or option (`tooldock valdiate`, `--stirct`)
// was refused with no hint of what was meant. The usage error now ends with the closest
// command or option of that command ("did you mean"), and still exits 2 with the usage line.
import { describe, expect, it } from "vitest";
import { run } from "../../src/run.js";
import { memoryIo } from "../memory-io.js";

async function usageError(argv: string[]): Promise<string> {
  const memory = memoryIo(process.cwd());
  expect(await run(argv, memory.io)).toBe(2);
  expect(memory.stdout()).toBe("");
  return memory.stderr();
}

describe("a typo gets a suggestion", () => {
  it("a mistyped command", async () => {
    const stderr = await usageError(["valdiate", "."]);
    expect(stderr).toContain('unknown command "valdiate"');
    expect(stderr).toContain('did you mean "validate"?');
  });

  it("a mistyped topic of help", async () => {
    expect(await usageError(["help", "shcema"])).toContain('did you mean "schema"?');
  });

  it("a mistyped option of a command", async () => {
    const stderr = await usageError(["validate", ".", "--stirct"]);
    expect(stderr).toContain("Unknown option '--stirct'");
    expect(stderr).toContain("did you mean --strict?");
    expect(stderr).toContain("usage: tooldock validate");
  });

  it("nothing when no command or option is close", async () => {
    const stderr = await usageError(["frobnicate"]);
    expect(stderr).not.toContain("did you mean");
    expect(await usageError(["list", "--zzzzzz"])).not.toContain("did you mean");
  });
});
