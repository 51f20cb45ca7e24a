// A participant's KYC documents: upload (multipart), list, download, delete. Only identityManager and claimIssuer
// (permissions.ts); the participant must be one of the caller's organisation (404 PARTICIPANT_NOT_FOUND otherwise),
// and its documents are read by organisation and participant, so nothing crosses organisations. Every download is a
// request the monitoring plugin's request log records (route, caller, time, status), and a line of the host's log.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { v7 as uuidv7 } from "uuid";
import { requirePermission } from "../../host/auth/require-permission.ts";
import { requestChain } from "../../host/chain/request-chain.ts";
import { collectionRoute, parseCollectionQuery, runCollection } from "../../host/collections/index.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App, AppEnv } from "../../host/http/env.ts";
import { collection, linkPath, single } from "../../host/http/envelopes.ts";
import { findParticipant } from "../../host/http/find-participant.ts";
import { ErrorFormASchema, errorResponses, jsonResponse, linksSelf } from "../../host/http/schemas.ts";
import { acceptsUpload } from "../../host/http/upload-body.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { KYC_DOCUMENT_COLLECTION } from "./collections.ts";
import { type DocumentOwner, documentStore, sha256Of } from "./document-store.ts";
import type { DocumentVault } from "./document-vault.ts";
import {
  DocumentParams,
  KYC_DOCUMENT_MAX_BYTES,
  KYC_UPLOAD_MAX_BODY_BYTES,
  KycDocumentSchema,
  KycDocumentUploadSchema,
  ParticipantParams,
} from "./schemas.ts";
import type { KycDocumentRow } from "./tables.ts";

const BASE = "/api/v2/participants/{participantId}/kyc-documents";
const TAGS = ["participants"];
const SCOPE =
  "Needs identityManager or claimIssuer. 404 PARTICIPANT_NOT_FOUND (SVC-0524) for a participant outside the " +
  "organisation, KYC_DOCUMENT_NOT_FOUND for a document the participant does not have.";

const toDocument = (row: KycDocumentRow) => ({
  id: row.id,
  participantId: row.participantId,
  type: row.type,
  claimTopic: row.claimTopic,
  fileName: row.fileName,
  contentType: row.contentType,
  size: row.size,
  sha256: row.sha256,
  uploadedBy: row.uploadedBy,
  uploadedAt: new Date(row.uploadedAt).toISOString(),
});

const DocumentEnvelope = z.object({ data: KycDocumentSchema, links: linksSelf });

const uploadDocument = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  summary: "Upload a KYC document of a participant",
  description:
    `multipart/form-data with \`type\`, \`file\` (at most ${KYC_DOCUMENT_MAX_BYTES} bytes, 10 MiB) and optionally ` +
    "`claimTopic`. The file is stored encrypted (AES-256-GCM) and answered with its metadata, its `sha256` the " +
    `digest a claim can name it by. A larger file is refused with 413 PAYLOAD_TOO_LARGE; a missing field with 400. ${SCOPE}`,
  middleware: [requirePermission("kycDocument:write"), acceptsUpload(KYC_UPLOAD_MAX_BODY_BYTES)],
  request: {
    params: ParticipantParams,
    body: { required: true, content: { "multipart/form-data": { schema: KycDocumentUploadSchema } } },
  },
  responses: {
    201: jsonResponse(DocumentEnvelope, "Stored: the document's metadata"),
    ...errorResponses,
    413: {
      description: `PAYLOAD_TOO_LARGE: the file is above ${KYC_DOCUMENT_MAX_BYTES} bytes (10 MiB); \`data.maxBytes\``,
      content: { "application/json": { schema: ErrorFormASchema } },
    },
    415: {
      description: "UNSUPPORTED_MEDIA_TYPE: the body is not multipart/form-data",
      content: { "application/json": { schema: ErrorFormASchema } },
    },
  },
});

const listDocuments = collectionRoute({
  path: BASE,
  tags: TAGS,
  summary: "List a participant's KYC documents",
  description: `The documents' metadata, newest first; facet type. ${SCOPE}`,
  permission: "kycDocument:read",
  collection: KYC_DOCUMENT_COLLECTION,
  item: KycDocumentSchema,
  listed: "The participant's documents; facet type",
  params: ParticipantParams,
});

