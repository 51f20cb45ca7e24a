// PostgreSQL's protocol carries at most 65,535 parameters a statement (the count is 16 bits: past it, node-postgres's
// bind message fails with "bind message has N parameter formats but 0 parameters"). Multi-row writes and long IN
// lists whose size the data decides (a tick of the webhook lifecycle after a big backfill: 100k mints) go in chunks.

/** Rows (or IN-list values) a statement: with up to 30 columns, 30,000 parameters. */
export const ROWS_PER_STATEMENT = 1000;

/** The rows `read` finds for each chunk of `items` (an IN list), together; none when `items` is empty. */
export async function readInChunks<T, R>(items: readonly T[], read: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (const chunk of statementChunks(items)) rows.push(...(await read(chunk)));
  return rows;
}

/** `items` in consecutive chunks of at most `size`; none when `items` is empty. */
export function statementChunks<T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
