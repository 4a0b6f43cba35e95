import { types } from "node:util";
import type { CustomTool } from "@tooldock/sdk";
import { RUNS_IN_TOOL_HOST } from "../pending/callback-marks.js";
import { describeError } from "../util/describe-error.js";
import { adaptLegacyExecute, isLegacyExecuteOrder } from "./execute-order.js";
import { readAnnotations } from "./tool-annotations.js";

// Captured when this module is evaluated, so a tool module that replaces them later cannot
// change how tools are read and called.
const { isProxy } = types;
const reflectApply = Reflect.apply;
const reflectGet = Reflect.get;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const getPrototypeOf = Object.getPrototypeOf;
const hasOwn = Object.hasOwn;
const freeze = Object.freeze;
const defineProperty = Object.defineProperty;
const isArray = Array.isArray;
const objectPrototype = Object.prototype;

/** Every field of a tool a snapshot reads, in the order it reads them. */
const TOOL_FIELDS = [
  "name",
  "label",
  "description",
  "parameters",
  "hidden",
  "deferrable",
  "annotations",
  "outputSchema",
  "actions",
  "execute",
  "onSession",
] as const;

/** One of {@link TOOL_FIELDS}. */
export type ToolField = (typeof TOOL_FIELDS)[number];

/** What {@link snapshotTool} made of a value. */
export type ToolSnapshot =
  | {
      ok: true;
      /** The frozen record: use it, never the value it was read from, from now on. */
      tool: CustomTool;
      /** Fields read through a getter (own or inherited from a class prototype), once each. */
      accessors: readonly ToolField[];
      /** True when the value was a Proxy: each field went through its `get` trap once. */
      proxy: boolean;
      /**
       * True when `execute` was written for the older argument order
       * `(toolCallId, params, signal, onUpdate, ctx)` (see `isLegacyExecuteOrder`); the record
       * calls it in that order, and the caller warns (`W_LEGACY_EXECUTE_ORDER`).
       */
      legacyExecuteOrder: boolean;
      /** Keys of `annotations` Tooldock does not know: dropped from the record (the caller warns). */
      unknownAnnotations: readonly string[];
    }
  | {
      ok: false;
      /** The name, when it was read as a string, for messages. */
      name: string | undefined;
      /** What is wrong, each a phrase such as `"label" is a number, not a string`. */
      problems: string[];
    };

/** The original tool and the functions read from it, kept beside each record. */
interface ToolOrigin {
  target: object;
  execute: CustomTool["execute"];
  onSession: CustomTool["onSession"];
}

const origins = new WeakMap<object, ToolOrigin>();

/**
 * Reads every field of a tool exactly once (`name`, `label`, `description`, `parameters`,
 * `hidden`, `deferrable`, `annotations`, `outputSchema`, `execute`, `onSession`) into a new frozen record,
 * and checks the shape of what it read: string `name`, `label` and `description`, an object
 * `parameters`, `outputSchema` an object or absent, an `execute` function, `onSession` a function or absent, `annotations` an
 * object of booleans (and a string `title`) or absent, copied with only the keys Tooldock
 * knows (`readAnnotations`). It never throws: a read that throws is one more problem.
 *
 * Own data properties and data properties inherited from a class prototype (methods) are
 * read from their property descriptors, without running any code; a getter, own or
 * inherited, runs once and is listed in `accessors` so the caller can warn; a Proxy (the
 * tool, or a prototype on its chain) gets one `get` per field. Fields inherited from
 * `Object.prototype` are ignored, so a polluted prototype cannot turn an object into a tool.
 * `hidden` and `deferrable` become booleans by truthiness.
 *
 * An `execute` written for the older argument order `(toolCallId, params, signal, onUpdate,
 * ctx)` is wrapped so it is called in that order (`legacyExecuteOrder` says so).
 *
 * The record's `execute` and `onSession` call the functions that were read, with the
 * original tool as `this` (as before, so class-based tools keep their state); a session
 * calls those functions directly. A record passed in again is returned as is.
 *
 * The record is what the registry, the provider adapters, MCP and the CLI use: nothing the
 * original does later (a getter that answers differently, a replaced `execute`) reaches it.
 * `parameters` is kept by reference (a schema object); its JSON Schema is taken once by
 * `asSchema`, which caches it per schema object.
 */
