// The smart-wallet executor's jobs, keyed per (chain, wallet) like an EOA's send and confirmation runs.
import { z } from "zod";
import type { TaskPayload } from "../../host/worker/define-task.ts";
import type { FoldableJob, KeyedJob } from "../../host/worker/keyed-jobs.ts";

export const PLUGIN_ID = "smart-wallets";

/** The payload of a wallet's execute and confirm runs (their tasks parse it with this schema). */
export const WalletRunPayload = z.object({ chainId: z.number().int(), wallet: z.string() });
/** The deploy task's: jobs queued before payloads named the chain carry only the wallet (its row names the chain). */
export const WalletDeployPayload = z.object({ chainId: z.number().int().optional(), wallet: z.string() });

const walletQueue = (chainId: number, wallet: string) => `smart-wallet:${chainId}:${wallet.toLowerCase()}`;

/** Builds, signs and sends the wallet's queued requests as user operations. */
export function executeJob(chainId: number, wallet: string): FoldableJob<TaskPayload<typeof WalletRunPayload>> {
  const name = walletQueue(chainId, wallet);
  return {
    task: `${PLUGIN_ID}:execute`,
    payload: { chainId, wallet: wallet.toLowerCase() },
    queueName: name,
    jobKey: `execute:${name}`,
  };
}

/** Follows the wallet's sent operations until each is mined or dropped. */
export function confirmJob(
  chainId: number,
  wallet: string,
  runAt?: Date,
): KeyedJob<TaskPayload<typeof WalletRunPayload>> {
  const name = `confirm:${walletQueue(chainId, wallet)}`;
  return {
    task: `${PLUGIN_ID}:confirm`,
    payload: { chainId, wallet: wallet.toLowerCase() },
    queueName: name,
    jobKey: name,
    ...(runAt ? { runAt } : {}),
  };
}

/** Runs the wallet's deployment steps on its chain (resumable: each step checks what is done). */
export function deployJob(chainId: number, wallet: string): KeyedJob<TaskPayload<typeof WalletDeployPayload>> {
  const name = `smart-wallet-deploy:${chainId}:${wallet.toLowerCase()}`;
  return {
    task: `${PLUGIN_ID}:deploy`,
    payload: { chainId, wallet: wallet.toLowerCase() },
    queueName: name,
    jobKey: `deploy:${chainId}:${wallet.toLowerCase()}`,
  };
}
