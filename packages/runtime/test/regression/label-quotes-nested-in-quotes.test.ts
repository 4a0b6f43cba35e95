import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import { textOf } from "../fake-context.js";

/**
 * Failure (issue 27, "messages without nested quotes"): the messages wrapped a pending action's
 * label in double quotes, and a label that holds some itself (the example batch rename's
 * `Rename 2 files: "draft-" → ""`) read as quotes nested in quotes, with no telling where the
 * label ended: `Apply failed for "Rename 2 files: "draft-" → """: …`. Such a label is now
 * set in curly quotes; a label without double quotes keeps them.
 */
const LABEL = 'Rename 2 files: "draft-" → ""';

describe("a pending action whose label holds double quotes", () => {
  it("is named in curly quotes when its apply fails and when it blocks another tool", async () => {
    const session = new Session();
    session.pending.push({
      label: LABEL,
      apply: async () => {
        throw new Error("disk full");
      },
    });
    session.register({
      name: "other",
      label: "Other",
      description: "Another tool",
      parameters: Type.Object({}),
      execute: async () => textResult("ran"),
    });
    const blocked = await session.execute({ toolCallId: "1", name: "other", params: {} });
    expect(textOf(blocked)).toContain(`the pending action “${LABEL}” is waiting`);
    const failed = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(textOf(failed)).toContain(`Apply failed for “${LABEL}”: disk full`);
  });

  it("keeps straight quotes around a label without any", async () => {
    const session = new Session();
    session.pending.push({ label: "Write a.txt", apply: async () => Promise.reject(new Error("no")) });
    const failed = await session.execute({
      toolCallId: "1",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(textOf(failed)).toContain('Apply failed for "Write a.txt": no');
  });
});
