import { type Static, Type } from "@sinclair/typebox";

/** The parameters of `ast_edit` (TypeBox). */
export const astEditParameters = Type.Object(
  {
    ops: Type.Array(
      Type.Object(
        {
          pat: Type.String({
            minLength: 1,
            description:
              "ast-grep pattern: code in the target language where $NAME matches one node and $$$NAME any number, e.g. `console.log($$$ARGS)`.",
          }),
          out: Type.String({
            description: "Replacement for each match; $NAME and $$$NAME insert what the pattern captured.",
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, description: "Rewrites applied in order, each to the result of the previous one." },
    ),
    lang: Type.Optional(
      Type.String({
        description:
          "Language of the files: typescript|ts, tsx, javascript|js|jsx, html, css. Default: inferred from each file's extension.",
      }),
    ),
    path: Type.Optional(
      Type.String({
        description: "File or directory to rewrite, relative to the working directory. Default: all of it.",
      }),
    ),
    glob: Type.Optional(
      Type.String({
        description:
          "Only files matching this glob, e.g. `src/**/*.ts`; without `/` it matches file names (`*.tsx`).",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, description: "Most replacements to make in all. Default: no limit." }),
    ),
  },
  { additionalProperties: false },
);

/** The `params` `ast_edit` receives. */
export type AstEditParameters = Static<typeof astEditParameters>;
