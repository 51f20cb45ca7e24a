// The routes' shapes (zod, so validation and the OpenAPI document agree): the multipart upload, the document's
// metadata, the path parameters.

import { z } from "@hono/zod-openapi";
import { ParticipantPathParams } from "../../host/http/schemas.ts";

/** The largest file a document may be: 10 MiB (10,485,760 bytes). */
export const KYC_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The body the upload route reads at most: the file, the other fields and the multipart framing. */
export const KYC_UPLOAD_MAX_BODY_BYTES = KYC_DOCUMENT_MAX_BYTES + 64 * 1024;

export const DocumentTypeSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/,
    "1 to 64 letters, digits, spaces, _ . -, starting with a letter or digit",
  )
  .openapi({ description: "What the document is, in the organisation's words", example: "passport" });

export const KycDocumentUploadSchema = z
  .object({
    type: DocumentTypeSchema,
    file: z.instanceof(File, { message: "a file part is required" }).openapi({
      type: "string",
      format: "binary",
      description: `The document, at most ${KYC_DOCUMENT_MAX_BYTES} bytes (10 MiB); its part's Content-Type is kept`,
    }),
    claimTopic: z.string().trim().min(1).max(100).optional().openapi({
      description: "The claim topic the document is evidence for (e.g. kyc)",
      example: "kyc",
    }),
  })
  .openapi("KycDocumentUpload");

export const Sha256Schema = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/)
  .openapi({ description: "SHA-256 of the file's bytes", example: `0x${"ab".repeat(32)}` });

export const KycDocumentSchema = z
  .object({
    id: z.string(),
    participantId: z.string(),
    type: z.string(),
    claimTopic: z.string().nullable(),
    fileName: z.string().nullable().openapi({ description: "The name the uploaded file had, if it had one" }),
    contentType: z.string(),
    size: z.number().int().openapi({ description: "Bytes of the file" }),
    sha256: Sha256Schema,
    uploadedBy: z.string().openapi({ description: "The user who uploaded it" }),
    uploadedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("KycDocument");

export const ParticipantParams = ParticipantPathParams;

export const DocumentParams = ParticipantParams.extend({
  documentId: z
    .string()
    .uuid()
    .openapi({ param: { name: "documentId", in: "path" }, example: "0190f7a4-5b1e-7c3d-9a2b-1c2d3e4f5a6b" }),
});
