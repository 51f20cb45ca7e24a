// What `npm start` sets unless the environment gives it: the embedded chain mines a block a second, as a real chain
// does, so a burst of writes fills a few blocks (the index fetches a block at a time) and an idle chain still grows,
// so indexed webhook events become final (WEBHOOK_REORG_DEPTH blocks). The benchmarks measure the same setting.
export const START_DEFAULTS: Readonly<Record<string, string>> = {
  ANVIL_MINING: "interval",
  ANVIL_BLOCK_TIME_SECONDS: "1",
};
