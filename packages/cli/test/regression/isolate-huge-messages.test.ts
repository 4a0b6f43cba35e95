// End to end: the BUILT `tooldock validate --isolate` (build first: pnpm build).
import { spawn } from "node:child_process";
import type { Diagnostic } from "@tooldock/sdk";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, cliBin } from "../cli-process.js";
import { workFolder } from "../memory-io.js";

// Attack: a module sends 40 messages of 30 MB each through the isolated child's channel. The
// parent read and parsed every one of them and grew to 1.5 GB.
const FLOODS = `import { writeSync } from "node:fs";
const pad = "x".repeat(30 * 1024 * 1024);
for (let index = 0; index < 40; index += 1) {
  const message = { type: "noise", index, pad };
  if (typeof process.send === "function") process.send(message);
  else writeSync(3, JSON.stringify(message) + "\\n");
}
export default () => [];
`;

/** The built CLI with a small heap of its own: the parent must get through on it. */
function runWithSmallHeap(args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--max-old-space-size=96", cliBin, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(assertBuilt);

describe("validate --isolate with a module that floods the child's channel", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;

  beforeEach(async () => {
    folder = await workFolder({ "tools/floods.mjs": FLOODS });
  });
  afterEach(() => folder.remove());

  it("kills the child past the cap and reports it, on a 96 MB parent heap", async () => {
    const run = await runWithSmallHeap(
      ["validate", "tools", "--isolate", "--isolate-timeout", "20000", "--format", "json"],
      folder.path,
      folder.env,
    );
    expect(run.stderr).not.toContain("heap out of memory");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const errors = (report.diagnostics as Diagnostic[]).filter(
      (diagnostic) => diagnostic.severity === "error",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe("E_PROCESS_EXIT");
    expect(errors[0]?.message).toContain("wrote more than 16 MB on its report channel");
  });
});
