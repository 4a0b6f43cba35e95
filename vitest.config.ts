import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Test files that mock a module (`vi.doMock`): each runs in a worker of its own. */
const MOCKS_MODULES = [
  "packages/loader/test/compiler-fallback.test.ts",
  "packages/loader/test/packs.test.ts",
  "packages/loader/test/regression/isolated-packs-unbuilt-in-silence.test.ts",
  "packages/loader/test/regression/pack-membership-depends-on-discovery-timing.test.ts",
  "packages/loader/test/source-packs.test.ts",
  "packages/loader/test/warm-start.test.ts",
  "packages/runtime/test/regression/ajv-missing-beside-bundle.test.ts",
];

/** Every test file; those in {@link MOCKS_MODULES} run in a project of their own. */
const TEST_FILES = [
  "packages/*/src/**/*.test.ts",
  "packages/*/test/**/*.test.ts",
  "bench/**/*.test.ts",
  "scripts/**/*.test.ts",
];

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
    exclude: ["**/node_modules/**", "**/dist/**", "**/fixtures/**", "**/corpus/**"],
    // One folder per run for TMPDIR and the per-user cache/state folders, removed at the end.
    globalSetup: ["./scripts/vitest-global-setup.ts"],
    // Many files wait on child processes (the built CLI, npm, isolated loads), so one worker
    // more than there are cores keeps the cores busy: on the 2-core CI machine the run went
    // from 337 s (2 workers, the default) to 200 s (3), twice, with no failure.
    maxWorkers: availableParallelism() + 1,
    // A cold load on Node 22.15+ serves a tool's files at `?tooldock=<n>` URLs through Node's
    // module hooks; vitest, which runs the loader's sources here, must leave those imports to
    // Node rather than compile the tool itself (the loader README, "Testing your tools").
    server: { deps: { external: [/[?&]tooldock=\d+$/] } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        // Test files share their workers' modules: a fresh worker per file, importing the
        // sources again, cost ~0.8 s of CPU a file (295 s of a 604 s run on 2 cores).
        test: {
          name: "shared",
          typecheck: {
            include: ["packages/*/src/**/*.test-d.ts", "packages/*/test/**/*.test-d.ts"],
            // The `.test-d.ts` files and what they import, not the whole tsconfig.json: vitest's
            // tsc checks every file of its project, and `pnpm typecheck` (run by `pnpm test`
            // before vitest) checks them all already. 6 s of CPU instead of 29 s.
            tsconfig: "./tsconfig.typecheck.json",
            // On in the project itself: a project does not take `--typecheck` from the
            // command line. A run filtered to some files checks only the `.test-d.ts` among them.
            enabled: true,
          },
          include: TEST_FILES,
          exclude: MOCKS_MODULES,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "mocks-modules", include: MOCKS_MODULES, typecheck: { enabled: false } },
      },
    ],
  },
});
