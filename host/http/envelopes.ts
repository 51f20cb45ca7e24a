// The spec's response envelopes. Link paths in v2 bodies are written `/v2/...`.
import type { Context } from "hono";
import type { AppEnv } from "./env.ts";

/** `/api/v2/tokens/0x..` → `/v2/tokens/0x..` */
export function linkPath(path: string): string {
  return path.replace(/^\/api(?=\/v\d+\/)/, "");
}

export function single<T>(c: Context<AppEnv>, data: T) {
  return { data, links: { self: linkPath(c.req.path) } };
}

export interface Page {
  offset: number;
  limit: number;
}

/** Collection: `links.next` exactly when offset + limit < total, `prev` null on the first page. */
export function collection<T>(
  c: Context<AppEnv>,
  data: T[],
  total: number,
  page: Page,
  facets?: Record<string, { value: unknown; count: number }[]>,
) {
  const url = new URL(c.req.url);
  const at = (offset: number) => {
    const params = new URLSearchParams(url.search);
    params.set("page[offset]", String(offset));
    params.set("page[limit]", String(page.limit));
    return `${linkPath(url.pathname)}?${params.toString()}`;
  };
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / page.limit) * page.limit;
  return {
    data,
    meta: { total, ...(facets ? { facets } : {}) },
    links: {
      self: at(page.offset),
      first: at(0),
      prev: page.offset > 0 ? at(Math.max(0, page.offset - page.limit)) : null,
      next: page.offset + page.limit < total ? at(page.offset + page.limit) : null,
      last: at(lastOffset),
    },
  };
}

export interface AcceptedMutation {
  transactionId: string;
  status: string;
  statusUrl: string;
}

export function statusUrl(transactionId: string): string {
  return `/v2/transaction-requests/${transactionId}`;
}

/** 202 accepted-mutation envelope with `Location` equal to `statusUrl`. */
export function accepted(c: Context<AppEnv>, request: { id: string; status: string }) {
  const body: AcceptedMutation = {
    transactionId: request.id,
    status: request.status,
    statusUrl: statusUrl(request.id),
  };
  c.header("Location", body.statusUrl);
  return c.json(body, 202);
}
