import type { CustomToolAPI } from "@tooldock/sdk";
import { missing } from "tooldock-corpus-package-that-does-not-exist";

export default (pi: CustomToolAPI) => ({ ...({
  name: "compile_unresolved_import",
  label: "compile_unresolved_import",
  description: "A corpus tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "compile_unresolved_import" }] };
  },
}), description: String(missing) });
