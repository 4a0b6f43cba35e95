import type { DiagnosticLocation } from "@tooldock/sdk";

/** A module that does not compile: thrown by compilers, an `E_COMPILE` diagnostic for the loader. */
export class CompileFailure extends Error {
  /** The file the first error is in (the entry or one of its relative imports). */
  readonly file: string | undefined;
  readonly location: DiagnosticLocation | undefined;

  constructor(
    message: string,
    options: { file?: string | undefined; location?: DiagnosticLocation | undefined; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = "CompileFailure";
    this.file = options.file;
    this.location = options.location;
  }
}
