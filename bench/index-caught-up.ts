// A bench run begins once the stack's index has read its chain up to the head: the run then does not share the
// machine with the index catching up on the previous run's blocks.
import { createIndexStatus } from "../host/index-status.ts";
import type { TestStack } from "../test/support/stack.ts";

/** Resolves once the index has read the chain's head of now; throws after `timeoutMs`. */
export async function indexCaughtUp(stack: TestStack, timeoutMs = 120_000): Promise<void> {
  const { chainId } = stack.platform.credentials;
  const head = BigInt((await stack.rpc("eth_blockNumber")) as string);
  if (!(await createIndexStatus(stack.platform.parts.indexerUrl).waitForBlock(chainId, head, timeoutMs)))
    throw new Error(`the index did not reach block ${head} in ${timeoutMs / 1000} s`);
}