export function snapshotTool(value: unknown): ToolSnapshot {
  if (typeof value === "object" && value !== null && origins.has(value)) {
    return {
      ok: true,
      tool: value as CustomTool,
      accessors: [],
      proxy: false,
      legacyExecuteOrder: false,
      unknownAnnotations: [],
    };
  }
  const problem = notAnObject(value);
  if (problem !== undefined) return { ok: false, name: undefined, problems: [problem] };
  const tool = value as object;
  const proxy = isProxy(tool);
  const reads: Reads = [];
  const accessors: ToolField[] = [];
  const problems: string[] = [];
  for (let index = 0; index < TOOL_FIELDS.length; index++) {
    const field = TOOL_FIELDS[index] as ToolField;
    try {
      reads[index] = readField(tool, field, accessors);
    } catch (error) {
      // The first read that throws decides: a refused tool needs no further reads.
      problems.push(`reading "${field}" threw (${describeError(error)})`);
      break;
    }
  }
  const name = readValue(reads, "name");
  problems.push(...shapeProblems(reads));
  const annotations = readAnnotations(readValue(reads, "annotations"));
  problems.push(...annotations.problems);
  if (problems.length > 0) return { ok: false, name: typeof name === "string" ? name : undefined, problems };
  const written = readValue(reads, "execute") as CustomTool["execute"];
  // A tool written for the older argument order is called through an adapter from now on.
  const legacyExecuteOrder = isLegacyExecuteOrder(written);
  const execute = legacyExecuteOrder ? adaptLegacyExecute(written) : written;
  const onSession = readValue(reads, "onSession") as CustomTool["onSession"];
  const actions = readActions(readValue(reads, "actions"), problems);
  if (problems.length > 0) return { ok: false, name: name as string, problems };
  const record: CustomTool = {
    name: name as string,
    label: readValue(reads, "label") as string,
    description: readValue(reads, "description") as string,
    parameters: readValue(reads, "parameters") as CustomTool["parameters"],
    execute: (...args) => reflectApply(execute, tool, args),
  };
  const hidden = readValue(reads, "hidden");
  const deferrable = readValue(reads, "deferrable");
  if (hidden !== undefined) record.hidden = Boolean(hidden);
  if (deferrable !== undefined) record.deferrable = Boolean(deferrable);
  if (annotations.annotations !== undefined) record.annotations = annotations.annotations;
  const outputSchema = readValue(reads, "outputSchema");
  if (outputSchema !== undefined) record.outputSchema = outputSchema as CustomTool["outputSchema"];
  if (actions !== undefined) record.actions = actions;
  if (onSession !== undefined) record.onSession = (...args) => reflectApply(onSession, tool, args);
  if (!proxy && accessors.includes("description")) liveDescription(record, tool);
  freeze(record);
  origins.set(record, { target: tool, execute, onSession });
  return {
    ok: true,
    tool: record,
    accessors,
    proxy,
    legacyExecuteOrder,
    unknownAnnotations: annotations.unknownKeys,
  };
}

/**
 * A tool's `actions` (the handlers of its durable pending actions), each handler's `apply`
 * and `reject` read once into a frozen record whose functions call them with the handler as
 * `this`, and which keeps the handler's `RUNS_IN_TOOL_HOST` mark; `undefined` when absent. What is wrong is pushed onto `problems`.
 */
