// The row a submitted write is queued as: QUEUED, unsigned, its call and how it is to be sent.
import type { Insertable } from "kysely";
import { storedAuthorizationList } from "../chain/authorizations.ts";
import type { TransactionRequestsTable, WalletSelection } from "../db/platform-types.ts";
import { describeCall } from "./describe.ts";
import type { SubmitInput } from "./service.ts";

export interface RequestSender {
  id: string;
  /** The signing address, lower case. */
  from: string;
  executor: string;
  walletSelection: WalletSelection;
}

export function requestValues(input: SubmitInput, sender: RequestSender): Insertable<TransactionRequestsTable> {
  const { id, from, executor, walletSelection } = sender;
  return {
    id,
    organizationId: input.organizationId,
    kind: input.kind,
    status: "QUEUED",
    subStatus: null,
    chainId: input.chainId,
    fromAddress: from,
    toAddress: input.to.toLowerCase(),
    data: input.data,
    value: (input.value ?? 0n).toString(),
    createdBy: input.createdBy,
    idempotencyKey: input.idempotencyKey ?? null,
    description: input.description ?? describeCall(input.kind, input.to, input.data),
    executor,
    walletSelection: JSON.stringify(walletSelection),
    gasLimit: input.gas?.toString() ?? null,
    authorizationList: storedAuthorizationList(input.authorizationList),
    ...(input.speed !== undefined ? { speed: input.speed } : {}),
    wakeJob: input.wakeJob ? JSON.stringify(input.wakeJob) : null,
    resultContext: input.resultContext ? JSON.stringify(input.resultContext) : null,
  };
}
