// Organisations over HTTP against the real stack: a signed-in person creates an organisation while reading its
// deployment stream (server-sent events parsed frame by frame) to `complete`; the organisation is then usable; a
// repeat with the same Idempotency-Key answers the same ids; a step the chain refuses (the funder cannot pay
// ORG_FUNDING_WEI a second time) ends with `complete` success false and its `wireError`, and the same key resumes it to success.
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_FUNDER_KEY } from "../scripts/infra/anvil.ts";
import { type Operator, operator } from "./support/organizations.ts";
import { bootStack, json, type TestStack } from "./support/stack.ts";

/**
 * Half of what anvil's funder holds (10,000 ETH): the first start funds the first organisation's signer, after which
 * the funder cannot pay a second one until the test tops it up.
 */
const FUNDING_WEI = 5000n * 10n ** 18n;

interface SseEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
  data: any;
}

/** Reads a text/event-stream to its end: frames split on blank lines, `event:` and `data:` fields, comments skipped. */
async function readEvents(res: Response): Promise<SseEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: SseEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const take = (frame: string) => {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split(/\r\n|\r|\n/)) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join("\n")) });
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const frames = buffer.split(/\r?\n\r?\n/);
    buffer = frames.pop() ?? "";
    for (const frame of frames) take(frame);
  }
  if (buffer.trim()) take(buffer);
  return events;
}

