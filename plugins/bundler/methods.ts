// The bundler's JSON-RPC methods (ERC-7769), each with its params schema (a tuple: -32602 names the position).
// The debug_bundler_ namespace (ERC-7769's, with ERC-7562's reputation methods) is served only with
// BUNDLER_DEBUG_METHODS=true. Each names the permission it needs.
import { z } from "@hono/zod-openapi";
import { type Address, type Hex, toHex } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { Principal } from "../../host/http/env.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { wakeBundler } from "./bundle-job.ts";
import { sendBundleNow } from "./bundle-now.ts";
import { assertEip7702Supported } from "./eip7702.ts";
import { type ServedEntryPoint, servedEntryPoints } from "./entry-points.ts";
import { estimateUserOperationGas } from "./gas.ts";
import { userOperationByHash, userOperationReceipt } from "./lookups.ts";
import { acceptUserOperation } from "./mempool.ts";
import type { BundlerPermission } from "./permissions.ts";
import { clearReputation, dumpReputation, setReputation, stakeStatus } from "./reputation.ts";
import { rpcError } from "./rpc-error.ts";
import type { BundlerSettings } from "./settings.ts";
import { StateOverrideSchema, toStateOverride } from "./state-override.ts";
import { bundlerDb } from "./tables.ts";
import { EstimableUserOperationSchema, RpcUserOperationSchema, rpcForm, toUserOperation } from "./user-operation.ts";

const AddressParam = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "an address");
const HashParam = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "a 32-byte hex hash");

export interface MethodContext {
  ctx: PluginContext<never, BundlerSettings>;
  principal: Principal;
  /** The request's chain: every method works on it. */
  chain: ServedChain;
}

interface Method<P extends z.ZodType> {
  params: P;
  /** What the caller's roles must grant (permissions.ts); a refusal is a JSON-RPC error (4100). */
  permission: BundlerPermission;
  debug?: boolean;
  run(call: MethodContext, params: z.infer<P>): Promise<unknown>;
}

const method = <P extends z.ZodType>(m: Method<P>) => m as unknown as Method<z.ZodType>;

/** The requested one of the platform's EntryPoints on the chain (none requested: v0.8), or -32602 for another one
 * (-32603 when the chain has none). */
function servedEntryPoint(chain: ServedChain, requested?: string): ServedEntryPoint {
  const served = servedEntryPoints(chain.deployment);
  if (served.length === 0) throw rpcError("BUNDLER_UNAVAILABLE", "This platform has no EntryPoint on its chain");
  if (requested === undefined) return served[0]!;
  const found = served.find((entryPoint) => entryPoint.address.toLowerCase() === requested.toLowerCase());
  const supported = served.map((entryPoint) => entryPoint.address);
  if (!found)
    throw rpcError(
      "BUNDLER_INVALID_PARAMS",
      `Unsupported EntryPoint ${requested}: this bundler serves ${supported.join(", ")}`,
      { field: "entryPoint", supported },
    );
  return found;
}

/** A reputation counter: a hex quantity (ERC-7769) or a JSON number. */
const CounterParam = z
  .union([z.string().regex(/^0x[0-9a-fA-F]{1,8}$/, "a hex quantity"), z.number().int().min(0)])
  .transform(Number)
  .pipe(z.number().int().min(0).max(2_147_483_647));
const ReputationEntryParam = z.object({ address: AddressParam, opsSeen: CounterParam, opsIncluded: CounterParam });

/** The reputation of the requested EntryPoint (none: v0.8) on the request's chain. */
const reputationScope = (chain: ServedChain, entryPoint?: string) => ({
  chainId: chain.chainId,
  entryPoint: servedEntryPoint(chain, entryPoint).address.toLowerCase(),
});

