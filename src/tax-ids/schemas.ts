import type * as z from "zod";
import { taxIdObject } from "../http/schemas";

/** The Tax ID object is shared with the customer and account objects that embed it. */
export { taxIdObject };

export type TaxId = z.output<typeof taxIdObject>;
