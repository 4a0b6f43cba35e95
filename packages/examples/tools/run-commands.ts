// Shows: streaming progress through `onUpdate` and honouring the abort `signal`. Each command
// runs through `pi.exec` (argv, no shell) with the call's signal, so aborting the call kills
// the running process and no later command starts.
import type { AgentToolResult, CustomToolAPI, ExecResult } from "@tooldock/sdk";
import { defineTool, defineToolFactory, errorResult, textResult } from "@tooldock/sdk";

/** One finished command, as reported in `details.steps`. */
export interface CommandStep {
  command: string;
  code: number;
  killed: boolean;
  output: string;
}

const tail = (text: string, lines = 5) => text.trimEnd().split("\n").slice(-lines).join("\n");
const show = (command: string, args: string[]) => [command, ...args].join(" ");

export default defineToolFactory((pi: CustomToolAPI) => {
  const { Type } = pi.typebox;
  return defineTool({
    name: "run_commands",
    label: "Run commands",
    description:
      "Run programs one after another in the working directory (no shell) and report each exit code. " +
      "Stops at the first failure. Progress is streamed after every command.",
    parameters: Type.Object(
      {
        commands: Type.Array(
          Type.Object(
            {
              command: Type.String({ description: "The program to run, e.g. `node` or `git`" }),
              args: Type.Array(Type.String(), { description: "Its arguments, one per item" }),
            },
            { additionalProperties: false, description: "One program and its arguments" },
          ),
          { minItems: 1, maxItems: 20, description: "The commands, in the order to run them" },
        ),
        timeoutMs: Type.Integer({
          minimum: 1,
          description: "Milliseconds each command may take before it is killed",
        }),
      },
      { additionalProperties: false },
    ),
    async execute(
      _toolCallId,
      params,
      onUpdate,
      ctx,
      signal,
    ): Promise<AgentToolResult<{ steps: CommandStep[] }>> {
      const steps: CommandStep[] = [];
      const total = params.commands.length;
      for (const [index, { command, args }] of params.commands.entries()) {
        if (signal?.aborted) break;
        let result: ExecResult;
        try {
          result = await pi.exec(command, args, { cwd: ctx.cwd, signal, timeout: params.timeoutMs });
        } catch (error) {
          result = { stdout: "", stderr: (error as Error).message, code: 127, killed: false };
        }
        const step = {
          command: show(command, args),
          code: result.code,
          killed: result.killed,
          output: tail(result.stdout + result.stderr),
        };
        steps.push(step);
        const status = result.killed ? "killed" : result.code === 0 ? "ok" : `exit ${result.code}`;
        onUpdate?.(textResult(`[${index + 1}/${total}] ${status}: ${step.command}`, { steps: [...steps] }));
        if (result.code !== 0 || result.killed) break;
      }
      const summary = steps
        .map((step) => `${step.code === 0 ? "ok" : `exit ${step.code}`}  ${step.command}`)
        .join("\n");
      if (signal?.aborted) {
        return errorResult(
          `Aborted after ${steps.length} of ${total} ${total === 1 ? "command" : "commands"}; the rest did not run.\n${summary}`,
          { steps },
        );
      }
      const failed = steps.find((step) => step.code !== 0 || step.killed);
      if (failed) {
        const why = failed.killed ? `was killed after ${params.timeoutMs} ms` : `exited with ${failed.code}`;
        const later = total - steps.length;
        return errorResult(
          `\`${failed.command}\` ${why}; ${later} later ${later === 1 ? "command" : "commands"} did not run.\n${summary}\n` +
            `Last output:\n${failed.output}`,
          { steps },
        );
      }
      const succeeded = total === 1 ? "The command succeeded." : `All ${total} commands succeeded.`;
      return textResult(`${succeeded}\n${summary}`, { steps });
    },
  });
});
