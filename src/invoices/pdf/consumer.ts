import { eq } from "drizzle-orm";
import { isPdfMessage } from "../../contracts/pdf-message";
import { createDb } from "../../db/client";
import { invoices } from "../../db/schema";
import { consumerWriter } from "../../events/writer";
import { connectionSlots } from "../../lib/connections";
import { logError } from "../../lib/log";
import { SERVED_COLUMNS } from "../find";
import { generatePdf } from "./generate";

/**
 * The `invoice-pdfs` consumer: renders and stores each invoice's PDF once. An invoice whose PDF
 * is already stored (a duplicate message, or a GET that rendered it first) is skipped; a
 * failure retries the message, and the cron sweep catches what the retries leave.
 */
export async function handlePdfs(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const db = createDb(env.DB);
  // The batch's invoices fan their events out from one invocation: one set of connections.
  const slots = connectionSlots();
  await Promise.all(
    batch.messages.map(async (message) => {
      if (!isPdfMessage(message.body)) {
        logError("pdf_message_invalid", new Error("not a PDF message"), {});
        return message.ack();
      }
      const id = message.body.invoice_id;
      try {
        const [row] = await db.select(SERVED_COLUMNS).from(invoices).where(eq(invoices.id, id));
        if (row && row.pdfGeneratedAt === null && row.status !== "draft") {
          await generatePdf(consumerWriter(db, env, ctx, row, slots), row);
        }
        message.ack();
      } catch (err) {
        logError("pdf_consumer_error", err, { invoice_id: id });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}
