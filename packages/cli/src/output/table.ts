/** One column of a {@link formatTable} table. */
export interface TableColumn<Row> {
  header: string;
  value(row: Row): string;
  /** Wraps the padded cell (for colour); the width is measured before styling. */
  style?(text: string, row: Row): string;
  /** Cut longer cells to this many characters, ending with `…`. */
  maxWidth?: number;
}

/** Terminal width of a string: counts code points, ignores ANSI colour codes. */
export function displayWidth(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes
  return [...text.replace(/\u001b\[[0-9;]*m/g, "")].length;
}

function truncate(text: string, maxWidth: number | undefined): string {
  if (maxWidth === undefined || displayWidth(text) <= maxWidth) return text;
  return `${[...text].slice(0, Math.max(0, maxWidth - 1)).join("")}…`;
}

/**
 * Lays rows out in aligned columns separated by two spaces; the header row is underlined by
 * the caller's style. Trailing spaces are trimmed from every line.
 */
export function formatTable<Row>(
  rows: readonly Row[],
  columns: ReadonlyArray<TableColumn<Row>>,
  headerStyle: (text: string) => string = (text) => text,
): string[] {
  const cells = rows.map((row) => columns.map((column) => truncate(column.value(row), column.maxWidth)));
  const widths = columns.map((column, index) =>
    Math.max(displayWidth(column.header), ...cells.map((line) => displayWidth(line[index] ?? ""))),
  );
  const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - displayWidth(text)));
  const header = columns.map((column, index) => pad(column.header, widths[index] ?? 0)).join("  ");
  const body = cells.map((line, rowIndex) =>
    line
      .map((cell, index) => {
        const padded = pad(cell, widths[index] ?? 0);
        const style = columns[index]?.style;
        const row = rows[rowIndex] as Row;
        return style ? style(padded, row) : padded;
      })
      .join("  ")
      .trimEnd(),
  );
  return [headerStyle(header.trimEnd()), ...body];
}
