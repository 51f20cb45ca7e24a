// scratch: profile the host during the API load only
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { bootStack } from "../test/support/stack.ts";
import { LIST, seedTransactionRequests } from "./api-throughput.ts";
import { load } from "./load.ts";
const stack = await bootStack({ API_KEY_RATE_LIMIT: "100000000", HOST: "127.0.0.1" });
await seedTransactionRequests(stack);
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.start");
const r = await load(`${stack.platform.baseUrl}${LIST}`, { "x-api-key": stack.platform.credentials.apiKey });
const { profile } = await session.post("Profiler.stop");
writeFileSync("/tmp/api.cpuprofile", JSON.stringify(profile));
console.log(r.requests.average, r.latency.p99);
await stack.stop();
process.exit(0);
