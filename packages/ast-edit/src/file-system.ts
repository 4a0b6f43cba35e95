import * as fs from "node:fs/promises";

/**
 * The file system calls `ast_edit` makes: a subset of `node:fs/promises` with the same
 * signatures, so tests (and hosts with a virtual file system) can replace single functions.
 */
export type AstEditFileSystem = Pick<
  typeof fs,
  "readdir" | "stat" | "lstat" | "realpath" | "open" | "rename" | "rm"
>;

/** `node:fs/promises`, with any functions given in `overrides` replaced. */
export function resolveFileSystem(overrides: Partial<AstEditFileSystem> = {}): AstEditFileSystem {
  return {
    readdir: overrides.readdir ?? fs.readdir,
    stat: overrides.stat ?? fs.stat,
    lstat: overrides.lstat ?? fs.lstat,
    realpath: overrides.realpath ?? fs.realpath,
    open: overrides.open ?? fs.open,
    rename: overrides.rename ?? fs.rename,
    rm: overrides.rm ?? fs.rm,
  };
}
