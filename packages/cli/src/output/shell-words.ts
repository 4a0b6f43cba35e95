/** Characters no POSIX shell treats specially in a word (`:` and `@` of a store URL among them). */
const PLAIN = /^[A-Za-z0-9_\-.,:/@%+=]+$/;
/** What a double-quoted word would still expand or end on. */
const SPECIAL_IN_DOUBLE_QUOTES = /["$`\\!]/;

/** One word, quoted for a POSIX shell where it needs it. */
function shellWord(word: string): string {
  if (PLAIN.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  if (!SPECIAL_IN_DOUBLE_QUOTES.test(word)) return `"${word}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Words of a command the CLI prints for the user to run, each quoted for a POSIX shell where
 * it needs it (`z z` → `'z z'`, `it's` → `"it's"`, `sqlite:/x/db` as it is): a folder or a
 * store the user named must paste back as one word.
 *
 * @example
 * ```ts
 * `cd ${shellWords("my tools")}` // cd 'my tools'
 * ```
 */
export function shellWords(...words: string[]): string {
  return words.map(shellWord).join(" ");
}