function readActions(value: unknown, problems: string[]): CustomTool["actions"] {
  // Not a map of handlers (an array of names, a string): some other use of the name, ignored.
  if (typeof value !== "object" || value === null || isArraySafe(value)) return undefined;
  const handlers: NonNullable<CustomTool["actions"]> = {};
  try {
    const names = Object.keys(value);
    const fields = names.map((name) => {
      const handler = (value as Record<string, unknown>)[name];
      const isObject = typeof handler === "object" && handler !== null;
      return {
        name,
        handler,
        apply: isObject ? handlerField(handler, "apply") : undefined,
        reject: isObject ? handlerField(handler, "reject") : undefined,
        inToolHost: isObject && (handler as Record<symbol, unknown>)[RUNS_IN_TOOL_HOST] === true,
      };
    });
    if (!fields.some((field) => field.apply !== undefined)) return undefined;
    for (const { name, handler, apply, reject, inToolHost } of fields) {
      if (typeof apply !== "function") {
        problems.push(`"actions.${name}.apply" is ${describeToolValue(apply)}, not a function`);
        continue;
      }
      if (reject !== undefined && typeof reject !== "function") {
        problems.push(`"actions.${name}.reject" is ${describeToolValue(reject)}, not a function`);
        continue;
      }
      const bound: NonNullable<CustomTool["actions"]>[string] = {
        apply: (...args) => reflectApply(apply, handler, args),
      };
      if (reject !== undefined) bound.reject = (...args) => reflectApply(reject, handler, args);
      if (inToolHost) defineProperty(bound, RUNS_IN_TOOL_HOST, { value: true });
      handlers[name] = freeze(bound);
    }
  } catch (error) {
    problems.push(`reading "actions" threw (${describeError(error)})`);
    return undefined;
  }
  return freeze(handlers);
}

/**
 * A handler's `apply` or `reject`: own or from its class, never from `Object.prototype` (a
 * polluted prototype cannot give a handler a function).
 */
function handlerField(handler: object, field: "apply" | "reject"): unknown {
  let holder: object | null = handler;
  while (holder !== null && holder !== objectPrototype) {
    if (isProxy(holder)) return reflectGet(holder, field, handler);
    const descriptor = getOwnPropertyDescriptor(holder, field);
    if (descriptor !== undefined)
      return hasOwn(descriptor, "get")
        ? reflectApply(descriptor.get as () => unknown, handler, [])
        : descriptor.value;
    holder = getPrototypeOf(holder) as object | null;
  }
  return undefined;
}

/**
 * Makes `record.description` read the tool's `description` getter again at every read (where
 * tool definitions are made for a provider or a client): tools that describe what they find on
 * disk (the agents a subagent tool can start) change it at run time. A read that throws or
 * gives no string keeps the last good value. The other fields stay as read at acceptance.
 */
function liveDescription(record: CustomTool, tool: object): void {
  let holder: object | null = tool;
  let getter: (() => unknown) | undefined;
  while (holder !== null && holder !== objectPrototype && getter === undefined) {
    getter = getOwnPropertyDescriptor(holder, "description")?.get;
    holder = getPrototypeOf(holder) as object | null;
  }
  if (getter === undefined) return;
  const read = getter;
  let last = record.description;
  defineProperty(record, "description", {
    enumerable: true,
    get() {
      try {
        const value = reflectApply(read, tool, []);
        if (typeof value === "string") last = value;
      } catch {
        // The last good description stays.
      }
      return last;
    },
  });
}

/**
 * The original tool a record was read from and the functions read from it; undefined for a
 * value that is not a record {@link snapshotTool} made.
 */
export function toolOrigin(record: object): Readonly<ToolOrigin> | undefined {
  return origins.get(record);
}

/** A short description of a value's kind for messages: `missing`, `null`, `an array`, `a number`. */
function describeToolValue(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (isArraySafe(value)) return "an array";
  const kind = typeof value;
  return kind === "object" ? "an object" : `a ${kind}`;
}

function notAnObject(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || isArraySafe(value)) {
    return `it is ${value === undefined ? "undefined" : describeToolValue(value)}, not an object`;
  }
  return undefined;
}

/** The values a snapshot read, in {@link TOOL_FIELDS} order, up to a read that threw. */
type Reads = unknown[];

/** The position of `field` in {@link TOOL_FIELDS}. */
function fieldIndex(field: ToolField): number {
  let index = 0;
  while (TOOL_FIELDS[index] !== field) index++;
  return index;
}

