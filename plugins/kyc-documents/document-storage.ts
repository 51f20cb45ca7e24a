// Where the documents' encrypted files live: a backend with three operations, so another (an object store) can take
// the directory's place. The directory backend writes each file whole (a temporary name, then a rename), 0600 in a
// 0700 directory; names are the documents' ids, never anything a client sent.
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface DocumentStorage {
  write(name: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or undefined when there are none under the name. */
  read(name: string): Promise<Buffer | undefined>;
  /** Removes the bytes; nothing to remove is not an error. */
  remove(name: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9-]{1,64}$/;

function checked(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Not a storage name: ${JSON.stringify(name.slice(0, 80))}`);
  return name;
}

export function directoryStorage(dir: string): DocumentStorage {
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true, mode: 0o700 });
    return ready;
  };
  const pathOf = (name: string) => join(dir, `${checked(name)}.sealed`);
  return {
    async write(name, bytes) {
      const path = pathOf(name);
      await ensureDir();
      const partial = `${path}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, bytes, { mode: 0o600, flag: "wx" });
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async read(name) {
      try {
        return await readFile(pathOf(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async remove(name) {
      await rm(pathOf(name), { force: true });
    },
  };
}
