/**
 * `text` in double quotes for a message, or in curly quotes when it holds a double quote itself,
 * so that a reader sees where a label such as `Rename 2 files: "draft-" → ""` ends instead of
 * quotes nested in quotes.
 *
 * @example
 * quoted("Write a.txt"); // "\"Write a.txt\""
 * quoted('Rename 2 files: "a" → "b"'); // "“Rename 2 files: \"a\" → \"b\"”"
 */
export function quoted(text: string): string {
  return text.includes('"') ? `“${text}”` : `"${text}"`;
}
