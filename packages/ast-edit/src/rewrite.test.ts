import { Lang } from "@ast-grep/napi";
import { describe, expect, it } from "vitest";
import { AstEditError } from "./ast-edit-error.js";
import { patternSyntaxError, rewriteSource } from "./rewrite.js";

describe("rewriteSource", () => {
  it("substitutes $NAME with the captured node", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "const a = foo(x + 1);\n", [
      { pat: "foo($A)", out: "bar($A, 2)" },
    ]);
    expect(outcome).toMatchObject({
      output: "const a = bar(x + 1, 2);\n",
      perOperation: [1],
      replacements: 1,
    });
  });

  it("substitutes $$$NAME with the captured nodes and the separators between them", async () => {
    const source = "console.log(a,  b, 'c');\nconsole.log();\n";
    const outcome = await rewriteSource(Lang.JavaScript, source, [
      { pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" },
    ]);
    expect(outcome.output).toBe("logger.info(a,  b, 'c');\nlogger.info();\n");
    expect(outcome.replacements).toBe(2);
  });

  it("keeps a $NAME the pattern did not capture as written", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "foo(1);", [{ pat: "foo($A)", out: "$B.foo($A)" }]);
    expect(outcome.output).toBe("$B.foo(1);");
  });

  it("rewrites only the outermost of nested matches", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "foo(foo(x)); foo(1);", [
      { pat: "foo($A)", out: "bar($A)" },
    ]);
    expect(outcome.output).toBe("bar(foo(x)); bar(1);");
    expect(outcome.replacements).toBe(2);
  });

  it("applies operations in order, each to the output of the previous one", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "a(1); b(2);", [
      { pat: "a($X)", out: "b($X)" },
      { pat: "b($X)", out: "c($X)" },
    ]);
    expect(outcome).toMatchObject({ output: "c(1); c(2);", perOperation: [1, 2], replacements: 3 });
  });

  it("stops at the budget, in source order", async () => {
    const outcome = await rewriteSource(
      Lang.TypeScript,
      "f(1); f(2); f(3);",
      [{ pat: "f($A)", out: "g($A)" }],
      {
        budget: 2,
      },
    );
    expect(outcome.output).toBe("g(1); g(2); f(3);");
    expect(outcome.replacements).toBe(2);
  });

  it("does not count a match whose rewrite is its own text", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "f(1);", [{ pat: "f($A)", out: "f($A)" }]);
    expect(outcome).toEqual({ output: "f(1);", perOperation: [0], replacements: 0, changes: [] });
  });

  it("indents the lines of a multi-line rewrite like the line of the match", async () => {
    const source = "function run() {\n  if (ready) {\n    start(job);\n  }\n}\n";
    const outcome = await rewriteSource(Lang.TypeScript, source, [
      { pat: "start($J);", out: "try {\n  start($J);\n} catch {}" },
    ]);
    expect(outcome.output).toBe(
      "function run() {\n  if (ready) {\n    try {\n      start(job);\n    } catch {}\n  }\n}\n",
    );
  });

  it("keeps text with characters outside the Basic Multilingual Plane intact", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "const s = '😀é'; foo(s);", [
      { pat: "foo($A)", out: "bar($A)" },
    ]);
    expect(outcome.output).toBe("const s = '😀é'; bar(s);");
  });

  it("rewrites HTML and CSS", async () => {
    expect(
      (await rewriteSource(Lang.Html, "<p>hi</p>", [{ pat: "<p>$T</p>", out: "<span>$T</span>" }])).output,
    ).toBe("<span>hi</span>");
    expect(
      (
        await rewriteSource(Lang.Css, "a { color: red; }", [
          { pat: "color: $C;", out: "color: var(--x, $C);" },
        ])
      ).output,
    ).toBe("a { color: var(--x, red); }");
  });

  it("throws E_AST_EDIT_PATTERN naming the operation for a pattern of several nodes", async () => {
    const run = () =>
      rewriteSource(Lang.TypeScript, "a; b;", [
        { pat: "a", out: "x" },
        { pat: "a; b", out: "x" },
      ]);
    await expect(run()).rejects.toThrow(AstEditError);
    await expect(run()).rejects.toThrow(
      /ops\[1\]\.pat is not a usable TypeScript pattern: Multiple AST nodes/,
    );
  });
});

describe("patternSyntaxError", () => {
  it("locates the syntax error of a pattern that cannot match", () => {
    expect(patternSyntaxError(Lang.TypeScript, "foo(($A)")).toMatch(
      /^syntax error at line 1, column \d+ near `/,
    );
  });

  it("is undefined for patterns with metavariables that parse", () => {
    expect(patternSyntaxError(Lang.TypeScript, "const $X = $Y")).toBeUndefined();
    expect(patternSyntaxError(Lang.Tsx, "<div>$$$C</div>")).toBeUndefined();
  });
});

describe("rewriteSource bounds and byte-exact output", () => {
  it("writes the line breaks of a multi-line out as the file's own (CRLF)", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "if (x) {\r\n  start(job);\r\n}\r\n", [
      { pat: "start($J);", out: "try {\n  start($J);\n} catch {}" },
    ]);
    expect(outcome.output).toBe("if (x) {\r\n  try {\r\n    start(job);\r\n  } catch {}\r\n}\r\n");
  });

  it("reports where the output differs from the source, across operations", async () => {
    const outcome = await rewriteSource(Lang.TypeScript, "a(1); keep(); b(2);", [
      { pat: "a($X)", out: "aa($X)" },
      { pat: "b($X)", out: "bbb($X)" },
    ]);
    expect(outcome.output).toBe("aa(1); keep(); bbb(2);");
    expect(outcome.changes).toEqual([
      { originalStart: 0, originalEnd: 4, rewrittenStart: 0, rewrittenEnd: 5 },
      { originalStart: 14, originalEnd: 18, rewrittenStart: 15, rewrittenEnd: 21 },
    ]);
  });

  it("throws E_AST_EDIT_LIMIT, naming the file, before building an output over maxLength", async () => {
    const run = rewriteSource(
      Lang.TypeScript,
      "foo(abcdefghij);",
      [{ pat: "foo($A)", out: "$A$A$A$A$A$A" }],
      {
        maxLength: 50,
        fileName: "src/a.ts",
      },
    );
    await expect(run).rejects.toMatchObject({
      code: "E_AST_EDIT_LIMIT",
      message: expect.stringContaining("the rewrite of src/a.ts would be larger than 50 bytes"),
    });
  });

  it("stops with the signal's reason when the call is aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(
      rewriteSource(Lang.TypeScript, "foo(1);", [{ pat: "foo($A)", out: "bar($A)" }], {
        signal: controller.signal,
      }),
    ).rejects.toThrow("stopped");
  });
});
