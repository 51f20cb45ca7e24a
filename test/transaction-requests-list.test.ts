// GET /api/v2/transaction-requests over HTTP against the real stack: filters, sort, paging links, facets, error codes.
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizationStack } from "./support/shared-stack.ts";
import { json, type TestStack, waitForTerminal } from "./support/stack.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const OTHER_SIGNER = "0x00000000000000000000000000000000000000aa";
const LIST = "/api/v2/transaction-requests";

interface Listed {
  transactionId: string;
  kind: string;
  status: string;
  transactionHash: string | null;
  fromAddress: string;
  description: string | null;
  createdAt: string;
  result: Record<string, unknown> | null;
}

interface ListBody {
  data: Listed[];
  meta: { total: number; facets: Record<string, { value: unknown; count: number }[]> };
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
}

/** A row as the database holds it: the oracle the route's answers are checked against. */
interface StoredRequest {
  id: string;
  kind: string;
  status: string;
  fromAddress: string;
  createdAt: Date;
}

describe("GET /api/v2/transaction-requests", () => {
  let stack: TestStack;
  /** Inserted directly: a FAILED request of the organisation from 2020, and another organisation's request. */
  let failedId: string;
  let otherOrganizationRequestId: string;
  /** Submitted over HTTP after boot (the platform's own boot requests come before them). */
  let create: Listed;
  let mintAlice: Listed;
  let mintBob: Listed;
  /** Every request of the organisation, oldest first (created_at, then id). */
  let stored: StoredRequest[];

  const databaseUrl = () => `postgres://platform:platform@127.0.0.1:${stack.env.EMBEDDED_POSTGRES_PORT}/platform`;
  const newestFirst = (predicate: (r: StoredRequest) => boolean = () => true) =>
    stored
      .filter(predicate)
      .map((r) => r.id)
      .reverse();
  /** `{value, count}` most frequent first, ties by value (the database's C collation orders like JS). */
  const facet = (values: string[]) =>
    [...new Set(values)]
      .map((value) => ({ value, count: values.filter((v) => v === value).length }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  const idsOf = (body: { data: Listed[] }) => body.data.map((r) => r.transactionId);

  async function list(query = ""): Promise<ListBody> {
    const res = await stack.api(`${LIST}${query ? `?${query}` : ""}`);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  async function submit(path: string, payload: unknown): Promise<Listed> {
    const res = await stack.api(path, { method: "POST", body: JSON.stringify(payload) });
    expect(res.status).toBe(202);
    return waitForTerminal(stack, (await json(res)).statusUrl);
  }

  async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    stack = await organizationStack("transaction-requests-list");
    const { organizationId } = stack.platform.credentials;
    await withDatabase(async (client) => {
      const insert = `insert into platform.transaction_requests
        (id, organization_id, kind, status, chain_id, from_address, to_address, data, created_by, error_message,
         created_at, updated_at)
        values ($1, $2, $3, $4, 31337, $5, $5, '0x', 'test', $6, $7, $7)`;
      failedId = uuidv7();
      await client.query(insert, [
        failedId,
        organizationId,
        "token.burn",
        "FAILED",
        OTHER_SIGNER,
        "reverted",
        "2020-01-01Z",
      ]);
      await client.query(
        "insert into platform.organizations (id, name, default_chain_id) values ('other-org-of-request-list', 'Other', 31337)",
      );
      otherOrganizationRequestId = uuidv7();
      await client.query(insert, [
        otherOrganizationRequestId,
        "other-org-of-request-list",
        "token.mint",
        "COMPLETED",
        OTHER_SIGNER,
        null,
        "2030-01-01Z",
      ]);
    });

    create = await submit("/api/v2/tokens", {
      templateId: "deposit",
      name: "List Deposit",
      symbol: "LDP",
      decimals: 2,
    });
    const token = create.result?.tokenAddress as string;
    mintAlice = await submit(`/api/v2/tokens/${token}/mint`, { recipients: [ALICE], amounts: ["100"] });
    mintBob = await submit(`/api/v2/tokens/${token}/mint`, { recipients: [BOB], amounts: ["7"] });

    stored = await withDatabase(async (client) => {
      const { rows } = await client.query(
        `select id, kind, status, from_address as "fromAddress", created_at as "createdAt"
         from platform.transaction_requests where organization_id = $1 order by created_at, id`,
        [organizationId],
      );
      return rows;
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("lists the organisation's requests newest first, serialized like the single read, with total and facets", async () => {
    const body = await list();
    const ids = idsOf(body);
    expect(ids.slice(0, 3)).toEqual([mintBob.transactionId, mintAlice.transactionId, create.transactionId]);
    expect(ids.at(-1)).toBe(failedId);
    expect(ids).toEqual(newestFirst());
    expect(ids).not.toContain(otherOrganizationRequestId);
    expect(stored.length).toBeGreaterThan(4); // the platform's own requests at boot are the organisation's too
    expect(body.data[2]).toEqual(create);
    expect(body.data[2].description).toBe("Create token List Deposit (LDP) from template deposit");
    expect(body.data[1].description).toBe(`Mint 1 LDP to ${ALICE.slice(0, 6)}…${ALICE.slice(-4)}`);
    expect(body.data.at(-1)).toMatchObject({ kind: "token.burn", status: "FAILED", errorMessage: "reverted" });
    expect(body.meta).toEqual({
      total: stored.length,
      facets: { status: facet(stored.map((r) => r.status)), kind: facet(stored.map((r) => r.kind)) },
    });
    expect(body.meta.facets.kind).toContainEqual({ value: "token.mint", count: 2 });
    expect(body.meta.facets.status).toContainEqual({ value: "FAILED", count: 1 });
    expect(body.links).toMatchObject({ prev: null, next: null });
    expect(body.links.self.startsWith("/v2/transaction-requests?")).toBe(true);
  });

  it("filters by status, counting facets over the filtered set", async () => {
    const completed = stored.filter((r) => r.status === "COMPLETED");
    const body = await list("filter[status]=COMPLETED");
    expect(idsOf(body)).toEqual(newestFirst((r) => r.status === "COMPLETED"));
    expect(idsOf(body).slice(0, 3)).toEqual([mintBob.transactionId, mintAlice.transactionId, create.transactionId]);
    expect(body.data.every((r) => r.status === "COMPLETED")).toBe(true);
    expect(body.meta.total).toBe(completed.length);
    expect(body.meta.facets.status).toEqual([{ value: "COMPLETED", count: completed.length }]);
    expect(body.meta.facets.kind).toEqual(facet(completed.map((r) => r.kind)));
    expect(idsOf(await list("filter[status][ne]=COMPLETED"))).toEqual(newestFirst((r) => r.status !== "COMPLETED"));
    expect(idsOf(await list("filter[status][inArray]=FAILED,CANCELLED"))).toEqual([failedId]);
  });

  it("filters by kind, chain, address, hash and time; filter[q] searches kind and hash", async () => {
    const tokenKinds = ["token.create", "token.mint"];
    expect(idsOf(await list("filter[kind][inArray]=token.create,token.mint"))).toEqual([
      mintBob.transactionId,
      mintAlice.transactionId,
      create.transactionId,
    ]);
    expect(idsOf(await list("filter[kind][notInArray]=token.create,token.mint"))).toEqual(
      newestFirst((r) => !tokenKinds.includes(r.kind)),
    );
    expect(idsOf(await list("filter[kind]=token.create"))).toEqual([create.transactionId]);
    expect(idsOf(await list("filter[kind][iLike]=token.%25"))).toEqual(newestFirst((r) => r.kind.startsWith("token.")));
    expect((await list("filter[chainId]=31337")).meta.total).toBe(stored.length);
    expect((await list("filter[chainId]=1")).meta.total).toBe(0);
    expect(idsOf(await list(`filter[fromAddress]=${getAddress(create.fromAddress)}`))).toEqual(
      newestFirst((r) => r.fromAddress === create.fromAddress),
    );
    expect(idsOf(await list(`filter[fromAddress][ne]=${create.fromAddress}`))).toEqual([failedId]);

    const hash = create.transactionHash!;
    expect(idsOf(await list(`filter[transactionHash]=0x${hash.slice(2).toUpperCase()}`))).toEqual([
      create.transactionId,
    ]);
    expect(idsOf(await list("filter[transactionHash][isEmpty]"))).toEqual([failedId]);
    expect(idsOf(await list("filter[q]=MINT"))).toEqual([mintBob.transactionId, mintAlice.transactionId]);
    expect(idsOf(await list(`filter[q]=${hash.slice(10, 30)}`))).toEqual([create.transactionId]);

    expect(idsOf(await list("filter[createdAt][gte]=2021-01-01"))).toEqual(newestFirst((r) => r.id !== failedId));
    expect(idsOf(await list("filter[updatedAt][lt]=2021-01-01T00:00:00Z"))).toEqual([failedId]);
    // The database keeps microseconds, the API milliseconds: bound 1 ms past the create so that it is included.
    const until = Date.parse(create.createdAt) + 1;
    expect(idsOf(await list(`filter[createdAt][between]=2019-12-31,${new Date(until).toISOString()}`))).toEqual(
      newestFirst((r) => r.createdAt.getTime() < until),
    );

    const injection = encodeURIComponent("'; drop table platform.organizations; --");
    expect(idsOf(await list(`filter[kind]=${injection}`))).toEqual([]);
    expect(idsOf(await list(`filter[q]=${injection}`))).toEqual([]);
    expect((await list()).meta.total).toBe(stored.length);
  });

  it("sorts by one field either way, ties broken by id in the same direction", async () => {
    const oldestFirst = stored.map((r) => r.id);
    expect(idsOf(await list("sort=createdAt"))).toEqual(oldestFirst);
    expect(idsOf(await list("sort=-createdAt"))).toEqual([...oldestFirst].reverse());
    const byKind = [...stored].sort((a, b) => (a.kind === b.kind ? (a.id < b.id ? -1 : 1) : a.kind < b.kind ? -1 : 1));
    expect(idsOf(await list("sort=kind"))).toEqual(byKind.map((r) => r.id));
    expect(idsOf(await list("sort=-kind"))).toEqual(byKind.map((r) => r.id).reverse());
    const mints = idsOf(await list("sort=kind&filter[kind]=token.mint"));
    expect(mints).toEqual([mintAlice.transactionId, mintBob.transactionId]);
    const statuses = stored.map((r) => r.status).sort();
    expect((await list("sort=-status")).data.map((r) => r.status)).toEqual([...statuses].reverse());
    expect((await list("sort=updatedAt")).data[0].transactionId).toBe(failedId);
  });

  it("pages with links: next exactly while offset + limit < total", async () => {
    const first = await list("page[limit]=3");
    expect(idsOf(first)).toEqual([mintBob.transactionId, mintAlice.transactionId, create.transactionId]);
    expect(first.meta.total).toBe(stored.length);
    expect(first.links.prev).toBeNull();
    const next = new URL(first.links.next!, "http://x");
    expect(next.pathname).toBe("/v2/transaction-requests");
    expect(Object.fromEntries(next.searchParams)).toEqual({ "page[offset]": "3", "page[limit]": "3" });

    // Follow links.next (a /v2 path) to the end: every request once, in order.
    const seen = idsOf(first);
    let link: string | null = first.links.next;
    while (link) {
      const page: ListBody = await json(await stack.api(link));
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.links.prev).not.toBeNull();
      seen.push(...idsOf(page));
      link = page.links.next;
    }
    expect(seen).toEqual(newestFirst());

    const filtered = await list("filter[status]=COMPLETED&sort=-createdAt&page[offset]=1&page[limit]=1");
    expect(idsOf(filtered)).toEqual([mintAlice.transactionId]);
    const filteredNext = new URL(filtered.links.next!, "http://x").searchParams;
    expect(filteredNext.get("filter[status]")).toBe("COMPLETED");
    expect(filteredNext.get("sort")).toBe("-createdAt");
    expect(filteredNext.get("page[offset]")).toBe("2");
    const lastOffset = stored.filter((r) => r.status === "COMPLETED").length - 1;
    const last = await list(`filter[status]=COMPLETED&page[offset]=${lastOffset}&page[limit]=1`);
    expect(last.data).toHaveLength(1);
    expect(last.links.next).toBeNull();
  });

  it("answers each collection error with its code and id", async () => {
    const members = Array.from({ length: 101 }, (_, i) => `k${i}`).join(",");
    const cases: [string, string, string, Record<string, unknown>?][] = [
      ["sort=kind,-createdAt", "COLLECTION_SORT_MULTI_FIELD_UNSUPPORTED", "SVC-9276"],
      [
        "sort=chainId",
        "COLLECTION_SORT_FIELD_UNKNOWN",
        "SVC-9277",
        { sortableFields: ["status", "kind", "createdAt", "updatedAt"] },
      ],
      [
        "filter[toAddress]=0x1",
        "COLLECTION_FILTER_FIELD_UNKNOWN",
        "SVC-9278",
        {
          field: "toAddress",
          filterableFields: ["status", "kind", "chainId", "fromAddress", "transactionHash", "createdAt", "updatedAt"],
        },
      ],
      [
        "filter[status][iLike]=COMP",
        "COLLECTION_FILTER_OPERATOR_UNKNOWN",
        "SVC-9279",
        { field: "status", operator: "iLike", supportedOperators: ["eq", "ne", "inArray", "notInArray"] },
      ],
      [`filter[kind][inArray]=${members}`, "COLLECTION_FILTER_IN_LIST_TOO_LARGE", "SVC-9273"],
      ["page[limit]=201", "COLLECTION_PAGE_LIMIT_OUT_OF_RANGE", "SVC-9274"],
      ["page[limit]=0", "COLLECTION_PAGE_LIMIT_OUT_OF_RANGE", "SVC-9274"],
      ["page[offset]=10001", "COLLECTION_PAGE_OFFSET_OUT_OF_RANGE", "SVC-9275"],
      ["page[offset]=-1", "COLLECTION_PAGE_OFFSET_OUT_OF_RANGE", "SVC-9275"],
      ["page[offset]=1.5", "COLLECTION_PAGE_OFFSET_OUT_OF_RANGE", "SVC-9275"],
    ];
    for (const [query, code, id, data] of cases) {
      const res = await stack.api(`${LIST}?${query}`);
      const body = await json(res);
      expect(res.status, query).toBe(400);
      expect(body, query).toMatchObject({ code, status: 400, data: { id, ...data } });
    }
  });

  it("refuses flat keys and unparsable values with BAD_REQUEST naming the field", async () => {
    const sortBy = await json(await stack.api(`${LIST}?sortBy=createdAt&sortDirection=desc`));
    expect(sortBy).toMatchObject({
      code: "BAD_REQUEST",
      status: 400,
      message: "sortBy is not supported; send sort=<field> (prefix - for descending)",
      data: { id: "SVC-0001" },
    });
    expect((await json(await stack.api(`${LIST}?limit=5`))).message).toBe("limit is not supported; send page[limit]");
    expect((await json(await stack.api(`${LIST}?offset=5`))).message).toBe(
      "offset is not supported; send page[offset]",
    );
    expect((await json(await stack.api(`${LIST}?filters=x`))).message).toContain("filter[<field>]");

    for (const [query, path] of [
      ["filter[createdAt][gt]=yesterday", "filter.createdAt"],
      ["filter[chainId]=1.5", "filter.chainId"],
      ["filter[status]=DONE", "filter.status"],
    ]) {
      const res = await stack.api(`${LIST}?${query}`);
      expect(res.status, query).toBe(400);
      const body = await json(res);
      expect(body).toMatchObject({ code: "BAD_REQUEST", data: { id: "SVC-0001" } });
      expect(body.message).toContain(path);
      expect(body.data.issues[0].path).toBe(path);
    }
  });
});
