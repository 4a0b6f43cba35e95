/**
 * `text` as a sentence for a message that goes on after it: a full stop added unless it
 * already ends with one, a `!` or a `?` (a module's error message may or may not).
 *
 * @example
 * sentence("Cannot find module './b'"); // "Cannot find module './b'."
 * sentence("Out of memory!"); // "Out of memory!"
 */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
