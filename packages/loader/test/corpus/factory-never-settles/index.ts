import type { CustomToolAPI } from "@tooldock/sdk";

export default (_pi: CustomToolAPI) => new Promise(() => {});
