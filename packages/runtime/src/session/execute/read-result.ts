import type { AgentToolResult, ResourceContents } from "@tooldock/sdk";
import { describeError } from "../../util/describe-error.js";
import { copyPlainData, NOT_PLAIN } from "./check-json.js";

type Block = AgentToolResult["content"][number];

/**
 * A tool's return value read once into a fresh, plain result, or the problem with it. Only
 * the contract's fields are copied (`content` blocks, `details`, `isError`,
 * `structuredContent`: a JSON object, copied through JSON), so getters and
 * proxies run once, here, and never again in the host. `details` that cannot be read or
 * turned into JSON are dropped (`detailsError` says why) and the content is kept.
 */
export type ResultReading =
  | { ok: true; result: AgentToolResult; detailsError?: { error: unknown } }
  | { ok: false; problem: string };

/** Reads a result; never throws. */
export function readResult(value: unknown): ResultReading {
  try {
    return readShape(value);
  } catch (error) {
    return { ok: false, problem: `reading it threw (${describeError(error)})` };
  }
}

function readShape(value: unknown): ResultReading {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: `expected an object with a content array, got ${describeKind(value)}` };
  }
  const record = value as {
    content?: unknown;
    isError?: unknown;
    details?: unknown;
    structuredContent?: unknown;
  };
  const content = record.content;
  if (!Array.isArray(content))
    return { ok: false, problem: `content must be an array of blocks, got ${describeKind(content)}` };
  const blocks: Block[] = [];
  for (let index = 0; index < content.length; index++) {
    const block = copyBlock(content[index]);
    if (block === undefined) {
      return {
        ok: false,
        problem: `content[${index}] is not a valid block (expected text, image, audio, resource_link or resource, as MCP has them: ${BLOCK_SHAPES})`,
      };
    }
    blocks.push(block);
  }
  const isError = record.isError;
  if (isError !== undefined && typeof isError !== "boolean")
    return { ok: false, problem: `isError must be a boolean, got ${describeKind(isError)}` };
  const result: AgentToolResult = { content: blocks };
  if (isError !== undefined) result.isError = isError;
  const structured = record.structuredContent;
  if (structured !== undefined) {
    const copy = copyStructured(structured);
    if (typeof copy === "string") return { ok: false, problem: copy };
    result.structuredContent = copy;
  }
  const details = readDetails(record);
  if ("error" in details) return { ok: true, result, detailsError: details };
  if (details.value !== undefined) result.details = details.value;
  return { ok: true, result };
}

/** The shape of each block, for the message of a result that has a bad one. */
const BLOCK_SHAPES =
  "{ type: text, text }, { type: image or audio, data, mimeType }, { type: resource_link, uri, name }, { type: resource, resource: { uri, text or blob } }";

/**
 * A fresh content block read once from `block` (text, image, audio, resource link, embedded
 * resource: MCP's content types), with only the fields of its type; undefined when it is not
 * a valid one.
 */
export function copyBlock(block: unknown): Block | undefined {
  if (typeof block !== "object" || block === null) return undefined;
  const candidate = block as Record<string, unknown>;
  const type = candidate.type;
  if (type === "text") {
    const text = candidate.text;
    return typeof text === "string" ? { type, text } : undefined;
  }
  if (type === "image" || type === "audio") {
    const data = candidate.data;
    const mimeType = candidate.mimeType;
    return typeof data === "string" && typeof mimeType === "string" ? { type, data, mimeType } : undefined;
  }
  if (type === "resource_link") {
    const { uri, name } = candidate;
    if (typeof uri !== "string" || typeof name !== "string") return undefined;
    const link: Block = { type, uri, name };
    for (const key of ["title", "description", "mimeType"] as const) {
      const value = candidate[key];
      if (typeof value === "string") link[key] = value;
      else if (value !== undefined) return undefined;
    }
    return link;
  }
  if (type === "resource") {
    const resource = copyResource(candidate.resource);
    return resource === undefined ? undefined : { type, resource };
  }
  return undefined;
}

function copyResource(value: unknown): ResourceContents | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { uri, mimeType, text, blob } = value as Record<string, unknown>;
  if (typeof uri !== "string" || (mimeType !== undefined && typeof mimeType !== "string")) return undefined;
  const type = mimeType === undefined ? {} : { mimeType };
  if (typeof text === "string" && blob === undefined) return { uri, ...type, text };
  if (typeof blob === "string" && text === undefined) return { uri, ...type, blob };
  return undefined;
}

const NO_DETAILS = Object.freeze({ value: undefined });

/**
 * `details` when they can be read and serialised to JSON, otherwise the reason. Plain data
 * (objects and arrays of the built-in prototypes holding JSON values) is copied, each field
 * read once, so a getter or a Proxy cannot hand the host something else later; anything else
 * (a class instance, a `Date`, a `toJSON`) is kept as it is once `JSON.stringify` accepts it.
 */
function readDetails(record: { details?: unknown }): { value: unknown } | { error: unknown } {
  try {
    const value = record.details;
    if (value === undefined) return NO_DETAILS;
    const copy = copyPlainData(value);
    if (copy !== NOT_PLAIN) return { value: copy };
    JSON.stringify(value);
    return { value };
  } catch (error) {
    return { error };
  }
}

/**
 * `structuredContent` as a fresh JSON object (a JSON round trip, so getters run once and
 * nothing the tool keeps a reference to changes it later), or the problem as a string.
 */
function copyStructured(value: unknown): Record<string, unknown> | string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `structuredContent must be a JSON object, got ${describeKind(value)}`;
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value));
  } catch (error) {
    return `structuredContent cannot be turned into JSON (${describeError(error)})`;
  }
  if (typeof copy !== "object" || copy === null || Array.isArray(copy))
    return `structuredContent must be a JSON object, got ${describeKind(copy)} once turned into JSON`;
  return copy as Record<string, unknown>;
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
