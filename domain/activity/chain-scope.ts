// The `system` of activity events that belong to no organisation's system: the ERC-4337 EntryPoint's (user
// operations, deposits) and the smart wallets' (factory and accounts). Every organisation's feeds include them, for
// the addresses the caller may read.
import { zeroAddress } from "viem";

export const CHAIN_SCOPE = zeroAddress;
