import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import {
  enumValues,
  fieldKind,
  initialValue,
  itemSchema,
  type JsonSchema,
  objectProperties,
  type PathStep,
  pointerOf,
  valueAt,
  withoutItem,
  withValueAt,
} from "./form-model.js";

/** What every field of one form shares. */
interface FormContext {
  value: unknown;
  set(path: readonly PathStep[], next: unknown): void;
  remove(path: readonly PathStep[], index: number): void;
  /** Issues of the session's validator, by JSON Pointer. */
  issues: ReadonlyMap<string, string[]>;
  idPrefix: string;
}

/** Props of {@link SchemaForm}. */
export interface SchemaFormProps {
  /** The tool's parameters (an object schema). */
  schema: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  issues: ReadonlyMap<string, string[]>;
  /** Prefix of the fields' element ids (one form per tool). */
  idPrefix: string;
}

/**
 * A form generated from a tool's JSON Schema: text, number and integer inputs, checkboxes,
 * selects for enums, lists with Add/Remove for arrays, fieldsets for nested objects, and a JSON
 * box for anything else. Each field shows the validator's issues at its path next to it.
 */
export function SchemaForm(props: SchemaFormProps) {
  const context: FormContext = {
    value: props.value,
    set: (path, next) => props.onChange(withValueAt(props.value, path, next)),
    remove: (path, index) => props.onChange(withoutItem(props.value, path, index)),
    issues: props.issues,
    idPrefix: props.idPrefix,
  };
  const properties = objectProperties(props.schema);
  if (properties.length === 0) return <p class="muted">This tool takes no arguments.</p>;
  return (
    <div class="schema-form">
      {properties.map((property) => (
        <Field
          key={property.name}
          context={context}
          path={[property.name]}
          label={property.name}
          schema={property.schema}
          required={property.required}
        />
      ))}
    </div>
  );
}

interface FieldProps {
  context: FormContext;
  path: PathStep[];
  label: string;
  schema: JsonSchema;
  required: boolean;
}

