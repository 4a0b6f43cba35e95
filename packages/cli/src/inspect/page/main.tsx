// The inspect page's entry point, bundled by `scripts/bundle.mjs` into `dist/bundle/inspect-page/app.js`.
import { render } from "preact";
import { App } from "./app.js";

const root = document.getElementById("app");
if (root !== null) {
  root.textContent = "";
  render(<App />, root);
}
