import { encodeAbiParameters, keccak256, parseAbiParameters, recoverMessageAddress, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { addressKey, claimIdOf, signClaim, topicBytes32, topicIdOf } from "./claim-signing.ts";

const account = privateKeyToAccount(`0x${"11".repeat(32)}`);
const subject = "0x00000000000000000000000000000000000000aa";

describe("claim naming and signing", () => {
  it("names topics and claims as the contracts do", () => {
    const kyc = topicIdOf("kyc");
    expect(kyc).toBe(BigInt(keccak256(stringToHex("kyc"))));
    expect(topicBytes32(kyc)).toBe(keccak256(stringToHex("kyc")));
    expect(topicBytes32(1n)).toBe(`0x${"0".repeat(63)}1`);
    expect(claimIdOf(account.address, kyc)).toBe(
      keccak256(encodeAbiParameters(parseAbiParameters("address, uint256"), [account.address, kyc])),
    );
    expect(addressKey(account.address)).toBe(
      keccak256(encodeAbiParameters(parseAbiParameters("address"), [account.address])),
    );
  });

  it("signs keccak256(abi.encode(subject, topic, data)) as an Ethereum message of the issuer's key", async () => {
    const data = stringToHex("level-2");
    const signature = await signClaim(account, subject, topicIdOf("kyc"), data);
    const digest = keccak256(
      encodeAbiParameters(parseAbiParameters("address, uint256, bytes"), [subject, topicIdOf("kyc"), data]),
    );
    expect(await recoverMessageAddress({ message: { raw: digest }, signature })).toBe(account.address);
    expect(await signClaim(account, subject, topicIdOf("kyc"), data)).toBe(signature); // deterministic: safe to retry
  });
});