const downloadDocument = createRoute({
  method: "get",
  path: `${BASE}/{documentId}`,
  tags: TAGS,
  summary: "Download a KYC document",
  description:
    "The file's bytes, decrypted, with the Content-Type it was uploaded with (as an attachment, never rendered). " +
    `Each download is recorded in the request log (GET /api/v2/monitoring/api/request-logs). ${SCOPE}`,
  middleware: [requirePermission("kycDocument:read")],
  request: { params: DocumentParams },
  responses: {
    200: {
      description: "The file",
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses,
  },
});

const deleteDocument = createRoute({
  method: "delete",
  path: `${BASE}/{documentId}`,
  tags: TAGS,
  summary: "Delete a KYC document",
  description: `Removes the document's metadata and its encrypted file; answers the metadata. ${SCOPE}`,
  middleware: [requirePermission("kycDocument:write")],
  request: { params: DocumentParams },
  responses: { 200: jsonResponse(DocumentEnvelope, "The deleted document"), ...errorResponses },
});

/** A part's Content-Type as a client sent it, if it looks like one; else the generic one. */
function contentTypeOf(file: File): string {
  const type = file.type.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type) && type.length <= 127
    ? type
    : "application/octet-stream";
}

export function kycDocumentRoutes(app: App, ctx: PluginContext, vault: DocumentVault) {
  const store = documentStore(ctx.db.platform);

  /** The participant of the caller's organisation (404 PARTICIPANT_NOT_FOUND), by its canonical id. */
  async function ownerOf(c: Context<AppEnv>, participantId: string): Promise<DocumentOwner> {
    const chain = await requestChain(c, ctx);
    const participant = await findParticipant(c, ctx.config.INDEX_VIEWS_SCHEMA, chain, participantId);
    return { organizationId: c.get("principal").organizationId, participantId: participant.id };
  }

  app.openapi(uploadDocument, async (c) => {
    const { participantId } = c.req.valid("param");
    const { type, file, claimTopic } = c.req.valid("form");
    const owner = await ownerOf(c, participantId);
    if (file.size > KYC_DOCUMENT_MAX_BYTES) {
      throw new ApiError("PAYLOAD_TOO_LARGE", {
        message: `The file has ${file.size} bytes; a KYC document may have at most ${KYC_DOCUMENT_MAX_BYTES}`,
        details: { maxBytes: KYC_DOCUMENT_MAX_BYTES, size: file.size },
      });
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const id = uuidv7();
    await vault.put(id, bytes);
    let row: KycDocumentRow;
    try {
      row = await store.insert({
        id,
        ...owner,
        type,
        claimTopic: claimTopic ?? null,
        fileName: file.name ? file.name.slice(0, 255) : null,
        contentType: contentTypeOf(file),
        size: bytes.byteLength,
        sha256: sha256Of(bytes),
        uploadedBy: c.get("principal").userId,
      });
    } catch (error) {
      await vault.remove(id); // no file without its row
      throw error;
    }
    const self = linkPath(`${c.req.path}/${id}`);
    c.header("Location", self);
    return c.json({ data: toDocument(row), links: { self } }, 201);
  });

  app.openapi(listDocuments, async (c) => {
    const { participantId } = c.req.valid("param");
    const owner = await ownerOf(c, participantId);
    const query = parseCollectionQuery(new URL(c.req.url).searchParams, KYC_DOCUMENT_COLLECTION);
    const { rows, total, facets } = await runCollection(store.listed(owner), query, KYC_DOCUMENT_COLLECTION);
    return c.json(collection(c, rows.map(toDocument), total, query.page, facets), 200);
  });

  app.openapi(downloadDocument, async (c) => {
    const { participantId, documentId } = c.req.valid("param");
    const owner = await ownerOf(c, participantId);
    const row = await store.find(owner, documentId);
    const bytes = await vault.get(row.id);
    const { userId, apiKeyId } = c.get("principal");
    ctx.logger.info("kyc document read", { ...owner, documentId, userId, apiKeyId, requestId: c.get("requestId") });
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": row.contentType,
      "Content-Disposition": `attachment; filename="${row.id}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    });
  });

  app.openapi(deleteDocument, async (c) => {
    const { participantId, documentId } = c.req.valid("param");
    const owner = await ownerOf(c, participantId);
    const row = await store.delete(owner, documentId);
    await vault.remove(row.id);
    return c.json(single(c, toDocument(row)), 200);
  });
}