export const METHODS: Record<string, Method<z.ZodType>> = {
  eth_chainId: method({
    params: z.tuple([]),
    permission: "bundler:read",
    run: async ({ chain }) => toHex(chain.chainId),
  }),
  eth_supportedEntryPoints: method({
    permission: "bundler:read",
    params: z.tuple([]),
    run: async ({ chain }) => servedEntryPoints(chain.deployment).map((entryPoint) => entryPoint.address),
  }),
  eth_sendUserOperation: method({
    permission: "bundler:send",
    params: z.tuple([RpcUserOperationSchema, AddressParam]),
    run: ({ ctx, principal, chain }, [op, entryPoint]) =>
      acceptUserOperation(ctx, chain, principal.organizationId, op, servedEntryPoint(chain, entryPoint)),
  }),
  eth_estimateUserOperationGas: method({
    permission: "bundler:read",
    // The optional third parameter: a state override set (eth_call's format) the simulation runs on.
    params: z.tuple([EstimableUserOperationSchema, AddressParam, StateOverrideSchema.optional()]),
    run({ ctx, chain }, [op, entryPoint, stateOverride]) {
      const served = servedEntryPoint(chain, entryPoint);
      assertEip7702Supported(op, served);
      return estimateUserOperationGas(ctx, chain, served, toUserOperation(op), toStateOverride(stateOverride));
    },
  }),
  eth_getUserOperationByHash: method({
    permission: "bundler:read",
    params: z.tuple([HashParam]),
    run: ({ ctx, chain }, [hash]) => userOperationByHash(ctx, chain, hash as Hex),
  }),
  eth_getUserOperationReceipt: method({
    permission: "bundler:read",
    params: z.tuple([HashParam]),
    run: ({ ctx, chain }, [hash]) => userOperationReceipt(ctx, chain, hash as Hex),
  }),
  debug_bundler_clearState: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([]),
    async run({ ctx, chain }) {
      await bundlerDb(ctx.db.platform)
        .deleteFrom("bundlerUserOperations")
        .where("chainId", "=", chain.chainId)
        .where("status", "=", "pending")
        .execute();
      await clearReputation(bundlerDb(ctx.db.platform), chain.chainId); // ERC-7769: the mempool and reputation
      return "ok";
    },
  }),
  debug_bundler_dumpMempool: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([AddressParam]).or(z.tuple([])),
    async run({ ctx, chain }, [entryPoint]) {
      const rows = await bundlerDb(ctx.db.platform)
        .selectFrom("bundlerUserOperations")
        .select("userOperation")
        .where("chainId", "=", chain.chainId)
        .where("entryPoint", "=", servedEntryPoint(chain, entryPoint).address.toLowerCase())
        .where("status", "=", "pending")
        .orderBy("createdAt")
        .execute();
      return rows.map((row) => rpcForm(row.userOperation));
    },
  }),
  debug_bundler_sendBundleNow: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([]),
    run: ({ ctx, principal, chain }) => sendBundleNow(ctx, chain.chainId, principal.organizationId),
  }),
  debug_bundler_dumpReputation: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([AddressParam]).or(z.tuple([])),
    run: ({ ctx, chain }, [entryPoint]) =>
      dumpReputation(bundlerDb(ctx.db.platform), reputationScope(chain, entryPoint), new Date()),
  }),
  debug_bundler_setReputation: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([z.array(ReputationEntryParam), AddressParam]).or(z.tuple([z.array(ReputationEntryParam)])),
    async run({ ctx, chain }, [entries, entryPoint]) {
      await setReputation(bundlerDb(ctx.db.platform), reputationScope(chain, entryPoint), entries, new Date());
      return "ok";
    },
  }),
  debug_bundler_clearReputation: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([]),
    async run({ ctx, chain }) {
      await clearReputation(bundlerDb(ctx.db.platform), chain.chainId);
      return "ok";
    },
  }),
  debug_bundler_getStakeStatus: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([AddressParam, AddressParam]).or(z.tuple([AddressParam])),
    run: ({ chain }, [address, entryPoint]) =>
      stakeStatus(chain, servedEntryPoint(chain, entryPoint).address, address as Address),
  }),
  debug_bundler_setBundlingMode: method({
    permission: "bundler:debug",
    debug: true,
    params: z.tuple([z.enum(["auto", "manual"])]),
    async run({ ctx, principal, chain }, [mode]) {
      await bundlerDb(ctx.db.platform)
        .insertInto("bundlerSettings")
        .values({ chainId: chain.chainId, bundlingMode: mode })
        .onConflict((oc) => oc.column("chainId").doUpdateSet({ bundlingMode: mode }))
        .execute();
      if (mode === "auto") await wakeBundler(ctx, chain.chainId, principal.organizationId);
      return "ok";
    },
  }),
};
