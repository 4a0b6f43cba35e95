import type { CustomToolAPI } from "@tooldock/sdk";

export default (_pi: CustomToolAPI) => [null];
