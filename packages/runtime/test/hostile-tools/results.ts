import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { expect } from "vitest";
import { textOf } from "../fake-context.js";
import { expectFailed, expectMalformed, faultKinds, type NamedScenario } from "./scenario.js";

function returning(name: string, value: () => unknown, problem: string): NamedScenario {
  return {
    name,
    make: () => ({
      execute: async () => value() as AgentToolResult,
      check: (result) => expectMalformed(result, problem),
    }),
  };
}

/** Tools whose return value is malformed, huge, self-referencing or booby-trapped. */
export const resultScenarios: NamedScenario[] = [
  returning("returns undefined", () => undefined, "expected an object with a content array, got undefined"),
  returning("returns a string", () => "done", "expected an object with a content array, got string"),
  returning("returns a number", () => 7, "expected an object with a content array, got number"),
  returning(
    "returns content with invalid blocks",
    () => ({
      content: [
        { type: "text", text: "fine" },
        { type: "video", url: "x" },
      ],
    }),
    "content[1] is not a valid block",
  ),
  returning(
    "returns a result whose content getter throws",
    () => ({
      get content(): never {
        throw new Error("content is booby-trapped");
      },
    }),
    "reading it threw (content is booby-trapped)",
  ),
  {
    // Resolving a promise with it reads its `then`, so the trap fires there: a throw, as with await.
    name: "returns a Proxy whose get trap throws: counted as a throw",
    make: () => ({
      execute: async () =>
        new Proxy({} as AgentToolResult, {
          get: () => {
            throw new Error("no reading");
          },
        }),
      check: (result) => expectFailed(result, "no reading"),
    }),
  },
  {
    name: "returns a circular object: content kept, the circular details dropped",
    make: () => ({
      execute: async () => {
        const result: AgentToolResult & { self?: unknown } = textResult("looped");
        result.self = result;
        result.details = result;
        return result;
      },
      check: (result, world) => {
        expect(result).toEqual(textResult("looped"));
        expect(Object.keys(result)).toEqual(["content"]);
        expect(faultKinds(world)).toEqual(["details-dropped"]);
        expect(world.faults[0]?.error).toBeInstanceOf(TypeError);
      },
    }),
  },
  {
    name: "returns details that are not serialisable (a BigInt)",
    make: () => ({
      execute: async () => textResult("counted", { total: 10n }),
      check: (result, world) => {
        expect(result).toEqual(textResult("counted"));
        expect(faultKinds(world)).toEqual(["details-dropped"]);
      },
    }),
  },
  {
    name: "returns a details getter that throws: content kept",
    make: () => ({
      execute: async () => ({
        content: [{ type: "text" as const, text: "kept" }],
        get details(): never {
          throw new Error("details trap");
        },
      }),
      check: (result, world) => {
        expect(result).toEqual(textResult("kept"));
        expect(world.faults[0]?.error).toMatchObject({ message: "details trap" });
      },
    }),
  },
  {
    name: "returns a text getter that answers differently each time: read exactly once",
    make: () => {
      let reads = 0;
      return {
        execute: async () => ({
          content: [
            {
              type: "text" as const,
              get text(): string {
                reads++;
                return reads === 1 ? "first read" : (42 as unknown as string);
              },
            },
          ],
        }),
        check: (result) => {
          expect(result).toEqual(textResult("first read"));
          expect(textOf(result)).toBe("first read");
          expect(reads).toBe(1);
        },
      };
    },
  },
  {
    name: "returns huge content: text cut at maxResultChars with a marker",
    make: () => ({
      options: { maxResultChars: 100 },
      execute: async () => ({
        content: [
          { type: "text", text: "a".repeat(60) },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "text", text: "b".repeat(1_000_000) },
          { type: "text", text: "c".repeat(40) },
        ],
      }),
      check: (result) => {
        expect(result.content).toEqual([
          { type: "text", text: "a".repeat(60) },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "text", text: `${"b".repeat(40)}\n… [truncated 1000000 characters]` },
        ]);
      },
    }),
  },
];
