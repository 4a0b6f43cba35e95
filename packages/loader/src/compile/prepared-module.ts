/**
 * Evaluates one compiled entry: its module namespace (or what stands for it), returned at once
 * when nothing in it waits (a member of an imported pack), else a promise of it.
 */
export type Evaluate = () => unknown;

/** A compiled entry, ready to evaluate. */
export interface PreparedModule {
  readonly evaluate: Evaluate;
}

/** `prepared`, with what its evaluation throws or rejects with handed to `onError`, whose result is its. */
export function catchingEvaluation(
  prepared: PreparedModule,
  onError: (error: unknown) => unknown,
): PreparedModule {
  return preparedModule(() => {
    let evaluation: unknown;
    try {
      evaluation = prepared.evaluate();
    } catch (error) {
      return onError(error);
    }
    return evaluation instanceof Promise ? evaluation.catch(onError) : evaluation;
  });
}

export function preparedModule(evaluate: Evaluate): PreparedModule {
  return { evaluate };
}
