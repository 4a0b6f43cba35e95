import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The loader's stages (docs/contract.md §5): a module goes from disk to a registered tool
// through these folders, in this order. A stage may use what an earlier stage made, never a
// later one; the folders every stage uses (guards, format, host-api, diagnostics.ts,
// options.ts) and the entry points above the load (isolation, watch, testing, index.ts) sit
// outside the order.
const STAGES = ["discover", "compile", "build", "evaluate", "accept", "load"] as const;
/** Services every stage may use: they import no stage after `compile`. */
const SERVICES = ["guards", "format", "host-api"] as const;
/** Entry points above the load: no stage or service imports them. */
const ENTRY_POINTS = ["watch", "testing"] as const;

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Every source file of the loader (not its tests), relative to `src`. */
function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    if (!entry.name.endsWith(".ts") || /\.test(-d)?\.ts$/.test(entry.name)) return [];
    return [relative(SRC, path)];
  });
}

/**
 * The files each source file imports (type-only imports too, and `import()`), as TypeScript's
 * own scanner finds them; only relative specifiers name files of the loader.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => relative(SRC, resolve(SRC, dirname(file), specifier)).replace(/\.js$/, ".ts"));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The top folder of a source file (`load`, `build`, …), or the file itself at the top. */
function folderOf(file: string): string {
  return file.split(/[\\/]/)[0] as string;
}

/** Every import cycle, each as the files along it (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** Imports of a later stage, or of an entry point, by a stage or a service. */
function backwardImports(graph: Map<string, string[]>): string[] {
  const backwards: string[] = [];
  for (const [file, targets] of graph) {
    const from = STAGES.indexOf(folderOf(file) as (typeof STAGES)[number]);
    const isService = (SERVICES as readonly string[]).includes(folderOf(file));
    for (const target of targets) {
      if (file === "index.ts" || folderOf(file) === folderOf(target)) continue;
      const to = STAGES.indexOf(folderOf(target) as (typeof STAGES)[number]);
      const laterStage = to !== -1 && ((from !== -1 && to > from) || (isService && to > 1));
      if (laterStage || (ENTRY_POINTS as readonly string[]).includes(folderOf(target)))
        backwards.push(`${file} imports ${target}`);
    }
  }
  return backwards;
}

describe("the loader's stage boundaries", () => {
  const graph = importGraph();

  it("reads every source file and finds imports between the stages (the check is not empty)", () => {
    expect(graph.size).toBeGreaterThan(100);
    const crossing = [...graph].filter(([file, targets]) =>
      targets.some((target) => folderOf(target) !== folderOf(file)),
    );
    expect(crossing.length).toBeGreaterThan(20);
    expect(graph.get("build/build-stage.ts")).toContain("compile/prepared-module.ts");
  });

  it("has no stage import from a later stage (discover/ from build/, build/ from evaluate/, …)", () => {
    expect(backwardImports(graph)).toEqual([]);
  });

  it("has no import cycle between its source files, type-only imports included", () => {
    expect(cycles(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("finds a cycle and a backward import when there is one (the checks can fail)", () => {
    const planted = new Map(graph);
    planted.set("discover/types.ts", [...(planted.get("discover/types.ts") ?? []), "build/build-stage.ts"]);
    expect(cycles(planted).some((cycle) => cycle.includes("discover/types.ts"))).toBe(true);
    expect(backwardImports(planted)).toEqual(["discover/types.ts imports build/build-stage.ts"]);
  });
});
