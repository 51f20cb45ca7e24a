// A file replaced whole or not at all: written beside it, flushed to disk, then renamed over it, so a kill at any
// moment leaves either the old content or the new one (never a torn or empty file).
import { closeSync, existsSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** The file written before it replaces `path` (a leftover one from a kill is overwritten by the next write). */
export const pendingPath = (path: string) => `${path}.tmp`;

/**
 * Replaces `path` with `data` atomically. With `keep`, the replaced content is first renamed to `keep` (the previous
 * good copy): between the two renames only `keep` exists, so a reader that falls back to it still finds one.
 */
export function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  options: { keep?: string; mode?: number } = {},
) {
  const pending = pendingPath(path);
  const fd = openSync(pending, "w", options.mode ?? 0o600);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    fsyncSync(fd); // on disk before the rename makes it the file (a power loss would otherwise expose an empty one)
  } finally {
    closeSync(fd);
  }
  if (options.keep && existsSync(path)) renameSync(path, options.keep);
  renameSync(pending, path);
  syncFolder(dirname(path));
}

/** The renames themselves on disk. */
function syncFolder(folder: string) {
  const fd = openSync(folder, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