/** The tree's nodes flattened, with every later update applied by nodeId. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
function finalNodes(events: SseEvent[]): Map<string, any> {
  const tree = events.find((e) => e.event === "tree");
  expect(tree).toBeDefined();
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
  const nodes = new Map<string, any>();
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
  const walk = (node: any) => {
    nodes.set(node.nodeId, node);
    for (const child of node.children) walk(child);
  };
  for (const root of tree!.data.nodes) walk(root);
  for (const { data } of events.filter((e) => e.event === "update")) {
    expect(nodes.has(data.nodeId)).toBe(true);
    nodes.set(data.nodeId, { ...nodes.get(data.nodeId), ...data });
  }
  return nodes;
}

describe("organisations over HTTP and their deployment stream", () => {
  let stack: TestStack;
  let op: Operator;
  let cookie: string;

  const asSession = (init: RequestInit = {}) => ({
    ...init,
    key: null,
    headers: { ...(init.headers as Record<string, string>), cookie },
  });
  const createOrganization = (body: unknown, idempotencyKey: string) =>
    stack.api(
      "/api/v2/organizations",
      asSession({ method: "POST", body: JSON.stringify(body), headers: { "idempotency-key": idempotencyKey } }),
    );
  const follow = async (deploymentId: string) =>
    readEvents(await stack.api(`/api/v2/organizations/deploy/${deploymentId}/stream`, asSession()));

  beforeAll(async () => {
    stack = await bootStack({ ORG_FUNDING_WEI: String(FUNDING_WEI) });
    op = operator(stack);
    // A person of the first organisation (an active organisation to sign in to), with a password.
    const { email } = await op.person(stack.platform.credentials.organizationId, "member", {
      password: "pw-for-tests",
    });
    const res = await stack.api("/api/v2/auth/sign-in", {
      key: null,
      method: "POST",
      body: JSON.stringify({ email, password: "pw-for-tests" }),
    });
    expect(res.status).toBe(200);
    cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith("svc_session="))!
      .split(";")[0];
  });

  afterAll(async () => {
    await op?.close();
    await stack?.stop();
  });

  it("a step the chain refuses ends the stream with its wireError; the same key resumes it to success", async () => {
    const accepted = await createOrganization({ name: "Refused at first" }, "resume-me");
    expect(accepted.status).toBe(202);
    const first = await json(accepted);
    expect(first).toMatchObject({ status: "running", organizationId: expect.any(String) });
    expect(accepted.headers.get("idempotency-key")).toBe("resume-me");
    expect(accepted.headers.get("idempotent-replayed")).toBeNull();
    expect(accepted.headers.get("location")).toBe(`/v2/organizations/deploy/${first.deploymentId}/stream`);

    const failed = await follow(first.deploymentId);
    expect(failed.at(0)?.event).toBe("tree");
    expect(failed.at(-1)?.event).toBe("complete");
    const complete = failed.at(-1)!.data;
    expect(complete.success).toBe(false);
    expect(complete.failedSteps).toHaveLength(1);
    const [step] = complete.failedSteps;
    expect(step.nodeId).toBe("funding");
    expect(step.wireError).toMatchObject({
      id: "SVC-9621",
      category: "dependency",
      status: 502,
      retryable: true,
      details: { code: "ORGANIZATION_DEPLOYMENT_STEP_FAILED", nodeId: "funding", reason: expect.any(String) },
    });
    const nodes = finalNodes(failed);
    expect(nodes.get("organization").status).toBe("succeeded");
    expect(nodes.get("custody").status).toBe("succeeded");
    expect(nodes.get("funding")).toMatchObject({ status: "failed", wireError: step.wireError });
    expect(nodes.get("system").status).toBe("pending");

    // The cause resolved (the funder can pay now), the same key resumes the failed step: the same organisation.
    const funder = privateKeyToAccount(ANVIL_FUNDER_KEY).address;
    await stack.rpc("anvil_setBalance", [funder, `0x${(FUNDING_WEI * 100n).toString(16)}`]);
    const again = await createOrganization({ name: "Refused at first" }, "resume-me");
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toMatchObject({
      organizationId: first.organizationId,
      deploymentId: first.deploymentId,
      status: "running",
    });
    const resumed = await follow(first.deploymentId);
    expect(resumed.at(-1)).toMatchObject({ event: "complete", data: { success: true, failedSteps: [] } });
    for (const node of finalNodes(resumed).values())
      expect(node).toMatchObject({ status: "succeeded", wireError: null });
    const { rows } = await op.db.pool.query("select count(*)::int as n from platform.organizations where name = $1", [
      "Refused at first",
    ]);
    expect(rows[0].n).toBe(1);
  });

  it("creates an organisation while its stream is read to complete, and the organisation is usable", async () => {
    const accepted = await createOrganization({ name: "Streamed Ltd" }, "streamed-1");
    expect(accepted.status).toBe(202);
    const { organizationId, deploymentId } = await json(accepted);

    const events = await follow(deploymentId);
    const tree = events[0];
    expect(tree.event).toBe("tree");
    expect(tree.data).toMatchObject({ deploymentId, organizationId, status: "running" });
    expect(tree.data.nodes).toHaveLength(1);
    expect(tree.data.nodes[0].nodeId).toBe("organization");
    // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON
    expect(tree.data.nodes[0].children.map((n: any) => n.nodeId)).toEqual(["custody", "funding", "system", "index"]);
    const updates = events.filter((e) => e.event === "update");
    expect(updates.length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ event: "complete", data: { deploymentId, success: true, failedSteps: [] } });
    expect(events.filter((e) => e.event === "complete")).toHaveLength(1);
    const nodes = finalNodes(events);
    for (const node of nodes.values()) expect(node.status).toBe("succeeded");
    const system = nodes.get("system").detail;
    expect(system).toMatchObject({ transactionId: expect.any(String), systemAddress: expect.stringMatching(/^0x/) });
    expect(nodes.get("index").detail.systemAddress).toBe(system.systemAddress);

    // The session now works in the new organisation, as its owner: a key of it reads the system's directory.
    const session = await json(await stack.api("/api/v2/auth/session", asSession()));
    expect(session.data).toMatchObject({ organizationId, roles: ["owner"] });
    const keyRes = await stack.api(
      "/api/v2/api-keys",
      asSession({ method: "POST", body: JSON.stringify({ name: "new org", scope: "read" }) }),
    );
    expect(keyRes.status).toBe(201);
    const key = (await json(keyRes)).data.key;
    const directory = await stack.api("/api/v2/system/directory", { key });
    expect(directory.status).toBe(200);
    const { rows: chains } = await op.db.pool.query(
      "select system_address, contracts->>'directory' as directory from platform.organization_chains where organization_id = $1",
      [organizationId],
    );
    expect(chains[0].system_address).toBe(system.systemAddress);
    expect((await json(directory)).data.id.toLowerCase()).toBe(chains[0].directory.toLowerCase());

    // A repeat with the same key: the same ids, no second organisation, nothing to resume.
    const repeat = await createOrganization({ name: "Streamed Ltd" }, "streamed-1");
    expect(repeat.status).toBe(202);
    expect(await json(repeat)).toMatchObject({ organizationId, deploymentId, status: "succeeded" });
    const replayed = await follow(deploymentId);
    expect(replayed.map((e) => e.event)).toEqual(["tree", "complete"]);
    // The same key asking for another organisation is refused.
    const reused = await createOrganization({ name: "Something else" }, "streamed-1");
    expect(reused.status).toBe(409);
    expect((await json(reused)).code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("another organisation's deployment, or an unknown one, is not found before the stream starts", async () => {
    const { deploymentId } = await json(await createOrganization({ name: "Private Co" }, "private-1"));
    // The first organisation's API key: its organisation is not the deployment's.
    const other = await stack.api(`/api/v2/organizations/deploy/${deploymentId}/stream`);
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json(other)).toMatchObject({ code: "ORGANIZATION_DEPLOYMENT_NOT_FOUND", data: { id: "SVC-9620" } });
    // The creator pinning the first organisation (where they are a member) does not see it either.
    const pinned = await stack.api(
      `/api/v2/organizations/deploy/${deploymentId}/stream`,
      asSession({ headers: { "x-organization-id": stack.platform.credentials.organizationId } }),
    );
    expect(pinned.status).toBe(404);
    const unknown = await stack.api("/api/v2/organizations/deploy/01900000-0000-7000-8000-000000000000/stream");
    expect(unknown.status).toBe(404);
    await follow(deploymentId); // its own stream still reads to the end
  });

  it("refuses API keys and bad input before creating anything", async () => {
    const byKey = await stack.api("/api/v2/organizations", { method: "POST", body: JSON.stringify({ name: "Keyed" }) });
    expect(byKey.status).toBe(403);
    expect((await json(byKey)).code).toBe("SESSION_POLICY_DENIED");
    const chain = await createOrganization({ name: "Elsewhere", chainId: 999 }, "chain-1");
    expect(chain.status).toBe(400);
    expect((await json(chain)).code).toBe("CHAIN_NOT_AVAILABLE_FOR_ORGANIZATION");
    const blank = await createOrganization({ name: "  " }, "blank-1");
    expect(blank.status).toBe(400);
    const { rows } = await op.db.pool.query(
      "select count(*)::int as n from platform.organizations where name in ('Keyed', 'Elsewhere')",
    );
    expect(rows[0].n).toBe(0);
  });
});
