// A response serializer that answers exactly what the route's response schema documents, as
// Fastify's own (fast-json-stringify) does: an object keeps the properties its schema lists (all
// of them where additionalProperties is true), and a required property that is missing is an
// error (a 500), never a silently different answer. Unlike Fastify's, the JSON is written by
// stringifyJson, so a cached query result is spliced in as the text it was stored as instead of
// being serialised again per request (the reason the insight routes use it). Keys keep the
// order the handler built them in.
import type { FastifySerializerCompiler } from 'fastify';
import { stringifyJson } from '../core/raw-json.js';

type Shape = (value: unknown, path: string) => unknown;

/** A JSON schema as far as the serializer reads it (TypeBox schemas are plain JSON schemas). */
interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
}

const keep: Shape = (value) => value;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const typesOf = (node: SchemaNode): string[] =>
  node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];

/** Whether a value is of the schema's kind: how a union's branch is chosen (first that fits). */
function fits(node: SchemaNode, value: unknown, refs: Readonly<Record<string, SchemaNode>>): boolean {
  if (node.$ref !== undefined) {
    const target = refs[node.$ref];
    return target === undefined || fits(target, value, refs);
  }
  const branches = node.anyOf ?? node.oneOf;
  if (branches) return branches.some((branch) => fits(branch, value, refs));
  const types = typesOf(node);
  if (types.length === 0) return true;
  return types.some((type) => {
    switch (type) {
      case 'null': return value === null;
      case 'object': return isPlainObject(value) && (node.required ?? []).every((key) => value[key] !== undefined);
      case 'array': return Array.isArray(value);
      case 'string': return typeof value === 'string';
      case 'integer': return Number.isInteger(value);
      case 'number': return typeof value === 'number';
      case 'boolean': return typeof value === 'boolean';
      default: return true;
    }
  });
}

function compileShape(node: SchemaNode, refs: Readonly<Record<string, SchemaNode>>): Shape {
  if (node.$ref !== undefined) {
    const target = refs[node.$ref];
    return target === undefined ? keep : compileShape(target, refs);
  }
  const branches = node.anyOf ?? node.oneOf;
  if (branches) {
    const shapes = branches.map((branch) => compileShape(branch, refs));
    return (value, path) => {
      const index = branches.findIndex((branch) => fits(branch, value, refs));
      if (index === -1) throw new Error(`response ${path} matches none of its schema's forms`);
      return shapes[index]!(value, path);
    };
  }
  const types = typesOf(node);
  if (types.includes('object') && node.properties) {
    const properties = new Map(Object.entries(node.properties).map(([key, child]) => [key, compileShape(child, refs)]));
    const required = node.required ?? [];
    const others = node.additionalProperties === true ? keep : isPlainObject(node.additionalProperties) ? compileShape(node.additionalProperties, refs) : null;
    return (value, path) => {
      if (!isPlainObject(value)) return value;
      for (const key of required) {
        if (value[key] === undefined) throw new Error(`response ${path} lacks "${key}", which its schema requires`);
      }
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) {
        const shape = properties.get(key) ?? others;
        if (shape !== null && child !== undefined) out[key] = shape(child, `${path}.${key}`);
      }
      return out;
    };
  }
  if (types.includes('array') && node.items) {
    const item = compileShape(node.items, refs);
    return (value, path) => (Array.isArray(value) ? value.map((child, i) => item(child, `${path}[${i}]`)) : value);
  }
  return keep;
}

/**
 * A route's `serializerCompiler`: answers follow their response schema. `refs` are the shared
 * schemas the route's responses name by `$ref` (ErrorBody).
 */
export function schemaSerializer(refs: Readonly<Record<string, unknown>> = {}): FastifySerializerCompiler<unknown> {
  return ({ schema }) => {
    const shape = compileShape(schema as SchemaNode, refs as Readonly<Record<string, SchemaNode>>);
    return (data) => stringifyJson(shape(data, '$'));
  };
}

