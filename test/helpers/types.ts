/**
 * The API's objects as tests read them, taken from the route schemas in src/: a renamed or
 * removed field fails to compile in the tests that read it, instead of reading `undefined`.
 */
import type * as z from "zod";
import type { createCustomerBody } from "../../src/customers/schemas";
import type { createDestinationBody, Destination } from "../../src/event-destinations/schemas";
import type { eventObject } from "../../src/events/schemas";
import type { errorEnvelope } from "../../src/http/schemas";
import type { createPaymentInstructionBody } from "../../src/payment-instructions/schemas";
import type { taxRegimeObject } from "../../src/tax/schemas";

export type { Account } from "../../src/account/schemas";
export type { Customer } from "../../src/customers/schemas";
export type { Destination } from "../../src/event-destinations/schemas";
export type { PaymentInstruction } from "../../src/payment-instructions/schemas";
export type { TaxId } from "../../src/tax-ids/schemas";

/** The envelope of every list endpoint. */
export type List<T> = { object: "list"; url: string; has_more: boolean; data: T[] };

/** The body of every error response. */
export type ApiError = z.output<typeof errorEnvelope>;

/** `data.object` is the related object as it was: narrow it where a test reads its fields. */
export type Event = z.output<typeof eventObject>;

export type TaxRegime = z.output<typeof taxRegimeObject>;

/** A destination as create and retrieve return it: with its signing secret. */
export type DestinationWithSecret = Destination & { secret: string };

/** Request bodies, as a client sends them (before the API normalises them). */
export type CustomerInput = z.input<typeof createCustomerBody>;
export type InstructionInput = z.input<typeof createPaymentInstructionBody>;
export type DestinationInput = z.input<typeof createDestinationBody>;
