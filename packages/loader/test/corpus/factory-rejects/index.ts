import type { CustomToolAPI } from "@tooldock/sdk";

export default async (_pi: CustomToolAPI) => {
  throw new Error("corpus: factory rejects");
};
