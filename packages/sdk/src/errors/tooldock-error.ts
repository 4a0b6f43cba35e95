import type { DiagnosticErrorCode } from "./error-codes.js";

const brand = Symbol.for("tooldock.error");

/** Codes carried by {@link TooldockError}: the diagnostic codes and any package-specific code. */
export type TooldockErrorCode = DiagnosticErrorCode | (string & {});

/** Options of {@link TooldockError}. */
export interface TooldockErrorOptions {
  cause?: unknown;
}

/**
 * The base of every error Tooldock packages throw: a `code` and a `cause`.
 *
 * `TooldockError.isInstance(value)` recognises errors from any copy of the package (it checks
 * a `Symbol.for("tooldock.error")` brand), where `instanceof` would fail across copies.
 *
 * @example
 * ```ts
 * try { session.register(tool); } catch (error) {
 *   if (TooldockError.isInstance(error)) console.log(error.code);
 * }
 * ```
 */
export class TooldockError extends Error {
  readonly [brand] = true;
  readonly code: TooldockErrorCode;
  override readonly cause: unknown;

  constructor(code: TooldockErrorCode, message: string, options: TooldockErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "TooldockError";
    this.code = code;
    this.cause = options.cause;
  }

  /** True for a `TooldockError` from any copy of the package. */
  static isInstance(value: unknown): value is TooldockError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}
