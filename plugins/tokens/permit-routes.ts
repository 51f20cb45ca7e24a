// EIP-2612 permits: the platform relays a holder-signed permit to the token (only with the permit feature).
import { encodeFunctionData, getAddress, parseSignature } from "viem";
import { TokenAbi } from "../../abis/Token.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import type { App } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { PermitBodySchema } from "./operations-schemas.ts";
import { tokenWriteRoute } from "./write-route.ts";

const PERMIT_FEATURE = "permit";

export function permitRoutes(app: App, ctx: PluginContext) {
  tokenWriteRoute(app, ctx, {
    method: "post",
    path: "permits",
    summary: "Submit a holder-signed EIP-2612 permit (POST /tokens/{tokenAddress}/permits)",
    description:
      "Body `{owner, spender, value, deadline, signature}`; the signing wallet relays `permit(...)`. Only tokens with " +
      "the permit feature accept permits: others are refused with 404 TOKEN_FEATURE_NOT_ATTACHED before anything is sent.",
    permission: "token:transfer",
    body: PermitBodySchema,
    kind: "token.permit",
    check: (token) => {
      if (!token.featureIds.includes(PERMIT_FEATURE)) {
        throw new ApiError("TOKEN_FEATURE_NOT_ATTACHED", {
          message: "The token does not have the permit feature",
          details: { featureId: PERMIT_FEATURE, features: token.featureIds },
        });
      }
    },
    encode: (b) => {
      const { r, s, v, yParity } = parseSignature(b.signature as `0x${string}`);
      return encodeFunctionData({
        abi: TokenAbi,
        functionName: "permit",
        args: [
          getAddress(b.owner),
          getAddress(b.spender),
          BigInt(b.value),
          BigInt(b.deadline),
          Number(v ?? BigInt(yParity + 27)),
          r,
          s,
        ],
      });
    },
  });
}
