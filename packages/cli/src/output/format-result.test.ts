import { describe, expect, it } from "vitest";
import { createColors } from "./colors.js";
import { formatResultContent } from "./format-result.js";

const plain = createColors(false);

describe("formatResultContent", () => {
  it("prints each content type: text as it is, the others as one line, a text resource with its text", () => {
    const lines = formatResultContent(
      {
        content: [
          { type: "text", text: "Attached:" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
          { type: "resource_link", uri: "file:///q3.md", name: "q3.md", mimeType: "text/markdown" },
          {
            type: "resource",
            resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha\nbeta" },
          },
          { type: "resource", resource: { uri: "file:///b.bin", blob: "AA==" } },
        ],
      },
      plain,
    );
    expect(lines).toEqual([
      "  Attached:",
      "  [image image/png, 12 base64 chars]",
      "  [audio audio/wav, 8 base64 chars]",
      "  [resource link q3.md: file:///q3.md (text/markdown)]",
      "  [resource file:///a.txt (text/plain), 10 characters]",
      "  alpha",
      "  beta",
      "  [resource file:///b.bin, 4 base64 chars]",
    ]);
  });

  it("escapes control sequences a tool put in a link's name", () => {
    const [line] = formatResultContent(
      { content: [{ type: "resource_link", uri: "file:///x", name: "\u001b[31mred" }] },
      plain,
    );
    expect(line).not.toContain("\u001b");
  });
});
