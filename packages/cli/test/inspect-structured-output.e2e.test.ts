// `tooldock inspect` and structured output: a tool's outputSchema is listed with its
// parameters, and a result's structuredContent is shown on the page (a tool that returns only
// structuredContent used to show "(no content)"). The server's side is checked without a browser.
import { describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, tempDir } from "./cli-process.js";
import { browserForTests, openInspectPage } from "./inspect-browser.js";
import { inspectWorkspace, postJson, startTestServer } from "./inspect-server-fixture.js";

const WEATHER_TOOL = `
export default (pi) => {
  const { Type } = pi.typebox;
  return [{
    name: "weather",
    label: "Weather",
    description: "The weather in a city, as data.",
    parameters: Type.Object({ city: Type.String() }),
    outputSchema: Type.Object({
      city: Type.String(),
      celsius: Type.Number({ description: "Degrees Celsius" }),
    }),
    async execute(_id, params) {
      return { content: [], structuredContent: { city: params.city, celsius: 4 } };
    },
  }];
};
`;

const browserSetup = browserForTests();

describe("tooldock inspect and structured output", () => {
  it("lists the outputSchema and answers a call with the structuredContent", async () => {
    const root = await inspectWorkspace({ tools: { "weather.js": WEATHER_TOOL } });
    const server = await startTestServer(root);
    const weather = server.controller.state().tools.find((tool) => tool.name === "weather");
    expect(weather?.outputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, celsius: { type: "number" } },
    });
    expect(server.controller.state().tools.find((tool) => tool.name === "echo")).not.toHaveProperty(
      "outputSchema",
    );
    const answer = await postJson(server, "/api/call", {
      callId: "w1",
      tool: "weather",
      params: { city: "Oslo" },
    });
    expect(answer.json).toEqual({ result: { content: [], structuredContent: { city: "Oslo", celsius: 4 } } });
  });

  it.skipIf(browserSetup.skipReason !== undefined)(
    "shows the output schema and the structuredContent on the page",
    async () => {
      assertBuilt();
      const folder = await tempDir({ "tools/weather.js": WEATHER_TOOL });
      onTestFinished(folder.remove);
      const { page, server } = await openInspectPage(folder.path, {
        executablePath: browserSetup.executablePath,
      });
      await page.goto(server.url);
      await page.getByRole("button", { name: /^weather/ }).click();
      const output = page.locator("details", { hasText: "Output schema (structuredContent)" });
      await output.locator("summary").click();
      await output.getByText("Degrees Celsius").waitFor();
      await page.locator('[data-field="/city"] input').fill("Oslo");
      await page.getByRole("button", { name: "Call weather" }).click();
      const structured = page.getByTestId("result").getByTestId("structured-content");
      await structured.waitFor();
      expect(JSON.parse((await structured.locator("pre").textContent()) ?? "")).toEqual({
        city: "Oslo",
        celsius: 4,
      });
      expect(await page.getByTestId("result").getByText("(no content)").count()).toBe(0);
    },
  );
});
