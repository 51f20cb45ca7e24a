// The pre-check of a write whose contract pulls an ERC-20 amount from the signing wallet with transferFrom (an
// add-on's top-up, purchase or settlement leg): the wallet's balance and its allowance to the spender must cover it,
// else a clear 422 naming the asset, the spender and the amount before anything is queued.
import { type Address, erc20Abi, getAddress, type PublicClient } from "viem";
import { ApiError } from "../errors/api-error.ts";

export interface Erc20Pull {
  asset: Address;
  /** The signing wallet the amount leaves. */
  owner: Address;
  /** The contract that calls transferFrom. */
  spender: Address;
  amount: bigint;
}

export async function assertErc20Funds(client: PublicClient, pull: Erc20Pull): Promise<void> {
  const asset = getAddress(pull.asset);
  const owner = getAddress(pull.owner);
  const spender = getAddress(pull.spender);
  const [balance, allowance] = await Promise.all([
    client.readContract({ abi: erc20Abi, address: asset, functionName: "balanceOf", args: [owner] }),
    client.readContract({ abi: erc20Abi, address: asset, functionName: "allowance", args: [owner, spender] }),
  ]);
  const required = pull.amount.toString();
  if (balance < pull.amount) {
    throw new ApiError("ERC20_BALANCE_INSUFFICIENT", {
      message: `The signing wallet ${owner} holds ${balance} of ${asset}; ${required} is required`,
      details: { asset, account: owner, balance: balance.toString(), required },
    });
  }
  if (allowance < pull.amount) {
    throw new ApiError("ERC20_ALLOWANCE_INSUFFICIENT", {
      message: `The signing wallet ${owner} allows ${spender} to spend ${allowance} of ${asset}; ${required} is required`,
      details: { asset, account: owner, spender, allowance: allowance.toString(), required },
    });
  }
}
