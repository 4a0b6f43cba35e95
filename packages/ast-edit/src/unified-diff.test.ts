import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { describe, expect, it } from "vitest";
import { applyEdits, composeChanges, type TextChange, type TextEdit } from "./text-changes.js";
import { unifiedDiff } from "./unified-diff.js";

/** A small deterministic pseudo-random generator (mulberry32). */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const PIECES = ["a", "b", "\n", "\r\n", " ", "xy", "é", "😀", "\n\n"];

function randomText(next: (below: number) => number, length: number): string {
  return Array.from({ length }, () => PIECES[next(PIECES.length)]).join("");
}

function randomEdits(next: (below: number) => number, text: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let position = 0;
  while (position <= text.length && edits.length < 6) {
    const start = position + next(8);
    if (start > text.length) break;
    const end = Math.min(text.length, start + next(6));
    edits.push({ start, end, text: randomText(next, next(4)) });
    position = end + next(3);
  }
  return edits;
}

/** Rewrites `original` in `steps` random steps, tracking the changes as `rewriteSource` does. */
function randomRewrite(seed: number, steps: number) {
  const next = random(seed);
  const original = randomText(next, next(40));
  let text = original;
  let changes: TextChange[] = [];
  for (let step = 0; step < steps; step++) {
    const edits = randomEdits(next, text);
    changes = composeChanges(changes, edits);
    text = applyEdits(text, edits);
  }
  return { original, rewritten: text, changes };
}

describe("composeChanges", () => {
  it("maps every change back to the original: outside the changes both texts are equal", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const { original, rewritten, changes } = randomRewrite(seed, 1 + (seed % 4));
      let originalAt = 0;
      let rewrittenAt = 0;
      for (const change of changes) {
        expect(original.slice(originalAt, change.originalStart), `seed ${seed}`).toBe(
          rewritten.slice(rewrittenAt, change.rewrittenStart),
        );
        originalAt = change.originalEnd;
        rewrittenAt = change.rewrittenEnd;
      }
      expect(original.slice(originalAt), `seed ${seed}`).toBe(rewritten.slice(rewrittenAt));
    }
  });
});

describe("unifiedDiff", () => {
  it("gives a patch that turns the original into the rewrite", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const { original, rewritten, changes } = randomRewrite(seed, 1 + (seed % 3));
      const patch = unifiedDiff("f.ts", original, rewritten, changes);
      expect(applyPatch(original, patch), `seed ${seed}\n${patch}`).toBe(rewritten);
    }
  });

  it("matches the diff package's own diff for line-local changes", () => {
    const original = Array.from({ length: 40 }, (_, n) => `line ${n}`).join("\n");
    const edits = [5, 6, 14, 30, 39].map((line) => {
      const start = original.indexOf(`line ${line}`);
      return { start, end: start + `line ${line}`.length, text: `LINE ${line}` };
    });
    const rewritten = applyEdits(original, edits);
    const expected = createTwoFilesPatch("a/f.ts", "b/f.ts", original, rewritten, undefined, undefined, {
      context: 3,
      headerOptions: FILE_HEADERS_ONLY,
    });
    expect(unifiedDiff("f.ts", original, rewritten, composeChanges([], edits))).toBe(expected);
  });

  it("shows a multi-line replacement without the lines it left as they were", () => {
    const original = "a\nb\nc\nd\n";
    const edits = [{ start: 0, end: 6, text: "a\nB\nc\n" }];
    expect(unifiedDiff("f.ts", original, applyEdits(original, edits), composeChanges([], edits))).toBe(
      "--- a/f.ts\n+++ b/f.ts\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n",
    );
  });

  it("stays linear on one long line with many changes and on many changed lines", () => {
    const line = "f(1);".repeat(200_000);
    const edits: TextEdit[] = Array.from({ length: 200_000 }, (_, n) => ({
      start: n * 5,
      end: n * 5 + 1,
      text: "g",
    }));
    const diff = unifiedDiff("f.ts", line, applyEdits(line, edits), composeChanges([], edits));
    expect(diff.split("\n")).toHaveLength(2 + 1 + 2 + 2 + 1);

    const lines = Array.from({ length: 50_000 }, (_, n) => `f(${n});`).join("\n");
    const perLine: TextEdit[] = [];
    for (let start = 0; start < lines.length; start = lines.indexOf("\n", start) + 1 || lines.length)
      perLine.push({ start, end: start + 1, text: "g" });
    const manyDiff = unifiedDiff("f.ts", lines, applyEdits(lines, perLine), composeChanges([], perLine));
    // Both last lines lack a newline: one "\\ No newline at end of file" after each.
    expect(manyDiff.split("\n")).toHaveLength(2 + 1 + 100_000 + 2 + 1);
  });
});
