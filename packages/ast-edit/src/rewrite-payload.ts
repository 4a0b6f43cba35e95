import type { Lang } from "@ast-grep/napi";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AstEditError } from "./ast-edit-error.js";
import { hashContent } from "./hash-content.js";
import { languageFromName } from "./languages.js";
import type { FileRewrite, RewritePlan } from "./plan.js";
import type { RewriteOperation } from "./rewrite.js";

/** What `apply` needs of one previewed file. */
export type PlannedFile = Pick<
  FileRewrite,
  "absolutePath" | "relativePath" | "language" | "realPath" | "identity" | "hash" | "original"
>;

/** What `apply` needs of a preview. */
export interface PlannedRewrite {
  realCwd: RewritePlan["realCwd"];
  files: PlannedFile[];
}

/**
 * A staged `ast_edit` rewrite as JSON data (the payload of its durable action): what the
 * preview read of each file (its text, its SHA-256, its real path and device and inode) and
 * the operations, so that any process with `ast_edit` loaded applies it with the same checks.
 */
const RewritePayload = Type.Object({
  version: Type.Literal(1),
  cwd: Type.String({ minLength: 1 }),
  realCwd: Type.String({ minLength: 1 }),
  /** `null`: no limit. */
  limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  operations: Type.Array(Type.Object({ pat: Type.String({ minLength: 1 }), out: Type.String() }), {
    minItems: 1,
  }),
  files: Type.Array(
    Type.Object({
      absolutePath: Type.String({ minLength: 1 }),
      relativePath: Type.String({ minLength: 1 }),
      /** A `lang` name (`typescript`, `tsx`, `javascript`, `html`, `css`). */
      language: Type.String(),
      realPath: Type.String({ minLength: 1 }),
      device: Type.String({ pattern: "^[0-9]+$" }),
      inode: Type.String({ pattern: "^[0-9]+$" }),
      hash: Type.String({ pattern: "^[0-9a-f]{64}$" }),
      original: Type.String(),
    }),
    { minItems: 1 },
  ),
});

export type RewritePayload = typeof RewritePayload.static;

/** The payload of a preview's durable action. */
export function toRewritePayload(
  cwd: string,
  plan: PlannedRewrite,
  operations: readonly RewriteOperation[],
  limit: number,
): RewritePayload {
  return {
    version: 1,
    cwd,
    realCwd: plan.realCwd,
    limit: Number.isFinite(limit) ? limit : null,
    operations: operations.map(({ pat, out }) => ({ pat, out })),
    files: plan.files.map((file) => ({
      absolutePath: file.absolutePath,
      relativePath: file.relativePath,
      // A `lang` name: ast-grep's language lower-cased (`TypeScript` → `typescript`).
      language: file.language.toLowerCase(),
      realPath: file.realPath,
      device: file.identity.device.toString(),
      inode: file.identity.inode.toString(),
      hash: file.hash,
      original: file.original,
    })),
  };
}

/**
 * The rewrite a payload stages, read back (a fresh copy: an apply that rolls back updates the
 * files' identities in it). Throws `E_AST_EDIT_STALE` when the payload is not one `ast_edit`
 * staged (its shape, a language, or a file's text that does not hash to the file's `hash`):
 * nothing is written, and the action can only be discarded.
 */
export function fromRewritePayload(payload: unknown): {
  cwd: string;
  plan: PlannedRewrite;
  operations: RewriteOperation[];
  limit: number;
} {
  if (!Value.Check(RewritePayload, payload))
    throw unreadable(
      [...Value.Errors(RewritePayload, payload)]
        .slice(0, 3)
        .map((error) => `${error.path || "/"}: ${error.message}`)
        .join("; "),
    );
  const languages = payload.files.map((file) => languageFromName(file.language));
  if (languages.includes(undefined)) throw unreadable("a file of an unknown language");
  // Apply checks the file against `hash`, then writes the rewrite of `original`: they must agree.
  const altered = payload.files.find((file) => hashContent(Buffer.from(file.original, "utf8")) !== file.hash);
  if (altered !== undefined) throw unreadable(`the text of ${altered.relativePath} does not match its hash`);
  return {
    cwd: payload.cwd,
    plan: {
      realCwd: payload.realCwd,
      files: payload.files.map((file, index) => ({
        absolutePath: file.absolutePath,
        relativePath: file.relativePath,
        language: languages[index] as Lang,
        realPath: file.realPath,
        identity: { device: BigInt(file.device), inode: BigInt(file.inode) },
        hash: file.hash,
        original: file.original,
      })),
    },
    operations: payload.operations.map(({ pat, out }) => ({ pat, out })),
    limit: payload.limit ?? Number.POSITIVE_INFINITY,
  };
}

function unreadable(problem: string): AstEditError {
  return new AstEditError(
    "E_AST_EDIT_STALE",
    `Cannot apply AST Edit: the staged rewrite is not one ast_edit can read (${problem}); it was staged by another version of ast_edit, or changed in the store. Nothing was written. Call resolve with action "discard", then call ast_edit again.`,
  );
}
