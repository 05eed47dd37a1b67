/**
 * Stands in for zod's `core/json-schema-processors.js` in the API Worker's build only
 * (wrangler.toml [alias]; see zod-to-json-schema.ts): every schema type's JSON Schema
 * processor throws, since only the build-time generator (scripts/openapi/) converts schemas.
 */
// The real one: the string, number, bigint and date schemas' `minLength`, `maxLength`, `format`,
// `minValue`... getters read it. Only it (and what it uses) is bundled from that module.
export { aggregateChecks } from "../../../node_modules/zod/v4/core/json-schema-processors.js";

import { jsonSchemaUnavailable } from "./zod-to-json-schema";

export {
  jsonSchemaUnavailable as anyProcessor,
  jsonSchemaUnavailable as arrayProcessor,
  jsonSchemaUnavailable as bigintProcessor,
  jsonSchemaUnavailable as booleanProcessor,
  jsonSchemaUnavailable as catchProcessor,
  jsonSchemaUnavailable as customProcessor,
  jsonSchemaUnavailable as dateProcessor,
  jsonSchemaUnavailable as defaultProcessor,
  jsonSchemaUnavailable as enumProcessor,
  jsonSchemaUnavailable as fileProcessor,
  jsonSchemaUnavailable as functionProcessor,
  jsonSchemaUnavailable as intersectionProcessor,
  jsonSchemaUnavailable as lazyProcessor,
  jsonSchemaUnavailable as literalProcessor,
  jsonSchemaUnavailable as mapProcessor,
  jsonSchemaUnavailable as nanProcessor,
  jsonSchemaUnavailable as neverProcessor,
  jsonSchemaUnavailable as nonoptionalProcessor,
  jsonSchemaUnavailable as nullableProcessor,
  jsonSchemaUnavailable as nullProcessor,
  jsonSchemaUnavailable as numberProcessor,
  jsonSchemaUnavailable as objectProcessor,
  jsonSchemaUnavailable as optionalProcessor,
  jsonSchemaUnavailable as pipeProcessor,
  jsonSchemaUnavailable as prefaultProcessor,
  jsonSchemaUnavailable as promiseProcessor,
  jsonSchemaUnavailable as readonlyProcessor,
  jsonSchemaUnavailable as recordProcessor,
  jsonSchemaUnavailable as setProcessor,
  jsonSchemaUnavailable as stringProcessor,
  jsonSchemaUnavailable as successProcessor,
  jsonSchemaUnavailable as symbolProcessor,
  jsonSchemaUnavailable as templateLiteralProcessor,
  jsonSchemaUnavailable as toJSONSchema,
  jsonSchemaUnavailable as transformProcessor,
  jsonSchemaUnavailable as tupleProcessor,
  jsonSchemaUnavailable as undefinedProcessor,
  jsonSchemaUnavailable as unionProcessor,
  jsonSchemaUnavailable as unknownProcessor,
  jsonSchemaUnavailable as voidProcessor,
};
