import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { describeError } from "../util/describe-error.js";
import { escapePointerSegment } from "../util/json-pointer.js";
import { invalidSchema } from "./invalid-schema.js";
import { linearPattern, PatternRefused, patternPointer } from "./linear-pattern.js";
import { loadAjv, loadAjv2020, loadFormats } from "./load-ajv.js";
import type { SchemaIssue, SchemaValidation } from "./tool-schema.js";

/**
 * One Ajv for the process, for the schemas TypeBox's compiler cannot compile (`Type.Unsafe`,
 * which is how pi's `StringEnum` is built) and those with patterns or formats. Draft-07
 * keywords; unknown keywords are ignored; string formats are checked by ajv-formats
 * (`fullFormats`), and one it does not know is ignored; nothing is logged; schemas are not kept by
 * `$id`, so two tools may use the same one; patterns run on RE2, in linear time
 * ({@link linearPattern}). Ajv itself is loaded here, on the first schema that needs it
 * ({@link loadAjv}): a process whose schemas TypeBox compiles never loads it.
 */
/** The `$schema` of JSON Schema 2020-12, which Ajv validates with its own class. */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** One Ajv per dialect: draft-07 (Ajv's default, also for a schema without `$schema`) and 2020-12. */
const instances: { draft07?: Ajv; draft2020?: Ajv } = {};

function instance(whyAjv: string, dialect: "draft07" | "draft2020"): Ajv {
  const made = instances[dialect];
  if (made !== undefined) return made;
  let Constructor: typeof Ajv;
  try {
    Constructor = dialect === "draft2020" ? (loadAjv2020().Ajv2020 as unknown as typeof Ajv) : loadAjv().Ajv;
  } catch (error) {
    // Not the schema's fault: say that Tooldock's own copy of Ajv is missing, and where to look.
    throw invalidSchema(
      `The schema needs a JSON Schema validator (${whyAjv}), and Tooldock could not load its copy of Ajv (${describeError(error)}). Tooldock's installation is incomplete: reinstall it (the CLI's bundle ships dist/bundle/ajv.cjs beside tooldock.js; @tooldock/runtime depends on "ajv"), or build the schema from TypeBox types its compiler can compile.`,
      error,
    );
  }
  const ajv = new Constructor({
    allErrors: true,
    strict: false,
    // ajv-formats' checks: a format they do not know is ignored (validateTool warns at load).
    formats: loadFormats().fullFormats,
    addUsedSchema: false,
    logger: false,
    code: { regExp: linearPattern },
  });
  instances[dialect] = ajv;
  return ajv;
}

/** A compiled JSON Schema check: the value passes unchanged, or every issue is listed. */
export type JsonSchemaCheck = (value: unknown) => SchemaValidation;

/**
 * Compiles `jsonSchema` with Ajv, once. Throws `E_INVALID_SCHEMA` when Ajv cannot compile it
 * either (an unresolvable `$ref`, a keyword with a value of the wrong type).
 */
export function compileJsonSchema(jsonSchema: Record<string, unknown>, whyAjv: string): JsonSchemaCheck {
  let validate: ValidateFunction;
  const dialect =
    typeof jsonSchema.$schema === "string" && DRAFT_2020_12.test(jsonSchema.$schema)
      ? "draft2020"
      : "draft07";
  const ajv = instance(whyAjv, dialect);
  try {
    validate = ajv.compile(jsonSchema);
    // Ajv caches what it compiled by schema object; the tool keeps the function, so drop the
    // entry (a host that reloads tools would otherwise keep every old schema alive).
    ajv.removeSchema(jsonSchema);
  } catch (error) {
    if (error instanceof PatternRefused) throw refusedPattern(jsonSchema, error);
    throw invalidSchema(
      `The schema cannot be validated: ${whyAjv}, and a JSON Schema validator cannot compile it either (${describeError(error)}). Fix the schema where the second message points, or build it from TypeBox types (for a string enum, StringEnum or Type.Unsafe({ type: "string", enum: [...] })).`,
      error,
    );
  }
  return (value) => {
    if (validate(value) === true) return { success: true, value };
    return { success: false, issues: toIssues(validate.errors ?? []) };
  };
}

/**
 * `E_INVALID_SCHEMA` for a pattern RE2 cannot run: where it is, what RE2 said, and why a
 * backtracking engine is not used instead.
 */
function refusedPattern(jsonSchema: Record<string, unknown>, refused: PatternRefused): Error {
  const at = patternPointer(jsonSchema, refused.pattern);
  return invalidSchema(
    `The pattern ${JSON.stringify(refused.pattern)}${at === undefined ? "" : ` (schema path ${at})`} cannot be checked in linear time: Tooldock checks schema patterns with RE2, which has no lookahead, no lookbehind and no backreferences (${refused.reason}). A backtracking engine can spend minutes on one crafted value and stall the whole session, past any deadline. Rewrite the pattern without them, or check the value inside execute.`,
    refused,
  );
}

function toIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** Ajv's error in the runtime's shape: the path of the value at fault, a sentence about it. */
function toIssue(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    return {
      path: `${error.instancePath}/${escapePointerSegment(params.missingProperty)}`,
      message: "Expected required property",
    };
  }
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    return {
      path: `${error.instancePath}/${escapePointerSegment(params.additionalProperty)}`,
      message: "Unexpected property",
    };
  }
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    const allowed = params.allowedValues.map((value) => JSON.stringify(value)).join(", ");
    return { path: error.instancePath, message: `Expected one of ${allowed}` };
  }
  return { path: error.instancePath, message: capitalise(error.message ?? `fails "${error.keyword}"`) };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
