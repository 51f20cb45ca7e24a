// The jobs of a signer's writes on a chain: one send run and one confirmation run, each keyed so that any number of
// submissions fold into the pending one, each on its own queue so that two runs of a kind never overlap.
import { z } from "zod";
import type { FoldableJob, KeyedJob } from "../worker/keyed-jobs.ts";

export const SEND_TASK = "host:send-transaction";
export const CONFIRM_TASK = "host:confirm-transaction";

/** The payload of a signer's send and confirmation runs (both tasks parse it with this schema). */
export const SignerRunPayload = z.object({ chainId: z.number().int(), fromAddress: z.string() });
export type SignerRun = z.output<typeof SignerRunPayload>;

/**
 * The one send job of a signer: keyed per (chain, signer), so any number of submissions fold into one pending run
 * that sends all their queued writes in order; the queue of the same name keeps two runs from overlapping.
 */
export function sendJobSpec(chainId: number, from: string): FoldableJob<SignerRun> {
  const name = signerQueue(chainId, from);
  return {
    task: SEND_TASK,
    payload: { chainId, fromAddress: from.toLowerCase() },
    queueName: name,
    jobKey: `send:${name}`,
  };
}

/**
 * The one confirmation run of a signer: polls every broadcast write of it until each has its outcome. Its own queue
 * keeps two runs of a signer from overlapping (two would race to sign a write anew), apart from its send runs.
 */
export function confirmJobSpec(chainId: number, from: string): KeyedJob<SignerRun> {
  const name = `confirm:${signerQueue(chainId, from)}`;
  return { task: CONFIRM_TASK, payload: { chainId, fromAddress: from.toLowerCase() }, queueName: name, jobKey: name };
}

function signerQueue(chainId: number, from: string): string {
  return `signer:${chainId}:${from.toLowerCase()}`;
}
