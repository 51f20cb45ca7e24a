// The AsyncAPI document of the event types the platform's plugins declare (and the example plugin's, whose payload
// has no title): valid for @asyncapi/parser, one message per type named by its SDK name, the envelope as payload.
import { Parser } from "@asyncapi/parser";
import { describe, expect, it } from "vitest";
import { composePlugins } from "../../host/plugin-host.ts";
import exampleNotes from "../example-notes/index.ts";
import { plugins } from "../index.ts";
import { buildAsyncApiDocument } from "./asyncapi.ts";

const { webhookEvents } = composePlugins([...plugins, exampleNotes]);
const doc = buildAsyncApiDocument(webhookEvents) as {
  channels: Record<string, { messages: Record<string, unknown> }>;
  operations: Record<string, { action: string }>;
  components: { messages: Record<string, Record<string, unknown>>; schemas: Record<string, Record<string, unknown>> };
};

describe("the AsyncAPI document", () => {
  it("validates with @asyncapi/parser without an error", async () => {
    const diagnostics = await new Parser().validate(structuredClone(doc) as never);
    const errors = diagnostics.filter((d) => d.severity === 0);
    expect(errors.map((d) => `${d.path.join(".")}: ${d.message}`)).toEqual([]);
  });

  it("has one message and one send operation per event type, named by its SDK name", () => {
    expect(webhookEvents.has("token.transfer.final")).toBe(true);
    const names = Object.keys(doc.components.messages);
    expect(names).toHaveLength(webhookEvents.size);
    expect(names).toEqual(expect.arrayContaining(["TokenTransferFinalV1", "AssetIssuanceProvisionalV1"]));
    // Without a `title` on its payload schema: PascalCase of the type + V1.
    expect(names).toContain("ExampleNoteCreatedV1");
    expect(Object.keys(doc.channels.subscriberEndpoint.messages).sort()).toEqual([...names].sort());
    for (const operation of Object.values(doc.operations)) expect(operation.action).toBe("send");
  });

  it("gives each message the envelope with its type, the payload schema, headers, lifecycle and receipt rule", () => {
    const message = doc.components.messages.TokenTransferFinalV1;
    expect(message).toMatchObject({
      title: "token.transfer.final",
      payload: { $ref: "#/components/schemas/TokenTransferFinalV1" },
      headers: { required: ["webhook-id", "webhook-timestamp", "webhook-signature"] },
      "x-lifecycle": "final",
      "x-receipt-required": true,
    });
    const envelope = doc.components.schemas.TokenTransferFinalV1 as {
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    expect(envelope.properties.type).toEqual({ type: "string", const: "token.transfer.final" });
    expect(envelope.properties.lifecycle_state).toEqual({ type: "string", enum: ["final", "recalled"] });
    expect(envelope.properties.recalled_evt_id).toMatchObject({ type: "string" });
    expect(envelope.properties.payload).toEqual({ $ref: "#/components/schemas/TokenTransferFinalV1Payload" });
    expect(envelope.additionalProperties).toBe(false);
    expect(doc.components.schemas.TokenTransferFinalV1Payload).toMatchObject({
      additionalProperties: false,
      required: expect.arrayContaining(["tokenAddress", "amount", "logIndex"]),
    });
    expect(doc.components.messages.AssetIssuanceProvisionalV1).toMatchObject({ "x-lifecycle": "provisional" });
    expect(doc.components.schemas.AssetIssuanceProvisionalV1).toMatchObject({
      properties: { lifecycle_state: { enum: ["pending", "provisional", "final", "retracted", "recalled"] } },
    });
    expect(doc.components.messages.AssetIssuanceProvisionalV1).toMatchObject({
      "x-lifecycle-states": ["pending", "provisional", "final", "retracted", "recalled"],
    });
    expect(JSON.stringify(doc)).toContain("/api/v2/webhooks/receipts");
  });
});
