// PostgreSQL's protocol carries at most 65,535 parameters a statement (the count is 16 bits: past it, node-postgres's
// bind message fails with "bind message has N parameter formats but 0 parameters"). Multi-row writes and long IN
// lists whose size the data decides (a tick of the webhook lifecycle after a big backfill: 100k mints) go in chunks.

/** Rows (or IN-list values) a statement: with up to 30 columns, 30,000 parameters. */
export const ROWS_PER_STATEMENT = 1000;

/** `items` in consecutive chunks of at most `size`; none when `items` is empty. */
export function statementChunks<T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
