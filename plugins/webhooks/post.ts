// One delivery's POST (node:http/https with keep-alive agents). The socket connects through a lookup that resolves the
// host name, checks every address it resolves to against the target policy (targets.ts) and hands the socket only
// those checked addresses: a name that resolved to an allowed address when the endpoint was checked cannot rebind to
// another for the request (DNS rebinding), and an address literal is checked the same way.
import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { type Resolve, refusedAddress, systemResolve, type TargetPolicy } from "./targets.ts";

export interface PostOutcome {
  responseStatus: number | null;
  error: string | null;
  retryAfter: string | null;
}

// Kept-alive sockets are reused by host and port: one pool per policy, so a socket connected under one never serves
// a request under another (one policy a process, but tests of parts use several).
const agentsByPolicy = new WeakMap<TargetPolicy, { "http:": http.Agent; "https:": https.Agent }>();
function agentsFor(policy: TargetPolicy) {
  let agents = agentsByPolicy.get(policy);
  if (!agents) {
    agents = {
      "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
      "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
    };
    agentsByPolicy.set(policy, agents);
  }
  return agents;
}

/** The socket's lookup: every resolved address checked, and only checked addresses returned to connect to. */
export function checkedLookup(policy: TargetPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    const refuse = (message: string) => callback(Object.assign(new Error(message), { code: "EWEBHOOKTARGET" }), "", 0);
    const found = isIP(hostname) ? Promise.resolve([hostname]) : resolve(hostname);
    found.then(
      (addresses) => {
        if (addresses.length === 0) return refuse(`${hostname} does not resolve`);
        for (const address of addresses) {
          const refused = refusedAddress(address, policy);
          if (refused) return refuse(`${hostname} resolves to ${refused}`);
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable: LookupAddress[] = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => wanted === undefined || a.family === wanted);
        if (usable.length === 0) return refuse(`${hostname} has no IPv${wanted} address`);
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        const [first] = usable as [LookupAddress];
        callback(null, first.address, first.family);
      },
      (error: Error) =>
        callback(Object.assign(error, { code: (error as { code?: string }).code ?? "ENOTFOUND" }), "", 0),
    );
  };
}

/** POSTs `body`; a 2xx within `timeoutMs` succeeds. Redirects are failures, not followed (they could lead anywhere). */
export function postDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; policy: TargetPolicy; resolve?: Resolve },
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const target = new URL(url);
    // A socket never looks an address literal up: it is checked here instead.
    const literal = target.hostname.replace(/^\[|\]$/g, "");
    const refusedLiteral = isIP(literal) ? refusedAddress(literal, options.policy) : null;
    if (refusedLiteral) return resolve({ responseStatus: null, error: refusedLiteral, retryAfter: null });
    const transport = target.protocol === "https:" ? https : http;
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = transport.request(
      target,
      {
        method: "POST",
        agent: agentsFor(options.policy)[target.protocol as "http:" | "https:"],
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "asset-platform-webhooks/1",
          ...headers,
        },
        lookup: checkedLookup(options.policy, options.resolve ?? systemResolve),
      },
      (response) => {
        response.resume(); // the body is not read
        const status = response.statusCode ?? 0;
        const retryAfter = response.headers["retry-after"];
        finish({
          responseStatus: status,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
          retryAfter: typeof retryAfter === "string" ? retryAfter : null,
        });
      },
    );
    const timer = setTimeout(() => {
      finish({ responseStatus: null, error: `no response within ${options.timeoutMs / 1000} s`, retryAfter: null });
      request.destroy();
    }, options.timeoutMs);
    request.on("error", (error) => finish({ responseStatus: null, error: String(error), retryAfter: null }));
    request.end(body);
  });
}
