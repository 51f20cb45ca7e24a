// `npm run bench`: every benchmark, one after the other, printing its figures.
// BENCH_ONLY=slice,api,mint,index,activity runs a subset.
import { benchActivityReads } from "./activity-reads.ts";
import { benchApiThroughput } from "./api-throughput.ts";
import { benchIndexingThroughput } from "./indexing-throughput.ts";
import { benchMintThroughput } from "./mint-throughput.ts";
import { benchSlice } from "./slice.ts";

const all = {
  slice: benchSlice,
  api: benchApiThroughput,
  mint: benchMintThroughput,
  index: benchIndexingThroughput,
  activity: benchActivityReads,
};
const only = process.env.BENCH_ONLY?.split(",");
for (const [name, bench] of Object.entries(all)) if (!only || only.includes(name)) await bench();
process.exit(0);
