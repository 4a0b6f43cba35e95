/** Directories a directory walk (of `ast_edit` or of its recovery) never enters. */
export const SKIPPED_DIRECTORIES: readonly string[] = ["node_modules", ".git", ".hg", ".svn"];
