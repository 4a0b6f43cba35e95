import { PLAIN_PARAMETER_LIST } from "./execute/tool-sees-signal.js";

// Captured when this module is evaluated: a tool module cannot change how sources are read.
const functionToString = Function.prototype.toString;
const reflectApply = Reflect.apply;

/** The code of the warning about a tool written for the older argument order. */
export const LEGACY_EXECUTE_ORDER_WARNING = "W_LEGACY_EXECUTE_ORDER";

/** A parameter name that says it receives the abort signal: `signal`, `_signal`, `abortSignal`. */
const SIGNAL_NAME = /signal|abort/;
/** A parameter name that says it receives partial results: `onUpdate`, `_onUpdate`, `progress`. */
const UPDATE_NAME = /update|progress/;
/** A parameter name that says it receives the context. */
const CONTEXT_NAME = /^(?:ctx|context)$/;
/** What may come before a parameter list: `async`, `function`, `*`, a method or function name. */
const FUNCTION_HEAD = /^(?:async\b\s*)?(?:function\b\s*)?\*?\s*(?:[\w$]+\s*)?$/;
/** The head of an arrow function with one bare parameter: `x =>`, `async x =>`. */
const BARE_ARROW = /^(?:async\s+)?([\w$]+)\s*=>/;

/**
 * Whether `execute` was written for the older argument order
 * `execute(toolCallId, params, signal, onUpdate, ctx)` (pi's custom tools until January
 * 2026, and its extensions' `registerTool`), rather than Tooldock's
 * `execute(toolCallId, params, onUpdate, ctx, signal)`.
 *
 * Decided from the **names** of the declared parameters, read from the function's source
 * (`Function.prototype.toString`): the third is named like a signal (`signal`, `_signal`,
 * `abortSignal`), or the fourth like an update callback (`onUpdate`, `_onUpdate`) while the
 * third is not (`_`, `_sig`). Neither `execute.length` (4 in both orders) nor the declared API
 * version (those hosts' factories declare none) can tell them apart, and calling the tool to
 * see would run its side effects. It errs towards the current order: a function whose source
 * cannot be read, a minified one (`(e, t, n, r)`), destructured or rest parameters, or fewer
 * than three parameters all count as current, so a tool written for the current order is
 * never adapted (its third parameter is never named like a signal).
 *
 * @example
 * isLegacyExecuteOrder(async function execute(id, params, signal, onUpdate) {}); // true
 * isLegacyExecuteOrder(async (id, params, _signal) => result); // true
 * isLegacyExecuteOrder(async (id, params, onUpdate, ctx, signal) => result); // false
 */
export function isLegacyExecuteOrder(execute: unknown): boolean {
  const names = declaredNames(execute);
  if (names === undefined || names.length < 3) return false;
  const third = normalized(names[2]);
  const fourth = normalized(names[3]);
  if (SIGNAL_NAME.test(third)) return true;
  return UPDATE_NAME.test(fourth) && !UPDATE_NAME.test(third) && !CONTEXT_NAME.test(third);
}

/**
 * Whether the parameter names of `execute` clearly say Tooldock's order
 * `execute(toolCallId, params, onUpdate, ctx, signal)`: the third is named like an update
 * callback (`onUpdate`, `progress`), the fourth `ctx` or `context`, or the fifth like a signal,
 * and neither the third is named like a signal nor the fourth like an update callback. The
 * counterpart of {@link isLegacyExecuteOrder} for a host whose tools are written for the
 * older order (pi's `registerTool`): it errs the other way, so a function whose names say
 * nothing (`(e, t, n, r, i)`, `(...args)`, `(id, params, sig, cb, ctx)`) counts as the older order.
 *
 * @example
 * declaresCurrentExecuteOrder(async (id, params, onUpdate, ctx, signal) => result); // true
 * declaresCurrentExecuteOrder(async (id, params, _, context) => result); // true
 * declaresCurrentExecuteOrder(async (e, t, n, r, i) => result); // false
 */
export function declaresCurrentExecuteOrder(execute: unknown): boolean {
  const names = declaredNames(execute);
  if (names === undefined || names.length < 3) return false;
  const [third, fourth, fifth] = [names[2], names[3], names[4]].map(normalized) as [string, string, string];
  if (SIGNAL_NAME.test(third) || UPDATE_NAME.test(fourth)) return false;
  return UPDATE_NAME.test(third) || CONTEXT_NAME.test(fourth) || SIGNAL_NAME.test(fifth);
}

