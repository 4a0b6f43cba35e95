import type { AgentToolResult } from "@tooldock/sdk";
import { toolCallMessages } from "./tool-call-messages.js";

type Block = AgentToolResult["content"][number];

/**
 * Keeps at most `maxChars` characters (UTF-16 code units) of a result's text blocks, in
 * order. The block where the budget runs out is cut (never inside a surrogate pair) and
 * ends with `… [truncated N characters]`, N counting every character left out; the text
 * blocks after it are left out. Image blocks stay where they are. A result within the
 * budget is returned as is.
 */
export function truncateContent(result: AgentToolResult, maxChars: number): AgentToolResult {
  if (withinBudget(result.content, maxChars)) return result;
  let remaining = maxChars;
  let omitted = 0;
  let cutIndex: number | undefined;
  const content: Block[] = [];
  for (const block of result.content) {
    if (block.type !== "text") {
      content.push(block);
    } else if (cutIndex !== undefined) {
      omitted += block.text.length;
    } else if (block.text.length <= remaining) {
      remaining -= block.text.length;
      content.push(block);
    } else {
      const kept = cutBefore(block.text, remaining);
      omitted += block.text.length - kept.length;
      cutIndex = content.length;
      content.push({ type: "text", text: kept });
    }
  }
  if (cutIndex === undefined) return result;
  const cut = content[cutIndex] as { type: "text"; text: string };
  content[cutIndex] = { type: "text", text: cut.text + toolCallMessages.truncated(omitted) };
  return { ...result, content };
}

/** Whether the text blocks together hold at most `maxChars` characters: the usual case, with no copy. */
function withinBudget(content: readonly Block[], maxChars: number): boolean {
  let total = 0;
  for (let index = 0; index < content.length; index++) {
    const block = content[index] as Block;
    if (block.type === "text") total += block.text.length;
  }
  return total <= maxChars;
}

/** The first `end` code units of `text`, one fewer when that would split a surrogate pair. */
function cutBefore(text: string, end: number): string {
  const last = text.charCodeAt(end - 1);
  const splitsPair = end > 0 && last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? end - 1 : end);
}
