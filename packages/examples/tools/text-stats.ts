// Shows: zod (v4) parameters. `pi.zod` is the host's copy, so the schema the host validates
// against is the one written here; defaults and bounds come from zod and `params` is typed.
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { CustomToolAPI } from "@tooldock/sdk";
import { defineTool, defineToolFactory, errorResult, textResult } from "@tooldock/sdk";

/** What `text_stats` reports in `details`. */
export interface TextStats {
  path: string;
  lines: number;
  words: number;
  characters: number;
  topWords: Array<{ word: string; count: number }>;
}

/** Largest file read: a text a model asks about, not a disk image. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * The text of `path` (relative to `cwd`), or why it is not read: outside `cwd` (also through
 * a symbolic link), not a regular file (a FIFO or device would hold the read forever), or
 * too large. `O_NONBLOCK` so that even a FIFO put in place meanwhile is not waited on.
 */
async function readTextFile(cwd: string, path: string): Promise<string | { problem: string }> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const real = await realpath(resolve(cwd, path));
    const inside = relative(await realpath(cwd), real);
    if (isAbsolute(inside) || inside === ".." || inside.startsWith(`..${sep}`))
      return { problem: `${path} is outside the working directory. Give a path inside it.` };
    handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stats = await handle.stat();
    if (!stats.isFile()) return { problem: `${path} is not a regular file. Give a path to a text file.` };
    if (stats.size > MAX_BYTES)
      return {
        problem: `${path} holds ${stats.size} bytes, more than ${MAX_BYTES}. Give a smaller text file.`,
      };
    return await handle.readFile("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      problem: `Cannot read ${path} (${code ?? String(error)}). Give a path to an existing text file.`,
    };
  } finally {
    await handle?.close();
  }
}

/** Counts lines, words and characters of a text, and its most frequent words. */
export function computeTextStats(path: string, text: string, top: number, caseSensitive: boolean): TextStats {
  const words = text.match(/[\p{L}\p{N}_'-]+/gu) ?? [];
  const counts = new Map<string, number>();
  for (const word of words) {
    const key = caseSensitive ? word : word.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const topWords = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }));
  const lines = text === "" ? 0 : text.split(/\r?\n/).length - (text.endsWith("\n") ? 1 : 0);
  return { path, lines, words: words.length, characters: [...text].length, topWords };
}

export default defineToolFactory((pi: CustomToolAPI) => {
  const z = pi.zod;
  return defineTool({
    name: "text_stats",
    label: "Text statistics",
    description:
      "Count the lines, words and characters of a text file and list its most frequent words. Read-only.",
    parameters: z
      .object({
        path: z.string().min(1).describe("The file to read, relative to the working directory"),
        top: z
          .number()
          .int()
          .min(1)
          .max(50)
          .describe("How many of the most frequent words to list (1 to 50)"),
        caseSensitive: z.boolean().describe("Count `Word` and `word` separately (true) or together (false)"),
      })
      .strict(),
    async execute(_toolCallId, params, _onUpdate, ctx) {
      const text = await readTextFile(ctx.cwd, params.path);
      if (typeof text !== "string") return errorResult(text.problem);
      const stats = computeTextStats(params.path, text, params.top, params.caseSensitive);
      const top = stats.topWords.map((w) => `${w.word} (${w.count})`).join(", ");
      return textResult(
        `${params.path}: ${stats.lines} ${stats.lines === 1 ? "line" : "lines"}, ` +
          `${stats.words} ${stats.words === 1 ? "word" : "words"}, ` +
          `${stats.characters} ${stats.characters === 1 ? "character" : "characters"}.` +
          (top ? `\nMost frequent: ${top}` : ""),
        stats,
      );
    },
  });
});
