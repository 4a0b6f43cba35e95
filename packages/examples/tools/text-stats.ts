// Shows: zod (v4) parameters. `pi.zod` is the host's copy, so the schema the host validates
// against is the one written here; defaults and bounds come from zod and `params` is typed.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
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
      let text: string;
      try {
        text = await readFile(resolve(ctx.cwd, params.path), "utf8");
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return errorResult(
          `Cannot read ${params.path} (${code ?? String(error)}). Give a path to an existing text file.`,
        );
      }
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
