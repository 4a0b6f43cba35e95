import picocolors from "picocolors";
import type { OutputStream } from "../cli-io.js";

/** The colour functions the CLI uses; identity functions when colour is off. */
export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Colour only on a terminal, and never when `NO_COLOR` is set to anything but the empty
 * string (https://no-color.org). `FORCE_COLOR` (non-empty, not `0`) turns it on off a TTY.
 */
export function colorEnabled(stream: OutputStream, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** picocolors functions, on or off. */
export function createColors(enabled: boolean): Colors {
  return picocolors.createColors(enabled);
}
