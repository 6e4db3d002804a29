/**
 * A worker thread of the gateway that lays out summary PDFs, one at a time, so that a long one
 * (a maximal application takes seconds) never holds up the event loop that serves the API.
 * Loads pdfkit and the fonts only; SummaryPdfRenderer starts it and sends it the summaries.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ApplicationSummary, SUMMARY_PDF_WORKER_NICE, summaryPdf } from './summary-pdf';

/**
 * Gives this thread, and only it, the lowest scheduling priority: on Linux each thread is a task
 * with a nice value of its own, named by its id under /proc/thread-self. Elsewhere, or without
 * /proc, the worker keeps the gateway's priority.
 */
function yieldToTheApi(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), SUMMARY_PDF_WORKER_NICE);
  } catch {
    // Not Linux: nothing to do.
  }
}

yieldToTheApi();

/** What the worker answers each summary with: the whole PDF, or why there is none. */
export type SummaryPdfAnswer = { pdf: Uint8Array } | { error: string };

/** The PDF in one array of its own, whose memory can be handed to the gateway's thread rather than copied. */
async function laidOut(summary: ApplicationSummary): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of summaryPdf(summary)) chunks.push(chunk as Buffer);
  const pdf = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    pdf.set(chunk, at);
    at += chunk.length;
  }
  return pdf;
}

parentPort!.on('message', (summary: ApplicationSummary) => {
  laidOut(summary).then(
    (pdf) => parentPort!.postMessage({ pdf } satisfies SummaryPdfAnswer, [pdf.buffer]),
    (error: unknown) =>
      parentPort!.postMessage({
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies SummaryPdfAnswer),
  );
});
