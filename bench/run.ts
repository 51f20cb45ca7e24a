// `npm run bench`: every benchmark, one after the other, printing its figures.
import { benchSlice } from "./slice.ts";

await benchSlice();
process.exit(0);
