// Summarises a V8 `.cpuprofile`: self time by function and by package (or file outside packages).

/**
 * @typedef {{ id: number; callFrame: { functionName: string; url: string; lineNumber: number };
 *   hitCount?: number; children?: number[] }} ProfileNode
 */

/** @param {string} url */
function owner(url) {
  if (url === "") return "(native / V8)";
  if (url.startsWith("node:")) return "node: built-ins";
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
    url.replace(/^.*node_modules\/\.pnpm\/[^/]+\//, ""),
  );
  if (match) return match[1];
  const tooldock = /packages\/([^/]+)\/dist\//.exec(url);
  if (tooldock) return `@tooldock/${tooldock[1]}`;
  if (url.includes("/bench/")) return "bench harness";
  return "tool modules";
}

/**
 * @param {{ nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }} profile
 * @param {number} top
 */
export function summarizeProfile(profile, top) {
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const selfUs = new Map();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  /** @type {Map<string, number>} */
  const byFunction = new Map();
  /** @type {Map<string, number>} */
  const byOwner = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url
      .replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
      .replace(/^file:\/\/.*\/(packages|bench)\//, "$1/");
    const key = `${functionName || "(anonymous)"}  ${file}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const who = owner(url);
    byOwner.set(who, (byOwner.get(who) ?? 0) + us);
    total += us;
  }
  const ms = (/** @type {number} */ us) => `${(us / 1000).toFixed(1).padStart(8)} ms`;
  const rank = (/** @type {Map<string, number>} */ map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `${ms(us)}  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
      .join("\n");
  return `self time by owner (total ${ms(total).trim()}):\n${rank(byOwner)}\n\nself time by function:\n${rank(byFunction)}`;
}

// As a command: node bench/lib/profile-summary.mjs <file.cpuprofile> [top]
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, "/bench/"))) {
  const { readFile } = await import("node:fs/promises");
  const [file, top = "25"] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node bench/lib/profile-summary.mjs <file.cpuprofile> [top]");
    process.exit(2);
  }
  console.log(summarizeProfile(JSON.parse(await readFile(file, "utf8")), Number(top)));
}
