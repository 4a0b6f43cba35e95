/** Where a snippet is, what it names, and what is wrong with it (undefined when it matches). */
export interface SnippetResult {
  where: string;
  name: string;
  problem: string | undefined;
}
export const repositoryRoot: string;
export function markdownFiles(root?: string): Promise<string[]>;
export function snippetSource(
  root: string,
  path: string,
  region: string | undefined,
): Promise<{ text: string; error?: undefined } | { error: string; text?: undefined }>;
export function checkSnippets(options?: { root?: string; write?: boolean }): Promise<SnippetResult[]>;
