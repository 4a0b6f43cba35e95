// The test suite on a busy machine: builds once, then runs `vitest run --typecheck` several
// times in a row while busy loops keep cores occupied, as a loaded 2-core CI runner would.
//   node scripts/test-under-load.mjs [--runs 3] [--loops 2] [vitest paths or flags…]
// Exits with the first failing run's code (the loops are stopped either way); prints each
// run's result and time.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { runs: { type: "string", default: "3" }, loops: { type: "string", default: "2" } },
  allowPositionals: true,
  strict: false,
});
const runs = Number(values.runs);
const loops = Number(values.loops);
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(loops) || loops < 0) {
  process.stderr.write(
    "usage: node scripts/test-under-load.mjs [--runs N ≥ 1] [--loops N ≥ 0] [vitest args…]\n",
  );
  process.exit(2);
}
const extra = positionals.map(String);

/** Runs `command` with inherited output; resolves with its exit code (1 for a signal). */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", () => resolve(127));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

// Busy loops: one Node process each, spinning until stopped.
const busy = Array.from({ length: loops }, () =>
  spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
);
const stopLoops = () => {
  for (const loop of busy) loop.kill("SIGKILL");
};
process.on("exit", stopLoops);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopLoops();
    process.exit(130);
  });
}

const pnpm = ["-y", "pnpm@10.34.8"];
let code = await run("npx", [...pnpm, "build"]);
if (code !== 0) {
  process.stderr.write(`test-under-load: the build failed (exit ${code})\n`);
  process.exit(code);
}
for (let index = 1; index <= runs && code === 0; index += 1) {
  const started = performance.now();
  code = await run("npx", ["vitest", "run", "--typecheck", ...extra]);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stderr.write(
    `test-under-load: run ${index} of ${runs}, ${loops} busy ${loops === 1 ? "loop" : "loops"}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s\n`,
  );
}
stopLoops();
process.exit(code);
