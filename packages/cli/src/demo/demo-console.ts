import type { PendingActionRecord, Session } from "@tooldock/runtime";
import type { AgentToolResult } from "@tooldock/sdk";
import { formatPendingStack, formatToolChoice } from "../output/format-pending.js";
import { formatResult } from "../output/format-result.js";
import type { Output } from "../output/output.js";
import { listFiles } from "./demo-workspace.js";

/** The demo's narration: numbered steps, tool calls with their results, the stack, the files. */
export class DemoConsole {
  readonly #output: Output;
  #calls = 0;
  #failures = 0;
  readonly #reminders: string[] = [];

  constructor(output: Output) {
    this.#output = output;
  }

  /** Error results that a step did not expect. */
  get failures(): number {
    return this.#failures;
  }

  /** Shows the reminders a session emits (what a host injects into the conversation). */
  watch(session: Session): () => void {
    return session.subscribe((event) => {
      if (event.type === "reminder") this.#reminders.push(event.text);
    });
  }

  step(title: string): void {
    const { colors } = this.#output;
    this.#output.print("", colors.bold(colors.cyan(`▶ ${title}`)));
  }

  say(...lines: string[]): void {
    this.#output.print(...lines.map((line) => (line === "" ? "" : `  ${line}`)));
  }

  /** Runs one call through the session like a host would, prints it, and counts surprises. */
  async call(session: Session, name: string, params: unknown, expectError = false): Promise<AgentToolResult> {
    const { colors } = this.#output;
    this.#calls += 1;
    this.say(colors.dim(`model → ${name} ${JSON.stringify(params)}`));
    const result = await session.execute({ toolCallId: `demo-${this.#calls}`, name, params });
    this.#output.print(...formatResult(name, result, colors).map((line) => `  ${line}`));
    for (const text of this.#reminders.splice(0)) this.say(colors.dim(`reminder for the model: ${text}`));
    if (result.isError === true && !expectError) this.#failures += 1;
    if (result.isError !== true && expectError) this.#failures += 1;
    return result;
  }

  pending(records: readonly PendingActionRecord[]): void {
    this.#output.print(...formatPendingStack(records, this.#output.colors).map((line) => `  ${line}`));
  }

  steering(session: Session): void {
    const { colors } = this.#output;
    const active = session.activeTools().map((tool) => tool.name);
    this.say(
      formatToolChoice(session.toolChoice(), colors),
      `${colors.bold("Offered to the model:")} ${active.join(", ")}`,
    );
  }

  async files(directory: string): Promise<void> {
    const { colors } = this.#output;
    this.say(`${colors.bold("Files:")} ${(await listFiles(directory)).join("  ")}`);
  }
}
