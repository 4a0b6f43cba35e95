import { readFile } from "node:fs/promises";
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

/**
 * The nearest `tsconfig.json` from a file's folder up to the root, with a hash of its content
 * and of the configs it `extends` (relative paths and packages), or `null` when there is none.
 */
export async function findTsconfig(
  file: string,
  hashContent: (text: string) => string,
): Promise<TsconfigSnapshot | null> {
  let directory = dirname(file);
  for (;;) {
    const candidate = join(directory, "tsconfig.json");
    const text = await readText(candidate);
    if (text !== undefined) {
      const chain = [text, ...(await readExtendsChain(candidate, text))];
      return { path: candidate, hash: hashContent(chain.join("\0")) };
    }
    const parent = dirname(directory);
    if (parent === directory) return null;
    directory = parent;
  }
}

async function readExtendsChain(path: string, text: string, depth = 0): Promise<string[]> {
  if (depth >= MAX_EXTENDS_DEPTH) return [];
  const texts: string[] = [];
  for (const target of extendsOf(text)) {
    const basePath = resolveExtends(target, dirname(path));
    const baseText = basePath === undefined ? undefined : await readText(basePath);
    // A base that cannot be found still counts: its name is part of the key.
    texts.push(baseText ?? `missing:${target}`);
    if (basePath !== undefined && baseText !== undefined) {
      texts.push(...(await readExtendsChain(basePath, baseText, depth + 1)));
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

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
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
