// The systems plugin's webhook events, read from the index (host/events/index-lifecycle.ts): a role of a system's
// access manager revoked from an account, told as provisional while inside the reorg depth.
import { getAddress } from "viem";
import { z } from "zod";
import { EventAddress, EventChainId, EventHash, EventIntegerString } from "../../domain/evm/event-payloads.ts";
import { activityInBlocks } from "../../host/events/indexed-activity.ts";
import type { WebhookEventType } from "../../host/plugin.ts";

export const AccessControlRoleRevokedProvisionalV1 = z
  .object({
    accessManagerAddress: EventAddress,
    accountAddress: EventAddress,
    blockNumber: EventIntegerString,
    chainId: EventChainId,
    roleId: EventHash.describe("The role's bytes32 id"),
    sender: EventAddress.describe("The account that revoked the role"),
    systemAddress: EventAddress,
    transactionHash: EventHash,
  })
  .strict()
  .meta({ title: "AccessControlRoleRevokedProvisionalV1" });

export const SYSTEM_WEBHOOK_EVENTS: Record<string, WebhookEventType> = {
  "access-control.role-revoked.provisional": {
    description:
      "A role of the system's access manager was revoked from an account; provisional while inside the reorg depth.",
    payload: AccessControlRoleRevokedProvisionalV1,
    lifecycle: "provisional",
    fromIndex: {
      async read(ledger, range) {
        return (await activityInBlocks(ledger, ["RoleRevoked"], range)).map((e) =>
          e.observation(
            {
              accessManagerAddress: getAddress(e.emitter),
              accountAddress: getAddress(e.arg("account")),
              blockNumber: String(e.blockNumber),
              chainId: range.chainId,
              roleId: e.arg("role"),
              sender: getAddress(e.sender),
              systemAddress: getAddress(e.system),
              transactionHash: e.transactionHash,
            },
            {
              idxr_access_control_role_member: `${e.emitter}-${e.arg("role")}-${e.arg("account")}`.toLowerCase(),
              idxr_system: e.system,
            },
          ),
        );
      },
    },
  },
};