function Field(props: FieldProps) {
  const { context, path, schema, required } = props;
  const pointer = pointerOf(path);
  const id = `${context.idPrefix}-${pointer.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const issues = context.issues.get(pointer) ?? [];
  const current = valueAt(context.value, path);
  const description = typeof schema.description === "string" ? schema.description : undefined;
  const kind = fieldKind(schema);
  const describedBy = [description ? `${id}-description` : "", issues.length > 0 ? `${id}-issues` : ""]
    .filter(Boolean)
    .join(" ");
  const common = {
    id,
    "aria-invalid": issues.length > 0 ? ("true" as const) : undefined,
    "aria-describedby": describedBy || undefined,
    "aria-required": required ? ("true" as const) : undefined,
  };
  const set = (next: unknown) => context.set(path, next);
  const labelText = (
    <>
      {props.label}
      {required ? (
        <span class="required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : (
        <span class="muted"> (optional)</span>
      )}
    </>
  );
  const footer = (
    <>
      {description !== undefined && (
        <div class="field-description" id={`${id}-description`}>
          {description}
        </div>
      )}
      <Issues id={`${id}-issues`} issues={issues} />
    </>
  );

  if (kind === "object" || kind === "array") {
    const present = current !== undefined;
    return (
      <fieldset class="field field-group" data-field={pointer}>
        <legend>{labelText}</legend>
        {footer}
        {!present && (
          <button type="button" onClick={() => set(kind === "array" ? [] : initialValue(schema))}>
            Add {props.label}
          </button>
        )}
        {present && kind === "object" && (
          <>
            {objectProperties(schema).map((property) => (
              <Field
                key={property.name}
                context={context}
                path={[...path, property.name]}
                label={property.name}
                schema={property.schema}
                required={property.required}
              />
            ))}
            {!required && (
              <button type="button" class="link" onClick={() => set(undefined)}>
                Remove {props.label}
              </button>
            )}
          </>
        )}
        {present && kind === "array" && (
          <ArrayItems {...props} items={Array.isArray(current) ? current : []} />
        )}
      </fieldset>
    );
  }

  let control: ComponentChildren;
  if (kind === "boolean" && required) {
    return (
      <div class="field field-checkbox" data-field={pointer}>
        <input
          type="checkbox"
          {...common}
          checked={current === true}
          onChange={(event) => set(event.currentTarget.checked)}
        />
        <label for={id}>{labelText}</label>
        {footer}
      </div>
    );
  }
  if (kind === "boolean" || kind === "enum") {
    const values = kind === "boolean" ? [true, false] : (enumValues(schema) ?? []);
    const selected = values.findIndex((candidate) => JSON.stringify(candidate) === JSON.stringify(current));
    control = (
      <select
        {...common}
        value={selected === -1 ? "" : String(selected)}
        onChange={(event) => {
          const index = event.currentTarget.value;
          set(index === "" ? undefined : values[Number(index)]);
        }}
      >
        {(!required || selected === -1) && <option value="">(not set)</option>}
        {values.map((candidate, index) => (
          <option key={index} value={String(index)}>
            {typeof candidate === "string" ? candidate : JSON.stringify(candidate)}
          </option>
        ))}
      </select>
    );
  } else if (kind === "number" || kind === "integer") {
    control = <NumberInput common={common} value={current} integer={kind === "integer"} set={set} />;
  } else if (kind === "string") {
    control = (
      <input
        type="text"
        {...common}
        value={typeof current === "string" ? current : ""}
        onInput={(event) => {
          const text = event.currentTarget.value;
          set(text === "" && !required ? undefined : text);
        }}
      />
    );
  } else {
    control = <JsonInput common={common} value={current} required={required} set={set} />;
  }
  return (
    <div class="field" data-field={pointer}>
      <label for={id}>{labelText}</label>
      {control}
      {footer}
    </div>
  );
}

function ArrayItems(props: FieldProps & { items: unknown[] }) {
  const { context, path, schema, label, items } = props;
  const itemsSchema = itemSchema(schema);
  return (
    <>
      <ol class="array-items">
        {items.map((_, index) => (
          <li key={index} class="array-item">
            <Field
              context={context}
              path={[...path, index]}
              label={`${label}[${index}]`}
              schema={itemsSchema}
              required={true}
            />
            <button
              type="button"
              class="link"
              aria-label={`Remove ${label}[${index}]`}
              onClick={() => context.remove(path, index)}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => context.set([...path, items.length], initialValue(itemsSchema))}>
        Add to {label}
      </button>
    </>
  );
}

type CommonProps = {
  id: string;
  "aria-invalid"?: "true";
  "aria-describedby"?: string;
  "aria-required"?: "true";
};

function NumberInput(props: {
  common: CommonProps;
  value: unknown;
  integer: boolean;
  set(next: unknown): void;
}) {
  const [bad, setBad] = useState(false);
  return (
    <>
      <input
        type="number"
        {...props.common}
        step={props.integer ? "1" : "any"}
        value={typeof props.value === "number" ? String(props.value) : ""}
        onInput={(event) => {
          const input = event.currentTarget;
          setBad(input.validity.badInput);
          if (input.validity.badInput) return;
          props.set(input.value === "" ? undefined : Number(input.value));
        }}
      />
      {bad && <p class="issue">Not a number</p>}
    </>
  );
}

function JsonInput(props: {
  common: CommonProps;
  value: unknown;
  required: boolean;
  set(next: unknown): void;
}) {
  const [text, setText] = useState(props.value === undefined ? "" : JSON.stringify(props.value));
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <>
      <textarea
        {...props.common}
        rows={2}
        class="json-input"
        spellcheck={false}
        value={text}
        onInput={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          if (next.trim() === "") {
            setProblem(undefined);
            props.set(undefined);
            return;
          }
          try {
            props.set(JSON.parse(next));
            setProblem(undefined);
          } catch (error) {
            setProblem(`Not valid JSON: ${(error as Error).message}`);
          }
        }}
      />
      {problem !== undefined && <p class="issue">{problem}</p>}
    </>
  );
}

/** The validator's issues for one field. */
export function Issues(props: { id: string; issues: readonly string[] }) {
  if (props.issues.length === 0) return null;
  return (
    <ul class="issues" id={props.id}>
      {props.issues.map((issue) => (
        <li key={issue} class="issue">
          {issue}
        </li>
      ))}
    </ul>
  );
}
