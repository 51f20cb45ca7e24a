// The SDK's types against sample deliveries: checked by `npm run typecheck` (its include covers sdk/src), as
// vitest runs expectTypeOf without checking types.
import { describe, expectTypeOf, it } from "vitest";
import { createApiClient, type Webhook, type webhooks } from "./index.ts";
import { sampleTransfer } from "./sample-delivery.ts";

const transfer = sampleTransfer;

const retraction = {
  evt_id: "evt_3",
  type: "asset.issuance.provisional",
  version: 1,
  lifecycle_state: "retracted",
  retracted_evt_id: "evt_2",
  related: {},
  payload: {
    assetAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    chainId: 31337,
    quantity: "25",
    transactionHash: `0x${"cd".repeat(32)}`,
  },
} satisfies Webhook.AssetIssuanceProvisionalV1;

describe("the SDK's types", () => {
  it("type a sample delivery of each event, narrowed by `type`", () => {
    const event: Webhook.Event = transfer as Webhook.Event;
    if (event.type === "token.transfer.final") {
      expectTypeOf(event).toEqualTypeOf<Webhook.TokenTransferFinalV1>();
      expectTypeOf(event.payload.blockNumber).toEqualTypeOf<number>();
      expectTypeOf(event.payload.amount).toEqualTypeOf<string>();
      expectTypeOf(event.lifecycle_state).toEqualTypeOf<"final" | "recalled">();
    } else {
      expectTypeOf(event.lifecycle_state).toEqualTypeOf<
        "pending" | "provisional" | "final" | "retracted" | "recalled"
      >();
    }
    expectTypeOf(retraction).toMatchTypeOf<Webhook.Event>();
    // One delivery type per event type the composed plugins declare (the document's webhooks), whichever they are.
    expectTypeOf<Webhook.Event["type"]>().toEqualTypeOf<keyof webhooks>();
    expectTypeOf<"token.transfer.final" | "asset.issuance.provisional">().toMatchTypeOf<Webhook.Event["type"]>();
    expectTypeOf<Webhook.AccessControlRoleRevokedProvisionalV1["payload"]["blockNumber"]>().toEqualTypeOf<string>();
  });

  it("refuse a delivery with a wrong field", () => {
    const wrong = {
      ...transfer,
      // @ts-expect-error blockNumber is an integer, not a string
      payload: { ...transfer.payload, blockNumber: "42" },
    } satisfies Webhook.TokenTransferFinalV1;
    expectTypeOf(wrong).not.toBeNever();
  });

  it("type REST calls by path", () => {
    const client = createApiClient({ baseUrl: "http://127.0.0.1:8080", apiKey: "svc_x" });
    // Never called: only their types are checked.
    const catalogue = async () => (await client.GET("/api/v2/webhooks/event-types")).data;
    // @ts-expect-error no such route
    const nowhere = () => client.GET("/api/v2/no-such-route");
    type Catalogue = NonNullable<Awaited<ReturnType<typeof catalogue>>>;
    expectTypeOf<Catalogue["data"][number]["lifecycle"]>().toEqualTypeOf<"provisional" | "final">();
    expectTypeOf(nowhere).toBeFunction();
  });
});
