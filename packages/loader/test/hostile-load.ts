import { EventEmitter } from "node:events";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clearTimeout, setTimeout } from "node:timers";
import { type CompilerName, type LoadCustomToolsResult, loadCustomTools } from "../src/index.js";
import { testCacheDir } from "./helpers.js";

/**
 * Helpers for the regression tests of modules that tamper with the built-ins the loader
 * uses (`Object.prototype.then`, `Promise.race`, `Array.isArray`, `process.on`, …). The
 * helper itself does not trust those built-ins while a load runs: it keeps its own copies
 * and settles with null-prototype objects, so a load that never settles is reported as
 * `hung` instead of hanging the test.
 */

/** A module with one well-formed tool named `name`. */
export function goodModule(name: string): string {
  return `export default (pi) => ({
  name: ${JSON.stringify(name)},
  label: ${JSON.stringify(name)},
  description: "A tool that does nothing wrong.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "ok" }] };
  },
});
`;
}

/** How a load ended: its result, the error it rejected with, or neither within the deadline. */
export type HostileLoadOutcome =
  | { status: "settled"; result: LoadCustomToolsResult }
  | { status: "rejected"; error: unknown }
  | { status: "hung" };

const originals = {
  objectThen: Object.getOwnPropertyDescriptor(Object.prototype, "then"),
  race: Promise.race,
  all: Promise.all,
  allSettled: Promise.allSettled,
  resolve: Promise.resolve,
  isArray: Array.isArray,
  processOn: Object.getOwnPropertyDescriptor(process, "on"),
  emitterOn: EventEmitter.prototype.on,
};
const { defineProperty, deleteProperty } = Reflect;
const PromiseConstructor = Promise;

/**
 * Loads `a-good.ts`, `b-hostile.ts` (`hostileSource`) and `c-good.ts` (tools `good_before` and
 * `good_after`) from a fresh folder, in that order, and waits at most `deadlineMs` for the
 * load to settle. Whatever the load left tampered is put back afterwards, so a failing run
 * does not break the next test.
 */
export async function loadBesideHostile(
  hostileSource: string,
  options: { compiler: CompilerName; factoryTimeoutMs?: number; deadlineMs?: number },
): Promise<{ outcome: HostileLoadOutcome; dir: string; left: string[] }> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-hostile-")));
  writeFileSync(join(dir, "a-good.ts"), goodModule("good_before"));
  writeFileSync(join(dir, "b-hostile.ts"), hostileSource);
  writeFileSync(join(dir, "c-good.ts"), goodModule("good_after"));
  let timer: NodeJS.Timeout | undefined;
  let left: string[] = [];
  try {
    const outcome = await new PromiseConstructor<HostileLoadOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ __proto__: null, status: "hung" } as HostileLoadOutcome),
        options.deadlineMs ?? 15_000,
      );
      let load: Promise<LoadCustomToolsResult>;
      try {
        load = loadCustomTools({
          paths: [dir],
          cwd: dir,
          compiler: options.compiler,
          cacheDir: testCacheDir(`hostile-${options.compiler}`),
          factoryTimeoutMs: options.factoryTimeoutMs ?? 3_000,
        });
      } catch (error) {
        resolve({ __proto__: null, status: "rejected", error } as HostileLoadOutcome);
        return;
      }
      PromiseConstructor.prototype.then.call(
        load,
        (result: LoadCustomToolsResult) =>
          resolve({ __proto__: null, status: "settled", result } as HostileLoadOutcome),
        (error: unknown) => resolve({ __proto__: null, status: "rejected", error } as HostileLoadOutcome),
      );
    });
    left = changedBuiltIns();
    return { outcome, dir, left };
  } finally {
    clearTimeout(timer);
    restoreBuiltIns();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What the hostile modules of these tests change that is not as it was, by name: read before
 * {@link restoreBuiltIns}, so a test sees what the load itself left changed.
 */
function changedBuiltIns(): string[] {
  const changed: string[] = [];
  if (!sameDescriptor(Object.getOwnPropertyDescriptor(Object.prototype, "then"), originals.objectThen))
    changed.push("Object.prototype.then");
  if (Promise.race !== originals.race) changed.push("Promise.race");
  if (Promise.all !== originals.all) changed.push("Promise.all");
  if (Promise.allSettled !== originals.allSettled) changed.push("Promise.allSettled");
  if (Promise.resolve !== originals.resolve) changed.push("Promise.resolve");
  if (Array.isArray !== originals.isArray) changed.push("Array.isArray");
  if (!sameDescriptor(Object.getOwnPropertyDescriptor(process, "on"), originals.processOn))
    changed.push("process.on");
  if (EventEmitter.prototype.on !== originals.emitterOn) changed.push("EventEmitter.prototype.on");
  return changed;
}

function sameDescriptor(a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.value === b.value && a.get === b.get && a.set === b.set;
}

/** Puts back what the hostile modules of these tests change, if a load left it changed. */
export function restoreBuiltIns(): void {
  if (originals.objectThen === undefined) deleteProperty(Object.prototype, "then");
  else defineProperty(Object.prototype, "then", originals.objectThen);
  Promise.race = originals.race;
  Promise.all = originals.all;
  Promise.allSettled = originals.allSettled;
  Promise.resolve = originals.resolve;
  Array.isArray = originals.isArray;
  if (originals.processOn === undefined) deleteProperty(process, "on");
  else defineProperty(process, "on", originals.processOn);
  EventEmitter.prototype.on = originals.emitterOn;
}

/** The tool names a settled load returned. */
export function toolNames(outcome: HostileLoadOutcome): string[] {
  return outcome.status === "settled" ? outcome.result.tools.map((loaded) => loaded.tool.name) : [];
}

/** The diagnostics of a settled load about `file` in `dir`, as `code: message`. */
export function diagnosticsOf(outcome: HostileLoadOutcome, dir: string, file: string): string[] {
  if (outcome.status !== "settled") return [];
  return outcome.result.diagnostics
    .filter((diagnostic) => diagnostic.path === join(dir, file))
    .map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`);
}
