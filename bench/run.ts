// `npm run bench`: every benchmark, one after the other, printing its figures.
// BENCH_ONLY=start,slice,api,logging,mint,index,activity,webhooks,bundler,custody runs a subset.
import { benchActivityReads } from "./activity-reads.ts";
import { benchApiThroughput } from "./api-throughput.ts";
import { benchBundlerThroughput } from "./bundler-throughput.ts";
import { benchCustodyThroughput } from "./custody-throughput.ts";
import { benchIndexingThroughput } from "./indexing-throughput.ts";
import { benchMintThroughput } from "./mint-throughput.ts";
import { benchRequestLogging } from "./request-logging.ts";
import { benchSlice } from "./slice.ts";
import { benchStartToReady } from "./start-to-ready.ts";
import { benchWebhookDeliveries } from "./webhook-deliveries.ts";

const all = {
  start: benchStartToReady,
  slice: benchSlice,
  api: benchApiThroughput,
  logging: benchRequestLogging,
  mint: benchMintThroughput,
  index: benchIndexingThroughput,
  activity: benchActivityReads,
  webhooks: benchWebhookDeliveries,
  bundler: benchBundlerThroughput,
  custody: benchCustodyThroughput,
};
const only = process.env.BENCH_ONLY?.split(",");
for (const [name, bench] of Object.entries(all)) if (!only || only.includes(name)) await bench();
process.exit(0);
