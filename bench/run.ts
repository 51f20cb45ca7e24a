// `npm run bench`: every benchmark, one after the other, printing its figures.
import { benchApiThroughput } from "./api-throughput.ts";
import { benchSlice } from "./slice.ts";

await benchSlice();
await benchApiThroughput();
process.exit(0);