/** What was read for `field`; undefined when it was not read (or read as undefined). */
function readValue(reads: Reads, field: ToolField): unknown {
  return reads[fieldIndex(field)];
}

/** Whether `field` was read (no read before it threw). */
function wasRead(reads: Reads, field: ToolField): boolean {
  return fieldIndex(field) < reads.length;
}

function shapeProblems(reads: Reads): string[] {
  const problems: string[] = [];
  for (const field of ["name", "label", "description"] as const) {
    if (wasRead(reads, field) && typeof readValue(reads, field) !== "string")
      problems.push(`"${field}" is ${describeToolValue(readValue(reads, field))}, not a string`);
  }
  const parameters = readValue(reads, "parameters");
  if (wasRead(reads, "parameters") && (typeof parameters !== "object" || parameters === null))
    problems.push(`"parameters" is ${describeToolValue(parameters)}, not a schema`);
  const outputSchema = readValue(reads, "outputSchema");
  if (outputSchema !== undefined && (typeof outputSchema !== "object" || outputSchema === null))
    problems.push(`"outputSchema" is ${describeToolValue(outputSchema)}, not a schema`);
  const execute = readValue(reads, "execute");
  if (wasRead(reads, "execute") && typeof execute !== "function")
    problems.push(`"execute" is ${describeToolValue(execute)}, not a function`);
  const onSession = readValue(reads, "onSession");
  if (onSession !== undefined && typeof onSession !== "function")
    problems.push(`"onSession" is ${describeToolValue(onSession)}, not a function`);
  return problems;
}

/**
 * One read of `field`: walks the prototype chain by descriptors (no code runs for data
 * properties), runs a getter once with the tool as receiver (and lists `field` in
 * `accessors`), or does one `get` on the first Proxy met. Stops before `Object.prototype`.
 */
function readField(tool: object, field: ToolField, accessors: ToolField[]): unknown {
  let holder: object | null = tool;
  while (holder !== null && holder !== objectPrototype) {
    if (isProxy(holder)) return reflectGet(holder, field, tool);
    const descriptor = getOwnPropertyDescriptor(holder, field);
    if (descriptor !== undefined) {
      if (!hasOwn(descriptor, "get") && !hasOwn(descriptor, "set")) return descriptor.value;
      const getter = descriptor.get;
      const value = getter === undefined ? undefined : reflectApply(getter, tool, []);
      accessors[accessors.length] = field;
      return value;
    }
    holder = getPrototypeOf(holder) as object | null;
  }
  return undefined;
}

function isArraySafe(value: unknown): boolean {
  try {
    return isArray(value);
  } catch {
    // A revoked Proxy: not an array we can use.
    return false;
  }
}

/** The code of the warning about a tool read through getters or a Proxy. */
export const TOOL_ACCESSOR_WARNING = "W_TOOL_ACCESSOR";

/**
 * The text of the {@link TOOL_ACCESSOR_WARNING} for a snapshot that went through getters or
 * a Proxy, or undefined for a plain tool. `where` is the module path or registration origin.
 */
export function toolAccessorWarning(
  snapshot: Extract<ToolSnapshot, { ok: true }>,
  where: string,
): { message: string; hint: string } | undefined {
  const { tool, proxy } = snapshot;
  // A description getter is read again at every use (see liveDescription): nothing to warn of.
  const accessors = snapshot.accessors.filter((field) => field !== "description");
  if (!proxy && accessors.length === 0) return undefined;
  const how = proxy
    ? "is a Proxy"
    : `defines ${accessors.map((field) => `"${field}"`).join(", ")} through ${accessors.length === 1 ? "a getter" : "getters"}`;
  return {
    message:
      `Tool "${tool.name}" from ${where} ${how}. Each field was read once, when the tool was accepted, ` +
      "and the tool keeps those values: later changes are ignored.",
    hint: "Define the tool as a plain object (an object literal or `defineTool`) with data properties, so what is checked is what runs.",
  };
}
