import type { client } from "./api";
import { expectStatus } from "./api";
import { allDispatched } from "./webhooks";

type Api = ReturnType<typeof client>;

export const validCustomer = {
  name: "Acme Servicios SL",
  tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
};

export const validInstruction = {
  label: "Main account",
  type: "bank_transfer",
  bank_transfer: { beneficiary: "Acme Servicios SL", iban: "ES9121000418450200051332", bic: "CAIXESBBXXX" },
};

/** Creates through the API and waits for the write's background dispatch to finish. */
async function createSettled(api: Api, path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body);
  expectStatus(res, 201);
  await allDispatched();
  return res.body;
}

export const createCustomer = (api: Api, body: Record<string, unknown> = validCustomer) =>
  createSettled(api, "/v1/customers", body);

export const createInstruction = (api: Api) =>
  createSettled(api, "/v1/payment-instructions", validInstruction);
