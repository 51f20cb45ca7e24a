// The response and body shapes every auth route documents: `{data, links}` on 200 beside the shared error responses,
// and a required JSON body.
import { z } from "@hono/zod-openapi";
import { errorResponses, linksSelf } from "../../host/http/schemas.ts";

export const ok = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  200: { description, content: { "application/json": { schema: z.object({ data: schema, links: linksSelf }) } } },
  ...errorResponses,
});

export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});
