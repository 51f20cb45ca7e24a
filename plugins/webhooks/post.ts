// One delivery's POST (node:http/https with keep-alive agents). Unless private targets are allowed, the address a
// host name resolves to is checked at connect time, in the lookup the socket itself uses: a name that resolved to a
// public address when the endpoint was checked cannot rebind to a private one for the request (DNS rebinding).
import dns, { type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isPrivateAddress } from "./targets.ts";

export interface PostOutcome {
  responseStatus: number | null;
  error: string | null;
  retryAfter: string | null;
}

// Kept-alive sockets are reused by host and port: a socket connected without the check never serves a checked request.
const agentsFor = () => ({
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
});
const agents = { checked: agentsFor(), unchecked: agentsFor() };

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, found) => {
    if (error) return callback(error, "", 0);
    const addresses = found as unknown as LookupAddress[];
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      const refused = Object.assign(new Error(`${hostname} resolves to a loopback, private or link-local address`), {
        code: "EPRIVATETARGET",
      });
      return callback(refused, "", 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
};

/** POSTs `body`; a 2xx within `timeoutMs` succeeds. Redirects are failures, not followed (they could lead anywhere). */
export function postDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const target = new URL(url);
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
        agent: agents[options.allowPrivate ? "unchecked" : "checked"][target.protocol as "http:" | "https:"],
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "asset-platform-webhooks/1",
          ...headers,
        },
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
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
