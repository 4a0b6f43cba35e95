import type { CustomToolAPI } from "@tooldock/sdk";

export default (_pi: CustomToolAPI) => {
  throw new Error("corpus: factory throws");
};
