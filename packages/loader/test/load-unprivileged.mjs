// Loads tool paths with the loader's own sources and prints what came out as JSON. corpus.test.ts
// runs it as an unprivileged user (through `setpriv`) when the tests run as root, since root
// reads files whatever their permission bits say:
//
//   node load-unprivileged.mjs <cwd> <cacheDir> <esbuild|jiti> <path>...
import { createJiti } from "jiti";

// No transform cache unless the test names a private one (TOOLDOCK_TEST_JITI_CACHE): jiti's
// default would be <tmpdir>/jiti, a folder shared by every user.
const jiti = createJiti(import.meta.url, { fsCache: process.env.TOOLDOCK_TEST_JITI_CACHE || false });
const { loadCustomTools } = await jiti.import("../src/index.ts");
const [cwd, cacheDir, compiler, ...paths] = process.argv.slice(2);
const result = await loadCustomTools({ paths, cwd, cacheDir, compiler });
process.stdout.write(
  JSON.stringify({
    tools: result.tools.map((loaded) => loaded.tool.name),
    diagnostics: result.diagnostics.map(({ code, severity, path, message }) => ({
      code,
      severity,
      path,
      message,
    })),
  }),
);
