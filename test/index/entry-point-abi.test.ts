// The EntryPoint events the index follows (abis/EntryPoint.ts, written by hand) are the deployed artifact's.
import type { AbiEvent } from "viem";
import { formatAbiItem } from "viem/utils";
import { describe, expect, it } from "vitest";
import { EntryPointAbi } from "../../abis/EntryPoint.ts";
import { accountAbstractionArtifact } from "../../host/chain/entry-point.ts";

describe("abis/EntryPoint.ts", () => {
  it.each(["0.8", "0.7"] as const)(
    "declares events of @account-abstraction/contracts' EntryPoint v%s, indexed parameters included",
    (version) => {
      const signature = (item: AbiEvent) =>
        `${formatAbiItem(item)} ${item.inputs.map((input) => `${input.name}:${input.indexed === true}`).join(",")}`;
      const artifact = accountAbstractionArtifact("EntryPoint", version).abi.filter(
        (item): item is AbiEvent => item.type === "event",
      );
      const known = new Set(artifact.map(signature));
      for (const item of EntryPointAbi) expect(known).toContain(signature(item));
    },
  );
});
