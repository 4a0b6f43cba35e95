import { isAbsolute, relative } from "node:path";

/** Whether `path` is `root` or lies below it. */
export function isInside(path: string, root: string): boolean {
  const rest = relative(root, path);
  return rest === "" || (!rest.startsWith("..") && !isAbsolute(rest));
}
