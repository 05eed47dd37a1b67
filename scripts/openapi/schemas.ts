/**
 * The API's zod schemas as JSON Schema 2020-12 (OpenAPI 3.1's own dialect): requests as they
 * are accepted (`io: "input"`), responses as they are returned (`io: "output"`), the shared
 * response objects as `components.schemas` referenced by name.
 */
import * as z from "zod";
import { accountObject } from "../../src/account/schemas";
import { balanceObject, balanceTransactionObject } from "../../src/balance/schemas";
import { customerObject } from "../../src/customers/schemas";
import { destinationObject } from "../../src/event-destinations/schemas";
import { eventObject } from "../../src/events/schemas";
import { errorEnvelope } from "../../src/http/schemas";
import { invoiceObject } from "../../src/invoices/schemas";
import { addressObject } from "../../src/party/address";
import { paymentInstructionObject } from "../../src/payment-instructions/schemas";
import { paymentObject } from "../../src/payments/schemas";
import { taxRegimeObject } from "../../src/tax/schemas";
import { taxIdObject, verificationObject } from "../../src/tax-ids/schemas";
import { inputOverrides } from "./overrides";

export type JsonSchema = Record<string, unknown>;

/** What a webhook delivery POSTs: the event without its `data` snapshot (src/webhooks/payload.ts). */
export const thinEventObject = eventObject.omit({ data: true });

/** The shared objects, by component name: responses refer to them instead of repeating them. */
export const COMPONENTS: Record<string, z.ZodType> = {
  Error: errorEnvelope,
  Address: addressObject,
  TaxIdVerification: verificationObject,
  TaxId: taxIdObject,
  Customer: customerObject,
  PaymentInstruction: paymentInstructionObject,
  Account: accountObject,
  Event: eventObject,
  ThinEvent: thinEventObject,
  EventDestination: destinationObject,
  Invoice: invoiceObject,
  Payment: paymentObject,
  TaxRegime: taxRegimeObject,
  Balance: balanceObject,
  BalanceTransaction: balanceTransactionObject,
};

export const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A generated schema without the keywords that only a standalone document needs. */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * Converts the components and every response schema in one pass, so that a response made of
 * components (a list of customers, say) refers to them by `$ref`.
 *
 * @example
 * const { components, response } = convertOutputs([listOf(customerObject)]);
 * response(schema); // { type: "object", properties: { data: { items: { $ref: "#/components/schemas/Customer" } } … } }
 */
export function convertOutputs(responses: readonly z.ZodType[]) {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    registry.add(schema, { id: name });
    names.set(schema, name);
  }
  responses.forEach((schema, i) => {
    if (!names.has(schema)) {
      registry.add(schema, { id: `response${i}` });
      names.set(schema, `response${i}`);
    }
  });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "throw",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  // A schema met in two places that is not a component would be referred to by an id that
  // the document does not hold: name such a schema in COMPONENTS.
  const dangling = /"\$ref":"#\/components\/schemas\/(response\d+|__shared)/.exec(JSON.stringify(schemas));
  if (dangling) throw new Error(`A response schema is shared but not a component (${dangling[1]}).`);

  const components: Record<string, JsonSchema> = {};
  for (const name of Object.keys(COMPONENTS)) components[name] = bare(schemas[name] as JsonSchema);
  return {
    components,
    /** A response schema: a `$ref` when it is a component, else the schema itself. */
    response(schema: z.ZodType): JsonSchema {
      const name = names.get(schema) as string;
      return name in COMPONENTS ? componentRef(name) : bare(schemas[name] as JsonSchema);
    },
  };
}

/** A request schema (path parameters, query, JSON body) as the API accepts it. */
export function convertInput(schema: z.ZodType): JsonSchema {
  return bare(
    z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "throw",
      override: ({ zodSchema, jsonSchema }) => {
        const extra = inputOverrides.get(zodSchema as unknown as z.ZodType);
        if (extra) Object.assign(jsonSchema, extra(jsonSchema, convertInput));
      },
    }) as JsonSchema,
  );
}