/**
 * Wraps a legacy `execute` so it can be called in the current order: the session calls it as
 * `(toolCallId, params, onUpdate, ctx, signal)` and the tool gets
 * `(toolCallId, params, signal, onUpdate, ctx)`, with the same `this`. Five declared
 * parameters, so the session always creates the signal for it.
 */
export function adaptLegacyExecute<F extends (...args: never[]) => unknown>(execute: F): F {
  const adapted = function (
    this: unknown,
    toolCallId: unknown,
    params: unknown,
    onUpdate: unknown,
    ctx: unknown,
    signal: unknown,
  ) {
    return reflectApply(execute, this, [toolCallId, params, signal, onUpdate, ctx]);
  };
  return adapted as unknown as F;
}

/** The declared parameter names of the function `execute` ({@link parameterNames}), read from its source. */
function declaredNames(execute: unknown): string[] | undefined {
  if (typeof execute !== "function") return undefined;
  try {
    return parameterNames(reflectApply(functionToString, execute, []) as string);
  } catch {
    return undefined;
  }
}

/** `_onUpdate` → `onupdate`; a missing or unnamed parameter → `""`. */
function normalized(name: string | undefined): string {
  return (name ?? "").replace(/^[_$]+/, "").toLowerCase();
}

/**
 * The declared parameter names of the function `source`, in order: `""` for one that is not
 * a plain name (destructured), and the list stops at a rest parameter. `undefined` when the
 * source is not a function this can read (a class, a native or bound function).
 */
function parameterNames(source: string): string[] | undefined {
  const bare = BARE_ARROW.exec(source);
  if (bare !== null) return [bare[1] as string];
  const open = source.indexOf("(");
  if (open === -1 || !FUNCTION_HEAD.test(source.slice(0, open))) return undefined;
  // The common case, plain names only, read with V8's compiled regular expressions: a fresh
  // process runs the scan below in its interpreter, for every tool a load accepts.
  const close = source.indexOf(")", open);
  const list = close === -1 ? "(" : source.slice(open + 1, close);
  if (PLAIN_PARAMETER_LIST.test(list))
    return list
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "");
  const parameters = splitParameters(source, open + 1);
  if (parameters === undefined) return undefined;
  const names: string[] = [];
  for (const parameter of parameters) {
    const text = parameter.trim();
    if (text.startsWith("...")) break;
    names.push(/^[\w$]+/.exec(text)?.[0] ?? "");
  }
  if (names.length > 0 && names.at(-1) === "" && parameters.at(-1)?.trim() === "") names.pop();
  return names;
}

/**
 * The top-level comma-separated pieces of the parameter list starting at `start` (just after
 * its `(`), comments removed; `undefined` when the list does not end. Each piece is sliced
 * from the source (joined around a comment), not built a character at a time: every tool a
 * load accepts goes through here.
 */
function splitParameters(source: string, start: number): string[] | undefined {
  const pieces: string[] = [];
  let current = ""; // the piece so far, up to `from`, when a comment cut it
  let from = start;
  let depth = 0;
  for (let index = start; index < source.length; index++) {
    const char = source[index] as string;
    const next = source[index + 1];
    if (char === "/" && (next === "*" || next === "/")) {
      const end = next === "*" ? source.indexOf("*/", index + 2) : source.indexOf("\n", index);
      if (end === -1) return undefined;
      current += source.slice(from, index);
      index = next === "*" ? end + 1 : end;
      from = index + 1;
      continue;
    }
    if (char === '"' || char === "'" || char === "`") {
      const end = endOfString(source, index);
      if (end === -1) return undefined;
      index = end;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      if (depth === 0) {
        pieces.push(current + source.slice(from, index));
        return pieces;
      }
      depth--;
    } else if (char === "," && depth === 0) {
      pieces.push(current + source.slice(from, index));
      current = "";
      from = index + 1;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opening at `start`, or -1. */
function endOfString(source: string, start: number): number {
  const quote = source[start];
  for (let index = start + 1; index < source.length; index++) {
    if (source[index] === "\\") index++;
    else if (source[index] === quote) return index;
  }
  return -1;
}

/**
 * The text of the {@link LEGACY_EXECUTE_ORDER_WARNING} for tool `toolName` from `where` (its
 * module path or registration origin).
 */
export function legacyExecuteOrderWarning(
  toolName: string,
  where: string,
): { message: string; hint: string } {
  return {
    message:
      `Tool "${toolName}" from ${where} declares execute(toolCallId, params, signal, onUpdate), the older ` +
      "argument order of pi's custom tools; Tooldock calls it in that order (signal third, onUpdate fourth, the context fifth).",
    hint: "Move to the current order, execute(toolCallId, params, onUpdate, ctx, signal), to drop this warning.",
  };
}
