import { isAbsolute, relative, sep } from "node:path";

/** True when `candidate` is `folder` itself or inside it (both absolute and resolved). */
export function isInsideFolder(folder: string, candidate: string): boolean {
  const path = relative(folder, candidate);
  return path === "" || (!path.startsWith(`..${sep}`) && path !== ".." && !isAbsolute(path));
}
