import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Session, toOpenAIRequest } from "@tooldock/runtime";
import type { DemoConsole } from "./demo-console.js";

const resolveParams = (action: "apply" | "discard", reason: string) => ({ action, reason });

/** Step: preview renames, show the stack and the steering, show a blocked call, apply. */
export async function renameStep(demo: DemoConsole, session: Session, cwd: string): Promise<void> {
  demo.step("batch_rename_preview: preview, steer to resolve, apply");
  await demo.files(cwd);
  await demo.call(session, "batch_rename_preview", {
    files: ["draft-intro.md", "draft-usage.md", "notes.txt"],
    find: "draft-",
    replace: "",
    regex: false,
  });
  demo.pending(session.pending.list());
  demo.steering(session);
  demo.say(`OpenAI request: tool_choice = ${JSON.stringify(toOpenAIRequest(session).tool_choice)}`);
  await demo.files(cwd);
  demo.say("While an action is pending, other tools are refused:");
  await demo.call(session, "note_list", {}, true);
  // A failed apply keeps the action: nothing is lost, the same action applies later.
  await writeFile(join(cwd, "intro.md"), "in the way\n");
  demo.say(
    "Someone created intro.md meanwhile: the apply fails, changes nothing, and the action stays pending:",
  );
  await demo.call(session, "resolve", resolveParams("apply", "The names look right."), true);
  demo.pending(session.pending.list());
  await rm(join(cwd, "intro.md"));
  demo.say("With intro.md out of the way, the same action applies:");
  await demo.call(session, "resolve", resolveParams("apply", "The names look right."));
  await demo.files(cwd);
  demo.steering(session);
}

/** Step: `ast_edit` previews a structural rewrite, which is then discarded. */
export async function astEditStep(demo: DemoConsole, session: Session, cwd: string): Promise<void> {
  demo.step("ast_edit: preview a structural rewrite, then discard it");
  await demo.call(session, "ast_edit", {
    ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }],
    path: "src",
  });
  demo.pending(session.pending.list());
  await demo.call(session, "resolve", resolveParams("discard", "Keep console.log in this file for now."));
  const source = await readFile(join(cwd, "src/log.ts"), "utf8");
  demo.say(`src/log.ts still uses console.log: ${source.includes("console.log") ? "yes" : "no"}`);
}

/** Step: two actions on the stack (pendingPolicy "allow"), resolved last-in first-out. */
export async function stackStep(demo: DemoConsole, session: Session, cwd: string): Promise<void> {
  demo.step('Two pending actions (pendingPolicy: "allow"), resolved in LIFO order');
  await demo.call(session, "batch_rename_preview", {
    files: ["intro.md"],
    find: "intro",
    replace: "introduction",
    regex: false,
  });
  await demo.call(session, "ast_edit", {
    ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }],
    path: "src",
  });
  demo.pending(session.pending.list());
  demo.say("resolve #1 takes the top (the last one pushed):");
  await demo.call(session, "resolve", resolveParams("apply", "Use the logger."));
  demo.say("resolve #2 takes the next one:");
  await demo.call(session, "resolve", resolveParams("discard", "intro.md is fine as it is."));
  demo.pending(session.pending.list());
  const source = await readFile(join(cwd, "src/log.ts"), "utf8");
  demo.say(`src/log.ts now uses logger.info: ${source.includes("logger.info") ? "yes" : "no"}`);
  await demo.files(cwd);
}
