// ERC-1643 documents: set and remove as writes, list from the index.
import { z } from "@hono/zod-openapi";
import { type Address, encodeFunctionData, type Hex, hexToBytes, stringToHex, zeroHash } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import {
  collectionRoute,
  defineCollection,
  parseCollectionQuery,
  runCollection,
} from "../../host/collections/index.ts";
import { isoFromSeconds, type LedgerTables } from "../../host/db/ledger-types.ts";
import type { App } from "../../host/http/env.ts";
import { collection } from "../../host/http/envelopes.ts";
import { AddressSchema } from "../../host/http/schemas.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { DocumentBodySchema, DocumentNameSchema, EmptyWriteBodySchema } from "./operations-schemas.ts";
import { findOrgToken } from "./routes.ts";
import { tokenWriteRoute } from "./write-route.ts";

/** The bytes32 document name: raw when sent as 0x + 64 hex digits, else the UTF-8 text right-padded with zeros. */
export function documentNameBytes(name: string): Hex {
  return /^0x[0-9a-fA-F]{64}$/.test(name) ? (name.toLowerCase() as Hex) : stringToHex(name, { size: 32 });
}

/** The name as text when the bytes32 holds printable UTF-8 (zero-padded), else null. */
function documentNameText(bytes: Hex): string | null {
  const raw = hexToBytes(bytes);
  let end = raw.length;
  while (end > 0 && raw[end - 1] === 0) end--;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(raw.subarray(0, end));
    return text.length > 0 && !/[\p{Cc}]/u.test(text) ? text : null;
  } catch {
    return null;
  }
}

const TokenDocumentSchema = z
  .object({
    name: z.string().openapi({ description: "The name as text, or the bytes32 hex when it is not text" }),
    nameHex: z.string(),
    uri: z.string(),
    documentHash: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TokenDocument");

function toDocument(row: LedgerTables["tokenDocument"]) {
  return {
    name: documentNameText(row.name) ?? row.name,
    nameHex: row.name,
    uri: row.uri,
    documentHash: row.documentHash,
    updatedAt: isoFromSeconds(row.updatedAt),
  };
}

const DOCUMENT_COLLECTION = defineCollection({
  fields: {
    nameHex: { column: "name", type: "text", sortable: true, normalize: (v) => v.toLowerCase() },
    uri: { column: "uri", type: "text" },
    updatedAt: { column: "updatedAt", type: "bigint", sortable: true, filter: false },
  },
  search: ["uri"],
  defaultSort: "nameHex",
  tiebreaker: "name",
});

const listDocuments = collectionRoute({
  path: "/api/v2/tokens/{tokenAddress}/documents",
  tags: ["token"],
  summary: "List the token's ERC-1643 documents from the index",
  permission: "token:read",
  params: z.object({ tokenAddress: AddressSchema }),
  collection: DOCUMENT_COLLECTION,
  item: TokenDocumentSchema,
  listed: "The documents",
});

export function documentRoutes(app: App, ctx: PluginContext) {
  const params = { documentName: DocumentNameSchema };

  tokenWriteRoute(app, ctx, {
    method: "put",
    path: "documents/{documentName}",
    summary: "Set (add or replace) an ERC-1643 document",
    description:
      "Path `documentName`: up to 32 bytes of text, or the bytes32 as 0x + 64 hex digits. Body `{uri, documentHash?}`. " +
      "Needs the token's GOVERNANCE_ROLE.",
    permission: "token:governance",
    params,
    body: DocumentBodySchema,
    kind: "token.document.set",
    encode: (b, p) =>
      encodeFunctionData({
        abi: TokenAbi,
        functionName: "setDocument",
        args: [documentNameBytes(p.documentName), b.uri, (b.documentHash ?? zeroHash) as Hex],
      }),
  });

  tokenWriteRoute(app, ctx, {
    method: "delete",
    path: "documents/{documentName}",
    summary: "Remove an ERC-1643 document",
    description: "Body optional (walletVerification for sessions). Needs the token's GOVERNANCE_ROLE.",
    permission: "token:governance",
    params,
    body: EmptyWriteBodySchema,
    bodyOptional: true,
    kind: "token.document.remove",
    encode: (_b, p) =>
      encodeFunctionData({ abi: TokenAbi, functionName: "removeDocument", args: [documentNameBytes(p.documentName)] }),
  });

  app.openapi(listDocuments, async (c) => {
    const { tokenAddress } = c.req.valid("param");
    const query = parseCollectionQuery(new URL(c.req.url).searchParams, DOCUMENT_COLLECTION);
    const chain = await requestChain(c, ctx);
    const token = await findOrgToken(chain, tokenAddress);
    const base = chain.ledger
      .selectFrom("tokenDocument")
      .selectAll()
      .where("token", "=", token.id as Address);
    const { rows, total } = await runCollection(base, query, DOCUMENT_COLLECTION);
    return c.json(collection(c, rows.map(toDocument), total, query.page), 200);
  });
}
