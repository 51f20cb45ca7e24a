// A statement whose commit need not wait for the disk (synchronous_commit off for its own transaction only): for a
// write a crash may lose because something else makes it up, e.g. a bundling run's wake (the wake sweep) or an
// accepted mark (the row's re-validation). Used as `from ${unflushedCommit} as unflushed`, so the setting is read.
import { sql } from "kysely";

export const unflushedCommit = sql`(select set_config('synchronous_commit', 'off', true))`;
