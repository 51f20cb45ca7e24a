// The signer set and threshold a smart wallet's creation body asks for, checked before anything is written.
import { zeroAddress } from "viem";
import { ApiError } from "../../host/errors/api-error.ts";
import { isUint64FromOne } from "./schemas.ts";
import type { WalletSigner } from "./tables.ts";

export interface CreationBody {
  validatorType?: "ecdsa" | "weighted-multisig";
  signers?: { address: string; weight?: string }[];
  threshold?: string;
}

/**
 * The signer set and threshold a creation body asks for, checked (a repeat's body too); `signers` is undefined for
 * the default, the participant's custody wallet.
 */
export function requestedSigners(body: CreationBody): {
  validatorType: "ecdsa" | "weighted-multisig";
  signers?: WalletSigner[];
  threshold: string;
} {
  const validatorType = body.validatorType ?? (body.signers && body.threshold ? "weighted-multisig" : "ecdsa");
  if (validatorType === "ecdsa") {
    if ((body.signers?.length ?? 0) > 1 || (body.threshold !== undefined && body.threshold !== "1"))
      throw new ApiError("SMART_WALLET_SIGNERS_INVALID", {
        message: "An ecdsa wallet has one signer and threshold 1; use validatorType weighted-multisig for more",
      });
    const signer = body.signers?.[0]?.address;
    return {
      validatorType,
      signers: signer ? [{ address: signer.toLowerCase(), weight: "1" }] : undefined,
      threshold: "1",
    };
  }
  if (!body.signers?.length)
    throw new ApiError("SMART_WALLET_SIGNERS_INVALID", { message: "A weighted-multisig wallet needs signers" });
  if (body.threshold === undefined || !isUint64FromOne(body.threshold))
    throw new ApiError("SMART_WALLET_THRESHOLD_INVALID", { details: { threshold: body.threshold ?? null } });
  const list: WalletSigner[] = body.signers.map((s) => ({ address: s.address.toLowerCase(), weight: s.weight ?? "1" }));
  const seen = new Set<string>();
  for (const s of list) {
    if (s.address === zeroAddress || seen.has(s.address))
      throw new ApiError("SMART_WALLET_SIGNERS_INVALID", {
        message: `Signer ${s.address} is the zero address or listed twice`,
        details: { signer: s.address },
      });
    seen.add(s.address);
  }
  const total = list.reduce((sum, s) => sum + BigInt(s.weight), 0n);
  if (BigInt(body.threshold) > total)
    throw new ApiError("SMART_WALLET_SIGNERS_INVALID", {
      message: `The threshold ${body.threshold} is more than the signers' total weight ${total}`,
      details: { threshold: body.threshold, totalWeight: total.toString() },
    });
  return { validatorType, signers: list, threshold: body.threshold };
}
