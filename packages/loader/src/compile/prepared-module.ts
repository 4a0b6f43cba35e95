/** Evaluates one compiled entry and resolves to its module namespace (or what stands for it). */
export type Evaluate = () => Promise<unknown>;

/** A compiled entry, ready to evaluate. */
export interface PreparedModule {
  readonly evaluate: Evaluate;
}

/** The {@link PreparedModule} of `evaluate`. */
export function preparedModule(evaluate: Evaluate): PreparedModule {
  return { evaluate };
}
