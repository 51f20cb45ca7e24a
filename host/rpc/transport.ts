// POST /api/rpc/{procedure} (any other method: 405): the API's operations for browser sessions over oRPC's RPC protocol. A procedure runs its
// REST route through the app itself (same schemas, permissions and handlers: one definition, two transports); the
// route's error comes back as the RPC error with the public object at `data.dapiError`.
import { type AnyRouter, ORPCError, os } from "@orpc/server";
import { RPCHandler } from "@orpc/server/fetch";
import { ResponseHeadersPlugin } from "@orpc/server/plugins";
import { ApiError, badRequest } from "../errors/api-error.ts";
import { rpcError } from "../errors/render.ts";
import type { App } from "../http/env.ts";
import { isJsonContentType } from "../http/json-content-type.ts";
import { documentRpcTransport } from "./document.ts";
import { RPC_PREFIX } from "./path.ts";
import { type Procedure, type RegisteredRoute, rpcProcedures } from "./procedures.ts";
import { restRequest } from "./rest-request.ts";

/** The app.fetch binding that marks a procedure's REST request: its errors in the RPC form, recorded once (as rpc). */
export const RPC_INNER_BINDING = { rpcInner: true } as const;

interface RpcContext {
  request: Request;
  requestId: string;
  resHeaders?: Headers;
}

/** The route's own headers the caller may need (Location, Retry-After, Set-Cookie…), not those of its body. */
const NOT_RETURNED = new Set(["content-type", "content-length", "content-encoding", "x-request-id", "vary"]);

type RpcErrorJson = ReturnType<typeof rpcError>;

function orpcError(json: RpcErrorJson): ORPCError<string, unknown> {
  const { code, status, message, data, defined } = json;
  return new ORPCError(code, { status, message, data, defined });
}

async function runProcedure(app: App, procedure: Procedure, input: unknown, context: RpcContext): Promise<unknown> {
  let request: Request;
  try {
    request = restRequest(procedure, input, context.request);
  } catch (error) {
    if (error instanceof ApiError) throw orpcError(rpcError(error, context.requestId));
    throw error;
  }
  request.headers.set("x-request-id", context.requestId); // one request, one id
  const response = await app.fetch(request, RPC_INNER_BINDING);
  for (const [name, value] of response.headers) if (!NOT_RETURNED.has(name)) context.resHeaders?.append(name, value);
  const text = await response.text();
  const body: unknown =
    text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text || null;
  if (response.ok) return body;
  const json = (body as { json?: RpcErrorJson } | null)?.json;
  if (json) throw orpcError(json);
  throw orpcError(rpcError(new ApiError("INTERNAL_SERVER_ERROR"), context.requestId));
}

/**
 * oRPC calls an error `defined` only when the procedure lists its code; the registry is ours, so an error that carries
 * the registry's public object (every one a procedure throws) stays `defined` through oRPC's check.
 */
const keepDefined = async <T>({ next }: { next: () => Promise<T> }): Promise<T> => {
  try {
    return await next();
  } catch (error) {
    if (error instanceof ORPCError && !error.defined && (error.data as { dapiError?: unknown })?.dapiError) {
      const { code, status, message, data } = error;
      throw new ORPCError(code, { status, message, data, defined: true });
    }
    throw error;
  }
};

/** oRPC's own errors (an input its codec cannot decode) carry no registry object: they are answered as the registry's. */
async function withRegistryError(response: Response): Promise<Response> {
  if (response.ok) return response;
  let json: (RpcErrorJson & { data?: { dapiError?: unknown } }) | undefined;
  try {
    json = ((await response.clone().json()) as { json?: typeof json } | null)?.json;
  } catch {}
  if (json?.data?.dapiError) return response;
  throw json?.status === 400 ? badRequest(json.message) : new ApiError("INTERNAL_SERVER_ERROR");
}

function place(router: Record<string, unknown>, segments: string[], leaf: unknown) {
  let node = router;
  for (const segment of segments.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments.at(-1)!] = leaf;
}

export interface MountedRpc {
  /** The /api/rpc paths of the procedures whose routes are public (sign-in): they need no credential either. */
  publicPaths: string[];
  /** Every procedure's /api/rpc path: its own route template (a path naming no procedure is unmatched). */
  procedurePaths: string[];
}

/** Every method but POST on a procedure: 405 with `Allow: POST`, as a REST path answers a method it lacks. */
function methodNotAllowed(method: string, path: string): ApiError {
  return new ApiError("METHOD_NOT_ALLOWED", {
    message: `${method} is not allowed on ${path}; a procedure answers POST`,
    headers: { Allow: "POST" },
    details: { allow: ["POST"] },
  });
}

/** Serves every procedure of the app's registered /api/v2 routes; call after every plugin's routes are mounted. */
export function mountRpc(app: App, publicRestPaths: Set<string>): MountedRpc {
  // From the registry's route definitions, not a generated document: nothing is generated at start-up.
  const routes = app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === "route" ? [d.route as RegisteredRoute] : [],
  );
  const procedures = rpcProcedures(routes);
  const router: Record<string, unknown> = {};
  const base = os.$context<RpcContext>();
  for (const procedure of procedures)
    place(
      router,
      procedure.name.split("/"),
      base.handler(({ input, context }) => runProcedure(app, procedure, input, context)),
    );
  documentRpcTransport(
    app,
    procedures.map((p) => p.name),
  );
  const handler = new RPCHandler(router as AnyRouter, {
    plugins: [new ResponseHeadersPlugin()],
    interceptors: [keepDefined],
  });
  const procedurePaths = procedures.map((p) => `${RPC_PREFIX}/${p.name}`);
  const known = new Set(procedurePaths);

  app.all(`${RPC_PREFIX}/*`, async (c) => {
    if (!known.has(c.req.path)) throw new ApiError("NOT_FOUND", { message: `No procedure at ${c.req.path}` });
    if (c.req.method !== "POST") throw methodNotAllowed(c.req.method, c.req.path);
    // The body was read by the host's checks; it is handed on from their cache, parsed once to refuse bad JSON here.
    const text = await c.req.text();
    if (text && !isJsonContentType(c.req.header("content-type"))) throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
    try {
      if (text) JSON.parse(text);
    } catch {
      throw badRequest("The body is not valid JSON");
    }
    const request = new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: text });
    const context: RpcContext = { request: c.req.raw, requestId: c.get("requestId") };
    const { matched, response } = await handler.handle(request, { prefix: RPC_PREFIX, context });
    if (!matched) throw new ApiError("NOT_FOUND", { message: `No procedure at ${c.req.path}` });
    return withRegistryError(response);
  });
  return { publicPaths: procedurePaths.filter((_, i) => publicRestPaths.has(procedures[i]!.path)), procedurePaths };
}
