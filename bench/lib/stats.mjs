// Small statistics and formatting helpers shared by the benchmarks.

/** @param {number[]} values @returns {number} */
export function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** @param {number} value @param {number} [digits] */
export function fixed(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** @param {number} value */
export function ratio(value) {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "–";
}

/**
 * A GitHub-flavoured Markdown table.
 * @param {string[]} header
 * @param {Array<Array<string | number>>} rows
 */
export function markdownTable(header, rows) {
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  return lines.join("\n");
}
