// GET /api/v2/custody/signatures: the signing audit log (host/custody/signature-log.ts) as a collection, for auditors.
import { z } from "@hono/zod-openapi";
import { collectionPage, collectionRoute, defineCollection } from "../../host/collections/index.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";

const KINDS = ["transaction", "message", "typed-data", "hash"] as const;

export const SIGNATURE_COLLECTION = defineCollection({
  fields: {
    id: { column: "id", type: "text", filter: { operators: ["eq", "inArray"] } },
    requestId: { column: "requestId", type: "text", filter: { operators: ["eq", "inArray", "isEmpty", "isNotEmpty"] } },
    keyLabel: { column: "keyLabel", type: "text", sortable: true },
    address: { column: "address", type: "text", normalize: (value) => value.toLowerCase() },
    kind: { column: "kind", type: "enum", values: KINDS, sortable: true, facet: true },
    caller: { column: "caller", type: "text", sortable: true },
    signedAt: { column: "signedAt", type: "timestamp", sortable: true },
  },
  search: ["keyLabel", "caller"],
  defaultSort: "-signedAt",
  tiebreaker: "id",
  totalFromFacet: "kind",
});

const SignatureRecordSchema = z
  .object({
    id: z.string(),
    requestId: z.string().nullable().openapi({ description: "The transaction request signed for, where there is one" }),
    organizationId: z.string(),
    keyLabel: z.string().openapi({ description: "The key's name: its derivation path, or its HSM token label" }),
    address: z.string().openapi({ description: "The signing key's address" }),
    digest: z.string().openapi({ description: "The 32-byte digest signed" }),
    kind: z.enum(KINDS),
    caller: z.string().openapi({ description: "The platform part that asked, e.g. worker:send-transaction" }),
    signedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustodySignature");

const listSignatures = collectionRoute({
  path: "/api/v2/custody/signatures",
  tags: ["custody"],
  summary: "List the signatures the organisation's custody keys made (the signing audit log)",
  description:
    "One record per signature, appended when it is made: the transaction request where known, the key's label and " +
    "address, the digest signed, what was signed (transaction, message, typed data, hash), which part of the " +
    "platform asked and when. It never holds anything of a key.",
  permission: "custody:signatures:read",
  collection: SIGNATURE_COLLECTION,
  item: SignatureRecordSchema,
  listed: "The signatures, newest first; facet kind",
});

export function signatureRoutes(app: App, ctx: PluginContext) {
  const db = ctx.db.platform;
  app.openapi(listSignatures, async (c) => {
    const { organizationId } = c.get("principal");
    const rows = () => db.selectFrom("custodySignatures").selectAll().where("organizationId", "=", organizationId);
    return c.json(
      await collectionPage(c, SIGNATURE_COLLECTION, rows, (page) =>
        page.map((row) => ({ ...row, signedAt: row.signedAt.toISOString() })),
      ),
      200,
    );
  });
}
