// Each system's directory: one row per entry the directory holds, under the spec's field name.
import { ponder } from "ponder:registry";
import { directoryEntry } from "ponder:schema";
import { zeroAddress } from "viem";
import { directoryKeyName } from "../domain/directory/directory-keys.ts";
import { systemForRow } from "./catalogue-system.ts";

ponder.on("Directory:DirectoryEntrySet", async ({ event, context }) => {
  const key = directoryKeyName(event.args.key);
  if (!key) return; // the contract refuses unknown keys; a newer one's key is not a field of this API
  const directory = event.log.address;
  if (event.args.value === zeroAddress) {
    await context.db.delete(directoryEntry, { chainId: context.chain.id, directory, key });
    return;
  }
  const entry = { value: event.args.value, updatedAt: event.block.timestamp };
  await context.db
    .insert(directoryEntry)
    .values({
      chainId: context.chain.id,
      directory,
      key,
      system: await systemForRow(context, directory, { table: "directoryEntry", key: { directory, key } }),
      ...entry,
    })
    .onConflictDoUpdate(entry);
});
