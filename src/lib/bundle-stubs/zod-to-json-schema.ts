/**
 * Stands in for zod's `core/to-json-schema.js` in the API Worker's build only (wrangler.toml
 * [alias]): the OpenAPI document's JSON Schemas are generated at build time (scripts/openapi/,
 * with the real zod), never by the Worker. Parsing, `.meta()` and error messages are zod's own;
 * only `schema.toJSONSchema()` and `schema["~standard"].jsonSchema` throw here.
 */
export function jsonSchemaUnavailable(): never {
  throw new Error("JSON Schema generation is not part of the API Worker's build (wrangler.toml [alias])");
}

export const createToJSONSchemaMethod = () => jsonSchemaUnavailable;
export const createStandardJSONSchemaMethod = () => jsonSchemaUnavailable;
