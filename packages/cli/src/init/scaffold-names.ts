/** Names a scaffold derives from its folder: the npm package, the tool and its file. */
export interface ScaffoldNames {
  packageName: string;
  toolName: string;
  /** kebab-case file stem of the tool module and its test. */
  fileStem: string;
  /** Human title, e.g. `Word count`. */
  label: string;
}

const words = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());

/**
 * Derives the names from the folder name (`my-tools` → package `my-tools`, tool `my_tools`),
 * or from `toolName` when given.
 */
export function scaffoldNames(folderName: string, toolName?: string): ScaffoldNames {
  const folderWords = words(folderName);
  const toolWords = toolName ? words(toolName) : folderWords;
  const tool = toolWords.join("_").replace(/^[0-9]+_?/, "") || "my_tool";
  const packageName = folderWords.join("-").replace(/^[._]+/, "") || "my-tooldock-tools";
  const label = tool.replace(/_/g, " ");
  return {
    packageName,
    toolName: tool,
    fileStem: tool.replace(/_/g, "-"),
    label: label.charAt(0).toUpperCase() + label.slice(1),
  };
}
