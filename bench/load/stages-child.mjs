// One measurement of bench/load/stages.mjs: runs the loader's four stages one after another
// (not overlapped, as loadCustomTools does) on N generated tools, in this fresh process, and
// prints each stage's time as one JSON line.
//   node bench/load/stages-child.mjs <toolsDir> <cacheDir>
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { repoRoot, resolvePackage } from "../lib/resolve.mjs";

const [toolsDir, cacheDir] = process.argv.slice(2);
const dist = (/** @type {string} */ path) =>
  import(pathToFileURL(join(repoRoot, "packages/loader/dist", path)).href);
const runtime = await import(pathToFileURL(resolvePackage("@tooldock/runtime")).href);
const { ToolHost } = await import(pathToFileURL(resolvePackage("@tooldock/loader")).href);
const { discover } = await dist("discover/discover-stage.js");
const { BuildStage } = await dist("build/build-stage.js");
const { createModuleCompiler } = await dist("build/module-compiler.js");
const { loadModule } = await dist("evaluate/load-module.js");
const { accept } = await dist("accept/accept-stage.js");
const { SessionRegistration } = await dist("accept/register-into-session.js");
const { LoadGuard } = await dist("guards/load-guard.js");

const session = new runtime.Session({ cwd: toolsDir });
const api = new ToolHost({ cwd: toolsDir }).createAPI();
/** @type {unknown[]} */
const warnings = [];
const times = /** @type {Record<string, number>} */ ({});
let clock = performance.now();
const lap = (/** @type {string} */ stage) => {
  const now = performance.now();
  times[stage] = now - clock;
  clock = now;
};

// 1. discover, to the end.
const discovery = discover({ paths: [toolsDir], cwd: toolsDir });
await discovery.diagnostics();
const modules = [...discovery.found];
lap("discover");

// 2. build every module (esbuild; cold or warm as the cache is), packs included.
const compiler = createModuleCompiler("esbuild", cacheDir, (warning) => warnings.push(warning));
const build = new BuildStage(compiler, modules);
for (const module of modules) build.found(module);
build.discoveryEnded();
const units = modules.map((module) => build.unit(module));
const prepared = await Promise.all(units.map((unit) => unit.prepared));
lap("build");

// 3. evaluate each (import from its pack, run its factory) under the guards.
const guard = new LoadGuard();
const evaluated = [];
for (const [index, unit] of units.entries()) {
  evaluated.push(
    await loadModule(
      { module: unit.module, prepared: Promise.resolve(prepared[index]) },
      { api, factoryTimeoutMs: 10_000, faults: guard.faultsOf(unit.module.resolvedPath) },
    ),
  );
}
lap("evaluate");

// 4. accept: the checks, then the registration into the session.
const acceptance = { reserved: new Set(), claims: new Map() };
const contributions = [];
for (const [index, outcome] of evaluated.entries())
  contributions.push(accept(modules[index], outcome, acceptance));
lap("accept");
const registration = new SessionRegistration(session, modules, [toolsDir]);
for (const [index, contribution] of contributions.entries())
  registration.add(modules[index], contribution.tools);
const { tools } = registration.finish({ accepted: [], diagnostics: [], skipped: new Set() });
lap("register");
await build.close();
await guard.close();

process.stdout.write(
  `${JSON.stringify({ modules: modules.length, tools: tools.length, warnings: warnings.length, times })}\n`,
);
