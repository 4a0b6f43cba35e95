import { describeError } from "../diagnostics.js";

/** The compile cache could not be written (read-only, full, or not a directory). */
export class CacheWriteError extends Error {
  /** What the file system said. */
  readonly reason: string;

  constructor(
    readonly cacheDir: string,
    options: { cause: unknown },
  ) {
    const reason = describeError(options.cause);
    super(`cannot write the compile cache in ${cacheDir} (${reason})`, options);
    this.name = "CacheWriteError";
    this.reason = reason;
  }
}
