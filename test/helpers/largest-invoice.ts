/**
 * The largest legitimate invoice (issue 30, item 1): 200 lines, every field at its maximum
 * length, as a `global` account writes it (custom taxes carry the longest names). A real invoice
 * applies a handful of taxes, so each line carries the same 10; `letter` fills every text, so
 * the test measures it in ASCII, in Spanish prose and in two-byte letters only.
 */
import { MAX_LINES } from "../../src/invoices/schemas";

/** `n` characters: `tag`, then `text` repeated. */
const fill = (text: string, n: number, tag = "") => `${tag}${text.repeat(n)}`.slice(0, n);

/** The body of a customer with every field at its maximum length. */
export const largestCustomer = (letter: string) => ({
  name: fill(letter, 256),
  tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
  email: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}`,
  phone: fill("9", 32),
  address: {
    line_1: fill(letter, 200),
    line_2: fill(letter, 200),
    city: fill(letter, 200),
    postal_code: fill("9", 20),
    state: fill(letter, 200),
    country: "ES",
  },
});

/** The body of the largest legitimate invoice for `customer`. */
export const largestInvoice = (customer: string, letter: string) => ({
  type: "ordinary",
  customer,
  lines: Array.from({ length: MAX_LINES }, (_, i) => ({
    description: fill(letter, 1000, `${i} `),
    quantity: "1.123456",
    unit_code: "HUR",
    unit_price: "12345.123456",
    taxes: Array.from({ length: 10 }, (_, t) => ({
      name: fill(letter, 64, `T${t} `),
      rate: "1.2345%",
      effect: t % 2 ? "withheld" : "added",
    })),
  })),
  payment_terms: { due_date: "2099-12-31" },
  notes: fill(letter, 2000),
});
