import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi's extension docs say
// a tool MUST truncate its output, with the helpers `@mariozechner/pi-coding-agent` exports
// (`truncateHead`, `truncateTail`, `truncateLine`, `formatSize`, `DEFAULT_MAX_BYTES`,
// `DEFAULT_MAX_LINES`, `GREP_MAX_LINE_LENGTH`). Tooldock's stand-in had none of them: such an
// extension loaded with W_HOST_EXPORT_MISSING and its tool threw "truncateHead is not a
// function" at every call.
const MODULE = `
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  GREP_MAX_LINE_LENGTH,
  formatSize,
  truncateHead,
  truncateLine,
  truncateTail,
} from "@mariozechner/pi-coding-agent";
import { Type } from "@sinclair/typebox";

const shown = (result) =>
  [result.content.split("\\n").join(","), result.truncated, result.truncatedBy, result.outputLines + "/" + result.totalLines,
   result.outputBytes + "/" + result.totalBytes, result.lastLinePartial, result.firstLineExceedsLimit,
   result.maxLines, result.maxBytes].join(" ");

export default function (pi) {
  pi.registerTool({
    name: "log_view",
    label: "Log view",
    description: "Shows part of a log, truncated as pi's tools truncate",
    parameters: Type.Object({ case: Type.String() }),
    async execute(_toolCallId, params) {
      const log = ["line 1", "line 2", "line 3", "line 4", "line 5"].join("\\n");
      const cases = {
        whole: () => shown(truncateHead(log)),
        head: () => shown(truncateHead(log, { maxLines: 3 })),
        headBytes: () => shown(truncateHead(log, { maxBytes: 16 })),
        firstTooLong: () => shown(truncateHead("abcdef\\nx", { maxBytes: 3 })),
        tail: () => shown(truncateTail(log, { maxBytes: 14 })),
        tailLines: () => shown(truncateTail(log, { maxLines: 2 })),
        lastTooLong: () => shown(truncateTail("ab\\nééé", { maxBytes: 3 })),
        line: () => [truncateLine("short").text, truncateLine("x".repeat(600)).text.length, truncateLine("abcdef", 3).text].join(" "),
        sizes: () => [formatSize(1023), formatSize(1536), formatSize(3 * 1024 * 1024), DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, GREP_MAX_LINE_LENGTH].join(" "),
      };
      return { content: [{ type: "text", text: cases[params.case]() }], details: {} };
    },
  });
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension that truncates its output with pi's helpers (isolation %s)",
  (isolation) => {
    it("loads and truncates as pi does", async () => {
      const where = await project({ "log-view.ts": MODULE });
      const { session, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      const view = async (name: string) =>
        text(await session.execute({ toolCallId: name, name: "log_view", params: { case: name } }));
      expect(await view("whole")).toBe(
        "line 1,line 2,line 3,line 4,line 5 false  5/5 34/34 false false 2000 51200",
      );
      expect(await view("head")).toBe("line 1,line 2,line 3 true lines 3/5 20/34 false false 3 51200");
      expect(await view("headBytes")).toBe("line 1,line 2 true bytes 2/5 13/34 false false 2000 16");
      expect(await view("firstTooLong")).toBe(" true bytes 0/2 0/8 false true 2000 3");
      expect(await view("tail")).toBe("line 4,line 5 true bytes 2/5 13/34 false false 2000 14");
      expect(await view("tailLines")).toBe("line 4,line 5 true lines 2/5 13/34 false false 2 51200");
      expect(await view("lastTooLong")).toBe("é true bytes 1/2 2/9 true false 2000 3");
      expect(await view("line")).toBe("short 515 abc... [truncated]");
      expect(await view("sizes")).toBe("1023B 1.5KB 3.0MB 51200 2000 500");
    });
  },
);
