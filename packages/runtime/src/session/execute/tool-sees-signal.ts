/**
 * Marks an `execute` (an own property set to `true` on the function) that learns of a stop
 * through its context (`callStopOf(ctx)`) instead of an `AbortSignal`: a session creates no
 * signal for it (it declares the signal, for a direct caller to pass one). The loader's
 * proxies of isolated tools carry it.
 */
export const STOP_THROUGH_CONTEXT: unique symbol = Symbol("tooldock.stopThroughContext");

/** Whether `execute` carries {@link STOP_THROUGH_CONTEXT}. */
export function hearsStopThroughContext(execute: unknown): boolean {
  return (
    typeof execute === "function" &&
    Object.hasOwn(execute, STOP_THROUGH_CONTEXT) &&
    (execute as { [STOP_THROUGH_CONTEXT]?: unknown })[STOP_THROUGH_CONTEXT] === true
  );
}

/** The position of `signal` among `execute`'s parameters (toolCallId, params, onUpdate, ctx, signal). */
const SIGNAL_PARAMETER_COUNT = 5;
/** The position of `ctx` among them. */
const CONTEXT_PARAMETER_COUNT = 4;

/** What may come before a parameter list in a function's source: `async`, `function`, `*`, a name. */
const FUNCTION_HEAD = /^(?:async\s+)?(?:function\b\s*)?\*?\s*(?:[\w$]+\s*)?$/;
/** The head of an arrow function with one bare parameter: `x =>`, `async x =>`. */
const BARE_ARROW_HEAD = /^(?:async\s+)?[\w$]+\s*$/;
/** Only plain names: no default, rest, destructuring or comment, so `length` counts them all. */
export const PLAIN_PARAMETER_LIST = /^\s*(?:[\w$]+\s*(?:,\s*[\w$]+\s*)*,?\s*)?$/;
/** `arguments` in the source, an escape that could spell it, or a bound or built-in function. */
const MAY_READ_ARGUMENTS = /\barguments\b|\\u|\[native code\]/;

/**
 * Whether a tool's `execute` can see its fifth argument, the `AbortSignal`. An `AbortSignal`
 * costs microseconds to create on Node 20, so the session creates one only for a tool that
 * can see it; the call is stopped the same way either way (its answer does not wait).
 *
 * It errs towards `true`: only an `execute` whose source proves it declares fewer than five
 * plain parameters and never reads `arguments` gets no signal. A rest parameter, a default,
 * destructuring, a sloppy-mode function (whose `fn.arguments` another function can read), a
 * bound or native function, or a source this cannot read all count as seeing it.
 *
 * @example
 * toolSeesSignal(async (id, params) => result); // false
 * toolSeesSignal(async (id, params, onUpdate, ctx, signal) => result); // true
 * toolSeesSignal(async (...args) => result); // true
 */
export function toolSeesSignal(execute: unknown): boolean {
  return toolSeesArgument(execute, SIGNAL_PARAMETER_COUNT);
}

/**
 * Whether a tool's `execute` can see its fourth argument, the context, judged as
 * {@link toolSeesSignal} judges the fifth. The session builds a context (an object and two
 * functions) only for a tool that can see it; one that cannot gets `undefined`, which it
 * cannot tell apart.
 *
 * @example
 * toolSeesContext(async (id, params) => result); // false
 * toolSeesContext(async (id, params, onUpdate, ctx) => result); // true
 */
export function toolSeesContext(execute: unknown): boolean {
  return toolSeesArgument(execute, CONTEXT_PARAMETER_COUNT);
}

/**
 * {@link toolSeesSignal} and {@link toolSeesContext} at once, reading the source once: every
 * reason to see the fifth argument is one to see the fourth, and an `execute` that cannot see
 * the fifth has a source that proved plain parameters without `arguments`, so its `length`
 * says whether it declares the fourth.
 */
export function argumentsSeen(execute: unknown): { signal: boolean; context: boolean } {
  const signal = toolSeesArgument(execute, SIGNAL_PARAMETER_COUNT);
  return { signal, context: signal || (execute as () => unknown).length >= CONTEXT_PARAMETER_COUNT };
}

/** Whether `execute` can see its argument at (1-based) `position`; errs towards `true`. */
function toolSeesArgument(execute: unknown, position: number): boolean {
  if (typeof execute !== "function") return true;
  if (execute.length >= position || isSloppyFunction(execute)) return true;
  let source: string;
  try {
    source = Function.prototype.toString.call(execute);
  } catch {
    return true;
  }
  return !declaresOnlyPlainParameters(source) || MAY_READ_ARGUMENTS.test(source);
}

/**
 * Whether `fn` is a sloppy-mode function, whose `fn.arguments` another function can read while
 * it runs: reading it then gives `null` where any other function throws. Not an own
 * `arguments` property: V8 from Node 26 and Bun's JavaScriptCore define none on it.
 */
function isSloppyFunction(fn: object): boolean {
  try {
    void (fn as unknown as { arguments: unknown }).arguments;
    return true;
  } catch {
    return false;
  }
}

/** True when the parameter list of the function `source` is a list of plain names. */
function declaresOnlyPlainParameters(source: string): boolean {
  const open = source.indexOf("(");
  const arrow = source.indexOf("=>");
  if (arrow !== -1 && (open === -1 || arrow < open)) return BARE_ARROW_HEAD.test(source.slice(0, arrow));
  if (open === -1 || !FUNCTION_HEAD.test(source.slice(0, open))) return false;
  const close = source.indexOf(")", open);
  return close !== -1 && PLAIN_PARAMETER_LIST.test(source.slice(open + 1, close));
}
