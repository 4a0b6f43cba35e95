/**
 * A small glob matcher for the `glob` parameter (Node 20 has no `path.matchesGlob`).
 *
 * Supports `*` (any characters but `/`), `**` (any directories, including none), `?`,
 * `[abc]` / `[!abc]` classes and `{a,b}` alternatives. A glob without `/` matches the file's
 * base name (`*.ts` matches `src/deep/a.ts`); otherwise it matches the whole path relative to
 * `cwd`, written with `/`.
 */
export function createGlobMatcher(glob: string): (relativePath: string) => boolean {
  const pattern = glob.trim().replace(/^\.\//, "");
  const matchBaseName = !pattern.includes("/");
  const expression = new RegExp(`^${globToRegExpSource(pattern)}$`);
  return (relativePath) => {
    const normalised = relativePath.split("\\").join("/");
    const subject = matchBaseName ? normalised.slice(normalised.lastIndexOf("/") + 1) : normalised;
    return expression.test(subject);
  };
}

function globToRegExpSource(glob: string): string {
  let source = "";
  let braceDepth = 0;
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] as string;
    if (character === "*") {
      if (glob[index + 1] === "*") {
        const atSegmentStart = index === 0 || glob[index - 1] === "/";
        const followedBySlash = glob[index + 2] === "/";
        index++;
        if (atSegmentStart && followedBySlash) {
          index++;
          source += "(?:[^/]*/)*";
        } else {
          source += ".*";
        }
      } else {
        source += "[^/]*";
      }
    } else if (character === "?") {
      source += "[^/]";
    } else if (character === "[") {
      const end = glob.indexOf("]", index + 2);
      if (end === -1) {
        source += "\\[";
      } else {
        const body = glob
          .slice(index + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        source += `[${body}]`;
        index = end;
      }
    } else if (character === "{") {
      braceDepth++;
      source += "(?:";
    } else if (character === "}" && braceDepth > 0) {
      braceDepth--;
      source += ")";
    } else if (character === "," && braceDepth > 0) {
      source += "|";
    } else {
      source += character.replace(/[.+^$()|\\{}\]]/g, "\\$&");
    }
  }
  return source + ")".repeat(braceDepth);
}
