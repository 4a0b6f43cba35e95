import { remembered } from "../../remembered.js";

/**
 * Inert stand-ins for the terminal UI components of `@mariozechner/pi-tui`. Tooldock has no
 * terminal, but a tool that builds components must not crash: every constructor takes any
 * arguments, every known method does nothing, and `render` returns the plain text it was given.
 */

/** What every stand-in component answers: pi-tui's `Component` contract. */
export class InertComponent {
  /** Children added with `addChild` (a `Container` and its subclasses use them). */
  children: InertComponent[] = [];
  #text: string;

  constructor(...args: unknown[]) {
    this.#text = typeof args[0] === "string" ? args[0] : "";
  }

  /** The text given to the constructor or `setText`, one entry per line; children after it. */
  render(_width?: number): string[] {
    const own = this.text === "" ? [] : this.text.split("\n");
    return [
      ...own,
      ...this.children.flatMap((child) => (child instanceof InertComponent ? child.render() : [])),
    ];
  }

  /** The text of the component (plain, as given). */
  get text(): string {
    return this.#text;
  }

  setText(text: unknown): void {
    this.#text = typeof text === "string" ? text : String(text ?? "");
  }

  addChild(child: unknown): void {
    if (child instanceof InertComponent) this.children.push(child);
  }

  removeChild(child: unknown): void {
    this.children = this.children.filter((entry) => entry !== child);
  }

  clear(): void {
    this.children = [];
  }

  invalidate(): void {}
  handleInput(_data?: unknown): void {}
  setFocused(_focused?: unknown): void {}
  dispose(): void {}
  start(): void {}
  stop(): void {}
  setMessage(_message?: unknown): void {}
  setValue(_value?: unknown): void {}
  getValue(): string {
    return this.text;
  }
  setItems(_items?: unknown): void {}
  setSelectedIndex(_index?: unknown): void {}
  getSelectedItem(): undefined {
    return undefined;
  }
  setFilter(_filter?: unknown): void {}
}

/** The component class names pi-tui exports that tools build; each is an {@link InertComponent}. */
export const TUI_COMPONENT_NAMES = [
  "Box",
  "CancellableLoader",
  "Container",
  "Editor",
  "Image",
  "Input",
  "Loader",
  "Markdown",
  "SelectList",
  "SettingsList",
  "Spacer",
  "Text",
  "TruncatedText",
] as const;

const componentClasses = new Map<string, typeof InertComponent>();

