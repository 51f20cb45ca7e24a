// Calls on a token contract, ABI-encoded, and the list parameters of batch routes as the ABI takes them.
import { type Address, encodeFunctionData, getAddress, type Hex } from "viem";
import { TokenAbi } from "../../abis/Token.ts";

type TokenCall = Parameters<typeof encodeFunctionData<typeof TokenAbi>>[0];
export const tokenCall = (args: Omit<TokenCall, "abi">): Hex =>
  encodeFunctionData({ abi: TokenAbi, ...args } as TokenCall);

/** Several calls of the caller's own as one transaction, through the token's multicall (msg.sender is kept). */
export function asOneCall(calls: Hex[]): Hex {
  return calls.length === 1
    ? calls[0]
    : encodeFunctionData({ abi: TokenAbi, functionName: "multicall", args: [calls] });
}

export const addresses = (list: string[]): Address[] => list.map((a) => getAddress(a));
export const amounts = (list: string[]) => list.map((a) => BigInt(a));
