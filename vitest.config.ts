import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources; the built `dist/` is exercised by the
    // end-to-end tests that spawn the CLI and by the SDK surface test.
    alias: [
      { find: /^@tooldock\/sdk$/, replacement: source("./packages/sdk/src/index.ts") },
      { find: /^@tooldock\/runtime$/, replacement: source("./packages/runtime/src/index.ts") },
      { find: /^@tooldock\/runtime\/internal$/, replacement: source("./packages/runtime/src/internal.ts") },
      { find: /^@tooldock\/ast-edit$/, replacement: source("./packages/ast-edit/src/index.ts") },
      { find: /^@tooldock\/loader\/testing$/, replacement: source("./packages/loader/src/testing/index.ts") },
      { find: /^@tooldock\/loader$/, replacement: source("./packages/loader/src/index.ts") },
      { find: /^@tooldock\/ai-sdk$/, replacement: source("./packages/ai-sdk/src/index.ts") },
    ],
  },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "bench/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**", "**/fixtures/**", "**/corpus/**"],
    typecheck: {
      include: ["packages/*/src/**/*.test-d.ts", "packages/*/test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    // One folder per run for TMPDIR and the per-user cache/state folders, removed at the end.
    globalSetup: ["./scripts/vitest-global-setup.ts"],
    // Many files wait on child processes (the built CLI, npm, isolated loads), so one worker
    // more than there are cores keeps the cores busy: on the 2-core CI machine the run went
    // from 337 s (2 workers, the default) to 200 s (3), twice, with no failure.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
