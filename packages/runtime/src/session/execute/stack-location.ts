import { realpathSync } from "node:fs";
import { isAbsolute, normalize } from "node:path";
import { fileURLToPath } from "node:url";

/** A place in a source file: 1-based `line` and `column`, as stack traces and editors count. */
export interface ToolCallErrorLocation {
  file: string;
  line: number;
  column: number;
}

/** Frames of a stack looked at for the tool's own one; a deeper frame is not the tool's cause. */
const MAX_FRAMES = 200;

// `file:line:column` at the end of a frame, `file` being a path or a URL.
const POSITION = /^(.*):(\d+):(\d+)$/;

/**
 * The first frame of `stack` that lies in `origin`, the file the tool was registered from,
 * or `undefined` when none does (the tool was registered with no file, or the stack holds
 * none of its frames). A frame's file may be a path or a `file:` URL; an absolute `origin` must
 * match the whole path (or its real path, for a module reached through a symbolic link), a
 * relative one the end of it (`tools/a.ts` matches `/repo/tools/a.ts`).
 * Lines that are not frames are skipped; at most {@link MAX_FRAMES} are read.
 */
export function toolFrameLocation(stack: string, origin: string): ToolCallErrorLocation | undefined {
  const matches = originMatcher(origin);
  if (matches === undefined) return undefined;
  let frames = 0;
  for (const line of stack.split("\n", MAX_FRAMES * 2)) {
    const position = framePosition(line);
    if (position === undefined) continue;
    if (matches(position.file)) return position;
    frames += 1;
    if (frames >= MAX_FRAMES) break;
  }
  return undefined;
}

/** `{ file, line, column }` of one V8 stack line (`    at name (file:1:2)`, `    at file:1:2`). */
function framePosition(line: string): ToolCallErrorLocation | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("at ")) return undefined;
  // `at name (where)` puts the place in the last parentheses; `at where` has none.
  const where = trimmed.endsWith(")") ? trimmed.slice(trimmed.lastIndexOf("(") + 1, -1) : trimmed.slice(3);
  const match = POSITION.exec(where.startsWith("async ") ? where.slice(6) : where);
  if (match === null) return undefined;
  const [, location = "", line1 = "", column = ""] = match;
  const file = toPath(location);
  if (file === undefined) return undefined;
  return { file, line: Number(line1), column: Number(column) };
}

function toPath(location: string): string | undefined {
  if (!location.startsWith("file:")) return location === "" ? undefined : location;
  try {
    return fileURLToPath(location);
  } catch {
    return undefined;
  }
}

function originMatcher(origin: string): ((file: string) => boolean) | undefined {
  const path = toPath(origin);
  if (path === undefined) return undefined;
  const wanted = normalize(path);
  if (isAbsolute(wanted)) {
    // Source maps name the real file: a module loaded through a symbolic link is matched too.
    const real = realPath(wanted);
    return (file) => {
      const candidate = normalize(file);
      return candidate === wanted || candidate === real;
    };
  }
  const tail = wanted.startsWith("./") ? wanted.slice(2) : wanted;
  if (tail === "" || tail.startsWith("..")) return undefined;
  return (file) => {
    const candidate = normalize(file);
    return candidate === tail || candidate.endsWith(`/${tail}`);
  };
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
