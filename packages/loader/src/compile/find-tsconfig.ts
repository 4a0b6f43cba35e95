import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/** The tsconfig that applies to a file, as the compile cache keys it. */
export interface TsconfigSnapshot {
  path: string;
  /** Hash over the content of the file and of every config it `extends`, in order. */
  hash: string;
}

/** At most this many configs are followed through `extends` (a guard against cycles). */
const MAX_EXTENDS_DEPTH = 10;

/** Folder → the tsconfig that applies to files in it; share one per load batch. */
export type TsconfigMemo = Map<string, TsconfigSnapshot | null>;

/**
 * The nearest `tsconfig.json` from a file's folder up to the root, with a hash of its content
 * and of the configs it `extends` (relative paths and packages), or `null` when there is none.
 * Synchronous (an `existsSync` per folder costs microseconds; a promise read is four
 * thread-pool round trips). With `memo`, every folder walked records the answer, so the other
 * entries of a batch under the same folders cost a map lookup; a tsconfig edited while a
 * batch runs is seen by the next batch.
 */
export function findTsconfig(
  file: string,
  hashContent: (text: string) => string,
  memo: TsconfigMemo = new Map(),
): TsconfigSnapshot | null {
  const walked: string[] = [];
  let directory = dirname(file);
  let found: TsconfigSnapshot | null | undefined;
  while (found === undefined) {
    found = memo.get(directory);
    if (found !== undefined) break;
    walked.push(directory);
    const candidate = join(directory, "tsconfig.json");
    const text = existsSync(candidate) ? readText(candidate) : undefined;
    if (text !== undefined) {
      const chain = [text, ...readExtendsChain(candidate, text)];
      found = { path: candidate, hash: hashContent(chain.join("\0")) };
      break;
    }
    const parent = dirname(directory);
    if (parent === directory) found = null;
    directory = parent;
  }
  for (const folder of walked) memo.set(folder, found);
  return found;
}

function readExtendsChain(path: string, text: string, depth = 0): string[] {
  if (depth >= MAX_EXTENDS_DEPTH) return [];
  const texts: string[] = [];
  for (const target of extendsOf(text)) {
    const basePath = resolveExtends(target, dirname(path));
    const baseText = basePath === undefined ? undefined : readText(basePath);
    // A base that cannot be found still counts: its name is part of the key.
    texts.push(baseText ?? `missing:${target}`);
    if (basePath !== undefined && baseText !== undefined) {
      texts.push(...readExtendsChain(basePath, baseText, depth + 1));
    }
  }
  return texts;
}

function extendsOf(text: string): string[] {
  try {
    const config = JSON.parse(stripJsonComments(text)) as { extends?: unknown };
    const value = config.extends;
    if (typeof value === "string") return [value];
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    return []; // esbuild reports an unreadable tsconfig itself; its text is still hashed
  }
}

function resolveExtends(target: string, from: string): string | undefined {
  if (target.startsWith(".") || target.startsWith("/")) {
    const path = resolve(from, target);
    return path.endsWith(".json") ? path : `${path}.json`;
  }
  try {
    return createRequire(join(from, "tsconfig.json")).resolve(target);
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Removes `//` and `/* *\/` comments outside strings, and trailing commas (tsconfig is JSONC). */
export function stripJsonComments(text: string): string {
  let output = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      output += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === "/" && text[index + 1] === "/") {
      while (index < text.length && text[index] !== "\n") index += 1;
    } else if (char === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end === -1 ? text.length : end + 2;
    } else {
      output += char;
      index += 1;
    }
  }
  return output.replace(/,(\s*[}\]])/g, "$1");
}