/** A named subclass per component, one per name in the process: pi-tui's `Text` is the coding agent's. */
export function inertComponents(names: readonly string[]): Record<string, typeof InertComponent> {
  const classes: Record<string, typeof InertComponent> = {};
  for (const name of names) {
    classes[name] = remembered(
      componentClasses,
      name,
      () => ({ [name]: class extends InertComponent {} })[name] as typeof InertComponent,
    );
  }
  return classes;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Columns a string takes, ignoring ANSI colour codes (each code point counts as one column). */
export function visibleWidth(text: unknown): number {
  return [...String(text ?? "").replace(ANSI, "")].length;
}

/** Cuts `text` to `width` columns, ending with `ellipsis` (default `…`) when it was cut. */
export function truncateToWidth(text: unknown, width: number, ellipsis = "…"): string {
  const plain = [...String(text ?? "").replace(ANSI, "")];
  if (plain.length <= width) return plain.join("");
  const keep = Math.max(0, width - [...ellipsis].length);
  return plain.slice(0, keep).join("") + ellipsis;
}

/** Named keys pi-tui's `Key` offers, each its own key id. */
const NAMED_KEYS = [
  "up",
  "down",
  "left",
  "right",
  "enter",
  "return",
  "escape",
  "esc",
  "tab",
  "backspace",
  "delete",
  "insert",
  "clear",
  "home",
  "end",
  "pageUp",
  "pageDown",
  "space",
  ...Array.from({ length: 12 }, (_, index) => `f${index + 1}`),
];

/** pi-tui's names of symbol keys, each the character it stands for. */
const SYMBOL_KEYS: Readonly<Record<string, string>> = {
  backtick: "`",
  hyphen: "-",
  equals: "=",
  leftbracket: "[",
  rightbracket: "]",
  backslash: "\\",
  semicolon: ";",
  quote: "'",
  comma: ",",
  period: ".",
  slash: "/",
  exclamation: "!",
  at: "@",
  hash: "#",
  dollar: "$",
  percent: "%",
  caret: "^",
  ampersand: "&",
  asterisk: "*",
  leftparen: "(",
  rightparen: ")",
  underscore: "_",
  plus: "+",
  pipe: "|",
  tilde: "~",
  leftbrace: "{",
  rightbrace: "}",
  colon: ":",
  lessthan: "<",
  greaterthan: ">",
  question: "?",
};

/** pi-tui's modifier helpers, each named after the modifiers it puts before a key, in its order. */
const MODIFIERS = "ctrl shift alt ctrlShift shiftCtrl ctrlAlt altCtrl shiftAlt altShift ctrlShiftAlt".split(
  " ",
);

/**
 * pi-tui's `Key`: key ids for `matchesKey` (`Key.enter` is `"enter"`, `Key.comma` is `","`,
 * `Key.ctrl("c")` is `"ctrl+c"`, `Key.ctrlAlt("p")` is `"ctrl+alt+p"`).
 */
export const Key: Readonly<Record<string, unknown>> = Object.freeze({
  ...Object.fromEntries(NAMED_KEYS.map((name) => [name, name])),
  ...SYMBOL_KEYS,
  ...Object.fromEntries(
    MODIFIERS.map((name) => {
      const prefix = `${name.replace(/[A-Z]/g, (letter) => `+${letter.toLowerCase()}`)}+`;
      return [name, (key: string) => `${prefix}${key}`];
    }),
  ),
});

/** What a terminal sends for the keys without modifiers (legacy sequences, no kitty protocol). */
const KEY_SEQUENCES: Readonly<Record<string, readonly string[]>> = {
  escape: ["\u001b"],
  esc: ["\u001b"],
  enter: ["\r", "\n"],
  tab: ["\t"],
  backspace: ["\u007f", "\b"],
  delete: ["\u001b[3~"],
  home: ["\u001b[H", "\u001b[1~", "\u001bOH"],
  end: ["\u001b[F", "\u001b[4~", "\u001bOF"],
  up: ["\u001b[A", "\u001bOA"],
  down: ["\u001b[B", "\u001bOB"],
  right: ["\u001b[C", "\u001bOC"],
  left: ["\u001b[D", "\u001bOD"],
  space: [" "],
};

/**
 * pi-tui's `matchesKey(data, keyId)`: whether terminal input `data` is the key `keyId` (`"enter"`,
 * `"ctrl+c"`, `"shift+tab"`, `"alt+x"`), for the legacy sequences; `false` for what it does not cover.
 */
export function matchesKey(data: unknown, keyId: unknown): boolean {
  if (typeof data !== "string" || typeof keyId !== "string") return false;
  const parts = keyId.toLowerCase().split("+");
  const key = parts.pop() ?? "";
  const modifiers = new Set(parts);
  if (modifiers.size === 0) return (KEY_SEQUENCES[key] ?? (key.length === 1 ? [key] : [])).includes(data);
  if (modifiers.size === 1 && modifiers.has("ctrl") && /^[a-z]$/.test(key))
    return data === String.fromCharCode(key.charCodeAt(0) - 96);
  if (modifiers.size === 1 && modifiers.has("shift") && key === "tab") return data === "\u001b[Z";
  if (modifiers.size === 1 && modifiers.has("alt")) {
    const base = KEY_SEQUENCES[key] ?? (key.length === 1 ? [key] : []);
    return base.some((sequence) => data === `\u001b${sequence}`);
  }
  return false;
}
