// Writes N realistic tool modules into a folder, the way third-party authors write them:
// one folder per tool (discovered through its `index.ts`) with a sibling helper file.
// Each tool uses `import type`, an enum, an interface, a class, a TypeBox schema (built from
// the host's copy that `pi.typebox` hands over) and a runtime import of `./helpers.js`.
// `strippable` writes the same tools as Node's own type stripping takes them: each enum a
// `const` object with a type of its values, and `./helpers.ts` imported by its own name.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** @param {number} index */
export function toolId(index) {
  return `tool-${String(index).padStart(3, "0")}`;
}

/** @param {number} index */
export function toolName(index) {
  return `bench_tool_${String(index).padStart(3, "0")}`;
}

/** @param {number} index */
function helperSource(index) {
  return `// Helpers of ${toolId(index)}: runtime code shared by the tool's entry.
import type { AgentToolResult } from "@tooldock/sdk";

export enum Severity {
  Info = "info",
  Warning = "warning",
  Error = "error",
}

export interface FormatOptions {
  readonly prefix: string;
  readonly width: number;
  readonly severity?: Severity;
}

export interface Tally {
  count: number;
  sum: number;
  mean: number;
  min: number;
  max: number;
}

export class Formatter {
  readonly #options: FormatOptions;
  #lines = 0;

  constructor(options: FormatOptions) {
    this.#options = options;
  }

  get lines(): number {
    return this.#lines;
  }

  line(text: string, severity: Severity = this.#options.severity ?? Severity.Info): string {
    this.#lines += 1;
    const head = \`\${this.#options.prefix}[\${severity}] \`;
    const room = Math.max(8, this.#options.width - head.length);
    return head + (text.length > room ? \`\${text.slice(0, room - 1)}…\` : text);
  }

  table(rows: ReadonlyArray<readonly [string, number]>): string {
    const widest = rows.reduce((width, [key]) => Math.max(width, key.length), 0);
    return rows.map(([key, value]) => this.line(\`\${key.padEnd(widest)}  \${value.toFixed(3)}\`)).join("\\n");
  }
}

export function tally(values: readonly number[]): Tally {
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    sum += value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const count = values.length;
  return { count, sum, mean: count === 0 ? 0 : sum / count, min: count ? min : 0, max: count ? max : 0 };
}

export function toResult(text: string, details: Tally, isError = false): AgentToolResult<Tally> {
  return { content: [{ type: "text", text }], details, ...(isError ? { isError: true } : {}) };
}

export const HELPER_SEED = ${index * 7919};
`;
}

/** @param {number} index */
function toolSource(index) {
  const id = toolId(index);
  const name = toolName(index);
  const className = `Tool${String(index).padStart(3, "0")}Runner`;
  return `// ${id}: a generated benchmark tool (see bench/load/generate.mjs).
import type { Static } from "@sinclair/typebox";
import type { AgentToolResult, CustomToolAPI, CustomToolContext, CustomToolFactory } from "@tooldock/sdk";
import { Formatter, HELPER_SEED, Severity, type Tally, tally, toResult } from "./helpers.js";

enum Mode {
  Sum = "sum",
  Mean = "mean",
  Range = "range",
}

interface RunnerOptions {
  readonly label: string;
  readonly seed: number;
  readonly formatter: Formatter;
}

class ${className} {
  readonly #options: RunnerOptions;
  #calls = 0;

  constructor(options: RunnerOptions) {
    this.#options = options;
  }

  run(values: readonly number[], mode: Mode, ctx: CustomToolContext): AgentToolResult<Tally> {
    this.#calls += 1;
    const summary = tally(values);
    const figure =
      mode === Mode.Sum ? summary.sum : mode === Mode.Mean ? summary.mean : summary.max - summary.min;
    const text = this.#options.formatter.table([
      [\`\${this.#options.label} \${mode}\`, figure],
      ["calls", this.#calls],
    ]);
    return toResult(\`\${text}\\n\${ctx.sessionId}\`, summary, summary.count === 0);
  }
}

const factory: CustomToolFactory = (pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  const parameters = Type.Object(
    {
      values: Type.Array(Type.Number(), { minItems: 1, maxItems: 1000, description: "Numbers to reduce" }),
      mode: Type.Optional(
        Type.Union([Type.Literal(Mode.Sum), Type.Literal(Mode.Mean), Type.Literal(Mode.Range)], {
          description: "How to reduce the numbers (default sum)",
        }),
      ),
      label: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    },
    { additionalProperties: false },
  );
  type Params = Static<typeof parameters>;
  const runner = new ${className}({
    label: "${id}",
    seed: HELPER_SEED,
    formatter: new Formatter({ prefix: "${id} ", width: 72, severity: Severity.Info }),
  });
  return {
    name: "${name}",
    label: "Bench tool ${index}",
    description: "Reduces a list of numbers (sum, mean or range). Generated for the load benchmark, module ${index}.",
    parameters,
    async execute(_toolCallId: string, params: Params, _onUpdate, ctx) {
      return runner.run(params.values, (params.mode as Mode | undefined) ?? Mode.Sum, ctx);
    },
  };
};

export default factory;
`;
}

/**
 * A generated source as Node's type stripping takes it (see the file's comment): the
 * generator's enums hold string members only, so each becomes an object literal `as const`.
 * @param {string} source
 */
function strippable(source) {
  return source
    .replace(/(export )?enum (\w+) \{([^}]*)\}/g, (_enum, exported = "", name, body) => {
      const members = body
        .split(",")
        .map((/** @type {string} */ member) => member.trim().replace(/^(\w+) = /, "$1: "))
        .filter(Boolean);
      return `${exported}const ${name} = { ${members.join(", ")} } as const;\n${exported}type ${name} = (typeof ${name})[keyof typeof ${name}];`;
    })
    .replace('from "./helpers.js"', 'from "./helpers.ts"');
}

/**
 * Writes \`count\` tools under \`<root>/tools/<tool-id>/{index,helpers}.ts\`.
 * @param {string} root
 * @param {number} count
 * @param {{ strippable?: boolean }} [options]
 * @returns {Promise<{ toolsDir: string; entries: string[]; sources: string[] }>}
 */
export async function generateTools(root, count, options = {}) {
  const write = (/** @type {string} */ file, /** @type {string} */ source) =>
    writeFile(file, options.strippable ? strippable(source) : source);
  const toolsDir = join(root, "tools");
  await mkdir(toolsDir, { recursive: true });
  // The authors' package: ESM, like every package of the workspace.
  await writeFile(
    join(root, "package.json"),
    `${JSON.stringify({ name: "bench-tools", private: true, type: "module" }, null, 2)}\n`,
  );
  const entries = [];
  const sources = [];
  for (let index = 0; index < count; index += 1) {
    const dir = join(toolsDir, toolId(index));
    await mkdir(dir, { recursive: true });
    const entry = join(dir, "index.ts");
    const helper = join(dir, "helpers.ts");
    await write(entry, toolSource(index));
    await write(helper, helperSource(index));
    entries.push(entry);
    sources.push(entry, helper);
  }
  return { toolsDir, entries, sources };
}
