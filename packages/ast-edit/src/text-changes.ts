/**
 * One changed span between an original text and its rewrite: `[originalStart, originalEnd)`
 * of the original became `[rewrittenStart, rewrittenEnd)` of the rewrite (UTF-16 indices).
 * Outside the spans of a list of changes, both texts are identical.
 */
export interface TextChange {
  originalStart: number;
  originalEnd: number;
  rewrittenStart: number;
  rewrittenEnd: number;
}

/** One replacement of a rewrite step: `[start, end)` of the step's input becomes `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The changes from the original to the text after one more step, given `changes` (original
 * to the step's input, sorted, not overlapping) and the step's `edits` (sorted, not
 * overlapping, in the input's indices). Spans that overlap or touch are merged, so the result
 * is sorted and not overlapping too. Linear in the number of changes and edits.
 */
export function composeChanges(changes: readonly TextChange[], edits: readonly TextEdit[]): TextChange[] {
  const composed: TextChange[] = [];
  // Input index minus original index, left of the next span (sum over earlier changes).
  let inputShift = 0;
  // Output index minus input index, left of the next span (sum over earlier edits).
  let outputShift = 0;
  let changeIndex = 0;
  let editIndex = 0;
  while (changeIndex < changes.length || editIndex < edits.length) {
    // One cluster: spans (in input indices) that overlap or touch one another.
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    let clusterInputShift = 0;
    let clusterOutputShift = 0;
    for (;;) {
      const change = changes[changeIndex];
      const edit = edits[editIndex];
      const changeStart = change?.rewrittenStart ?? Number.POSITIVE_INFINITY;
      const editStart = edit?.start ?? Number.POSITIVE_INFINITY;
      const nextStart = Math.min(changeStart, editStart);
      if (nextStart === Number.POSITIVE_INFINITY || (end !== Number.NEGATIVE_INFINITY && nextStart > end))
        break;
      if (change !== undefined && changeStart <= editStart) {
        start = Math.min(start, change.rewrittenStart);
        end = Math.max(end, change.rewrittenEnd);
        clusterInputShift +=
          change.rewrittenEnd - change.rewrittenStart - (change.originalEnd - change.originalStart);
        changeIndex++;
      } else if (edit !== undefined) {
        start = Math.min(start, edit.start);
        end = Math.max(end, edit.end);
        clusterOutputShift += edit.text.length - (edit.end - edit.start);
        editIndex++;
      }
    }
    composed.push({
      originalStart: start - inputShift,
      originalEnd: end - inputShift - clusterInputShift,
      rewrittenStart: start + outputShift,
      rewrittenEnd: end + outputShift + clusterOutputShift,
    });
    inputShift += clusterInputShift;
    outputShift += clusterOutputShift;
  }
  return composed;
}

/** `source` with `edits` (sorted, not overlapping) applied. */
export function applyEdits(source: string, edits: readonly TextEdit[]): string {
  const parts: string[] = [];
  let position = 0;
  for (const edit of edits) {
    parts.push(source.slice(position, edit.start), edit.text);
    position = edit.end;
  }
  parts.push(source.slice(position));
  return parts.join("");
}
