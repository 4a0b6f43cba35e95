/** What a corpus case's expected.json declares. */
export interface CorpusExpectation {
  /** The one diagnostic the case's module must produce. */
  code: `E_${string}` | `W_${string}`;
  severity: "error" | "warning";
  note: string;
  /** Tools of the case that still load (valid siblings, tampering cases). Default: none. */
  keptTools?: string[];
  /** The file the diagnostic is about, relative to the case folder, when not the only module. */
  module?: string;
  /** Steps applied to the prepared copy (generated files, symlinks, permissions). */
  setup?: Array<{ kind: string; [field: string]: unknown }>;
  /** The case needs the loader's in-process file-system seam (`remove-during-scan`). */
  inProcessOnly?: boolean;
}

export interface CorpusCase {
  id: string;
  expected: CorpusExpectation;
}

export interface PreparedCorpusCase extends CorpusCase {
  /** The case folder in the prepared copy. */
  dir: string;
  /** Why the case cannot be meaningful in this process (e.g. chmod 000 as root). */
  skipped?: string;
  /** The folder a test must delete right after discovery has listed it. */
  removeDuringScan?: string;
}

export interface PreparedCorpus {
  root: string;
  outside: string;
  cases: PreparedCorpusCase[];
  cleanup(): Promise<void>;
}

export const corpusDir: string;
export function readCorpusCases(): Promise<CorpusCase[]>;
export function prepareCorpus(target: string): Promise<PreparedCorpus>;
