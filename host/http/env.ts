// What every request carries through the host's middleware.
import type { OpenAPIHono } from "@hono/zod-openapi";

export interface Principal {
  organizationId: string;
  userId: string;
  apiKeyId: string;
  scope: "read" | "read-write";
}

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
  };
}

export type App = OpenAPIHono<AppEnv>;
