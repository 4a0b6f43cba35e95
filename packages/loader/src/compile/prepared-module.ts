/**
 * Evaluates one compiled entry: its module namespace (or what stands for it), returned at once
 * when nothing in it waits (a member of an imported pack), else a promise of it.
 */
export type Evaluate = () => unknown;

/** A compiled entry, ready to evaluate. */
export interface PreparedModule {
  readonly evaluate: Evaluate;
}

/** The {@link PreparedModule} of `evaluate`. */
export function preparedModule(evaluate: Evaluate): PreparedModule {
  return { evaluate };
}
