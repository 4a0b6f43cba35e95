import type * as Re2Module from "re2js";
import { escapePointerSegment } from "../util/json-pointer.js";
import { loadRe2 } from "./load-ajv.js";

/**
 * A schema `pattern` (or `patternProperties` key) refused because it cannot run in linear
 * time: RE2 has no lookaround and no backreferences, the two features that let a pattern
 * backtrack without bound.
 */
export class PatternRefused extends Error {
  override name = "PatternRefused";
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`pattern ${JSON.stringify(pattern)} cannot run in linear time: ${reason}`);
  }
}

/** What Ajv calls a pattern: something with `test`, and a `toString` it keys its cache by. */
interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Ajv's `code.regExp`: every `pattern` and `patternProperties` key of a schema is compiled by
 * RE2 (re2js, a pure-JavaScript port), whose matching time grows linearly with the text. A
 * backtracking engine (V8's `RegExp`) can take minutes on one crafted value for a pattern
 * such as `^(a+)+$`, and a check runs on the session's thread, where no deadline can stop it.
 *
 * The pattern is first translated from ECMAScript syntax (`\u00e9`, named groups) to RE2's.
 * RE2 is Unicode-aware as Ajv's `u` flag asks; `\s` is ASCII whitespace in RE2. A pattern
 * RE2 refuses throws {@link PatternRefused}.
 */
export function linearPattern(pattern: string): LinearPattern {
  const { RE2JS } = loadRe2() as typeof Re2Module;
  let compiled: { test(text: string): boolean };
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    // A pattern V8 refuses too is not a linear-time question: let the schema's own error say so.
    if (!isRegExpSource(pattern, "u")) throw error;
    throw new PatternRefused(pattern, error instanceof Error ? error.message : String(error));
  }
  const key = `re2:${pattern}`;
  return { test: (text) => compiled.test(text), toString: () => key };
}
// Ajv writes `code.regExp.code` into standalone code only; this engine is never used there.
linearPattern.code = "linearPattern";

/** Whether V8 compiles `pattern` (with `flags`). */
export function isRegExpSource(pattern: string, flags = ""): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON pointer of the first `pattern` (or `patternProperties` key) in `schema` equal to
 * `pattern`, for a message that says where to look; undefined when it is not found.
 */
export function patternPointer(schema: unknown, pattern: string, at = ""): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  if (Array.isArray(schema)) {
    for (let index = 0; index < schema.length; index++) {
      const found = patternPointer(schema[index], pattern, `${at}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = schema as Record<string, unknown>;
  if (record.pattern === pattern) return `${at}/pattern`;
  const properties = record.patternProperties;
  if (typeof properties === "object" && properties !== null && Object.hasOwn(properties, pattern)) {
    return `${at}/patternProperties`;
  }
  for (const key of Object.keys(record)) {
    const found = patternPointer(record[key], pattern, `${at}/${escapePointerSegment(key)}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * True for a pattern with nothing to backtrack over: no quantifier, group or alternation
 * (`\S`, `^v1$`, `[a-f]`). V8 matches it in time proportional to the text times the pattern,
 * so TypeBox's compiler may keep it. Conservative: an escaped `\+` or a `{` in a class counts.
 */
export function cannotBacktrack(pattern: string): boolean {
  return !/[*+?{}()|]/.test(pattern);
}
