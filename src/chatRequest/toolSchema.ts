/** Keys no model needs and some gateways refuse in a tool's parameters (metadata of the schema document). */
const METADATA_KEYS = new Set(['$schema', '$id', '$comment', 'examples']);
/** What strict gateways (Gemini and others behind an OpenAI-compatible API) refuse besides. */
const STRICT_KEYS = new Set(['default', 'format', 'additionalProperties', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'const']);

/**
 * A tool's JSON schema as gateways take it: the metadata keys go, an object gets its `properties`, and, for a model
 * declared with `strictToolSchemas`, the keywords strict gateways refuse go too and `type: ["string", "null"]`
 * becomes `type: "string"`. Property names are left alone (a property may be called `format`).
 */
export function sanitizeToolSchema(schema: Record<string, unknown>, strict = false): Record<string, unknown> {
  return sanitize(schema, strict) as Record<string, unknown>;
}

function sanitize(node: unknown, strict: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => sanitize(item, strict));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (METADATA_KEYS.has(key) || (strict && STRICT_KEYS.has(key))) continue;
    if (key === 'properties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // The names here are the tool's own; only their schemas are cleaned.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, sanitize(property, strict)]));
    } else if (key === 'type' && strict && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null');
      out[key] = types.length === 1 ? types[0] : types;
    } else out[key] = sanitize(value, strict);
  }
  if (out['type'] === 'object' && out['properties'] === undefined) out['properties'] = {};
  return out;
}
