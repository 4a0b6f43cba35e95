import { describe, expect, it } from "vitest";
import { toAISDKModelOutput } from "./to-model-output.js";

const PNG = "iVBORw0KGgo=";

describe("toAISDKModelOutput", () => {
  it("joins text blocks into a text output", () => {
    const output = {
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
      reminders: [],
    };
    expect(toAISDKModelOutput(output)).toEqual({ type: "text", value: "one\ntwo" });
  });

  it("appends each reminder after a blank line", () => {
    const output = { content: [{ type: "text", text: "Preview" }], reminders: ["Resolve A.", "Resolve B."] };
    expect(toAISDKModelOutput(output)).toEqual({
      type: "text",
      value: "Preview\n\nResolve A.\n\nResolve B.",
    });
  });

  it("maps images to file parts in the result's order, reminders as text parts after them", () => {
    const output = {
      content: [
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "text", text: "" },
        { type: "text", text: "caption" },
      ],
      reminders: ["Resolve A."],
    };
    expect(toAISDKModelOutput(output)).toEqual({
      type: "content",
      value: [
        { type: "file", mediaType: "image/png", data: { type: "data", data: PNG } },
        { type: "text", text: "caption" },
        { type: "text", text: "Resolve A." },
      ],
    });
  });

  it("turns isError into error-text, with a note for each image", () => {
    const output = {
      content: [
        { type: "text", text: 'Tool "shot" failed: no display.' },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      isError: true,
      reminders: ["Resolve A."],
    };
    expect(toAISDKModelOutput(output)).toEqual({
      type: "error-text",
      value:
        'Tool "shot" failed: no display.\n[image/png image left out: the AI SDK\'s error output carries text only]' +
        "\n\nResolve A.",
    });
  });

  it("reads a result without reminders (a plain AgentToolResult)", () => {
    expect(toAISDKModelOutput({ content: [{ type: "text", text: "ok" }] })).toEqual({
      type: "text",
      value: "ok",
    });
  });

  it("sends audio and resources as text: a note for audio and binary data, a text resource's text", () => {
    const output = toAISDKModelOutput({
      content: [
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "alpha" } },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      reminders: [],
    });
    expect(output).toEqual({
      type: "content",
      value: [
        { type: "text", text: "[audio/wav audio left out: Tooldock sends the AI SDK text and images only]" },
        { type: "text", text: "[resource file:///a.txt]\nalpha" },
        { type: "file", mediaType: "image/png", data: { type: "data", data: "AAAA" } },
      ],
    });
  });
});
