import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// Issue 12, item 10: a Latin-1 file came back with every byte that is not UTF-8 replaced by
// U+FFFD, on lines the diff showed as unchanged, and the stale check passed (it hashed the
// bytes, then rewrote the decoded text). Files that are not valid UTF-8 are now skipped with
// a warning and keep every byte; in the files rewritten, nothing outside a replacement changes.

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("latin1-bytes");
});

afterEach(async () => {
  await workspace.remove();
});

const FOO_TO_BAR = { ops: [{ pat: "foo($A)", out: "bar($A)" }] };

describe("a file that is not UTF-8", () => {
  it("is skipped with a warning, and apply leaves every byte of it as it was", async () => {
    // "café" and "naïve" in Latin-1: 0xE9 and 0xEF are not UTF-8 on their own.
    const latin1 = Buffer.concat([
      Buffer.from('const word = "caf'),
      Buffer.from([0xe9]),
      Buffer.from('";\nfoo(1);\n// na'),
      Buffer.from([0xef]),
      Buffer.from("ve\n"),
    ]);
    const latin1Path = await workspace.write("src/latin1.ts", latin1);
    const utf8Path = await workspace.write("src/utf8.ts", "foo(2);\n");

    const { result, actions } = await previewAstEdit(workspace.cwd, FOO_TO_BAR);

    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toContain(
      "Skipped src/latin1.ts: it is not valid UTF-8 text, and ast_edit rewrites only UTF-8 files (every byte of it was left as it is).",
    );
    expect(textOf(result)).not.toContain("+++ b/src/latin1.ts");
    expect(actions[0]?.label).toBe("AST Edit: 1 replacement in 1 file");

    await actions[0]?.apply("go");
    expect(await readFile(latin1Path)).toEqual(latin1);
    expect(await readFile(utf8Path, "utf8")).toBe("bar(2);\n");
  });
});

describe("a UTF-8 file with a byte order mark and CRLF line ends", () => {
  it("gets only its replacements rewritten, byte for byte elsewhere", async () => {
    const before = "\uFEFFconst s = 'é😀';\r\nfoo(1);\r\n\r\nfunction f() {\r\n  foo(2);\r\n}\r\n";
    const path = await workspace.write("src/crlf.ts", before);

    const { actions } = await previewAstEdit(workspace.cwd, {
      ops: [{ pat: "foo($A);", out: "if (ready) {\n  bar($A);\n}" }],
    });
    await actions[0]?.apply("go");

    // The rewrite's own line breaks follow the file's (CRLF) and its indentation the match's.
    const after =
      "\uFEFFconst s = 'é😀';\r\nif (ready) {\r\n  bar(1);\r\n}\r\n\r\nfunction f() {\r\n  if (ready) {\r\n    bar(2);\r\n  }\r\n}\r\n";
    expect(await readFile(path)).toEqual(Buffer.from(after, "utf8"));
  });

  it("keeps a file without a final line break without one", async () => {
    const path = await workspace.write("src/last.ts", "\uFEFFfoo(1);\r\nfoo(2);");
    const { result, actions } = await previewAstEdit(workspace.cwd, FOO_TO_BAR);
    expect(textOf(result)).toContain(
      "-\uFEFFfoo(1);\r\n-foo(2);\n\\ No newline at end of file\n+\uFEFFbar(1);\r\n+bar(2);\n\\ No newline at end of file",
    );
    await actions[0]?.apply("go");
    expect(await readFile(path)).toEqual(Buffer.from("\uFEFFbar(1);\r\nbar(2);", "utf8"));
  });
});
