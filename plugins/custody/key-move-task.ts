// custody:move-keys: moves an organisation from software custody to the HSM, step by step (tables.ts, MIGRATION_STEPS):
// successor keys in the HSM; the old keys' on-chain roles and identity keys granted to them and gas money sent to them,
// as ordinary transaction requests signed by the old keys; the switch (new writes are the successors'); the old keys'
// writes in flight finish; then each old key renounces its roles, removes its identity keys and hands its single-holder
// seats (contract identities' manager, the paymaster's owner, key-move-powers.ts; the add-ons' and compliance modules'
// seats, key-move-seats.ts) to its successor. Each step is
// recorded and every write has its own Idempotency-Key, so a crashed or failed run resumes where it stopped and writes
// nothing twice.
import { type Address, encodeFunctionData, parseAbi } from "viem";
import type { ServedChain } from "../../host/chain/served-chains.ts";
import type { KeyPair } from "../../host/custody/custody.ts";
import { ORGANIZATION_PRIMARY_PATH } from "../../host/custody/custody.ts";
import { indexedHex } from "../../host/db/ledger-types.ts";
import { TERMINAL_STATES } from "../../host/mutations/service.ts";
import type { PluginContext } from "../../host/plugin.ts";
import { defineTask } from "../../host/worker/define-task.ts";
import { reissueClaims } from "./claim-reissue.ts";
import {
  acceptance,
  CLAIM,
  grantData,
  type HeldPower,
  hasPurpose,
  heldPowers,
  MANAGEMENT,
  powerName,
  revocationData,
  revocationKind,
} from "./key-move-powers.ts";
import { heldSeats } from "./key-move-seats.ts";
import type { MoveTools, MoveWrite } from "./key-move-tools.ts";
import { MoveKeysPayload } from "./migration-store.ts";
import { liveWriteRequest } from "./move-write-attempts.ts";
import {
  type CustodyMigrationRow,
  custodyDb,
  type HeldRole,
  MIGRATION_STEPS,
  type MigrationDetail,
  type MigrationStep,
} from "./tables.ts";
import { replaceWalletSigners } from "./wallet-signers.ts";

const ACCESS_CONTROL = parseAbi([
  "function grantRole(bytes32 role, address account)",
  "function renounceRole(bytes32 role, address callerConfirmation)",
]);
/** How long a step follows its writes before the move fails (resumable by requesting it again). */
const WRITES_WAIT_MS = 10 * 60_000;
const INDEX_WAIT_MS = 60_000;
/** Lets a submission that chose an old key just before the switch commit before the old keys' writes are counted. */
const SWITCH_SETTLE_MS = 1_000;

type Ctx = PluginContext<"custody">;

interface Run {
  ctx: Ctx;
  migration: CustodyMigrationRow;
  detail: MigrationDetail;
}

const STEPS: Record<Exclude<MigrationStep, "done">, (run: Run) => Promise<void>> = {
  async keys({ ctx, migration, detail }) {
    detail.keys = await ctx.custody.successorKeys(migration.organizationId);
  },

  async grants(run) {
    const { ctx, migration, detail } = run;
    const keys = detail.keys ?? [];
    const granter = primaryOf(keys).oldAddress; // the organisation's admin on its system and tokens
    detail.roles = {};
    const writes: Promise<string>[] = [];
    for (const pair of keys) {
      const roles = await heldRoles(ctx, migration.organizationId, pair.oldAddress);
      detail.roles[pair.oldAddress] = roles;
      for (const held of roles) {
        writes.push(
          submit(ctx, migration, {
            chainId: held.chainId,
            kind: "custody.grantRole",
            from: granter,
            to: held.contract as Address,
            data: encodeFunctionData({
              abi: ACCESS_CONTROL,
              functionName: "grantRole",
              args: [held.role as `0x${string}`, pair.newAddress],
            }),
            key: `grant:${held.chainId}:${held.contract}:${held.role}:${pair.newAddress}`,
            description: `Grant ${pair.oldAddress}'s role ${held.role} to its HSM successor ${pair.newAddress}`,
          }),
        );
      }
    }
    detail.powers = {};
    const primary = primaryOf(keys);
    for (const pair of keys) {
      const powers = await keyPowers(ctx, migration.organizationId, pair.oldAddress);
      detail.powers[pair.oldAddress] = powers;
      for (const power of powers) {
        const data = grantData(power, pair.newAddress);
        if (!data || power.kind !== "identityKey") continue;
        const on = ctx.chains.get(power.chainId);
        if (await hasPurpose(on, power.contract, pair.newAddress, power.purpose)) continue; // a resumed run's
        // Added by a management key of the identity: the key itself, else the organisation's primary key.
        const from = await managerOf(on, power.contract, [pair.oldAddress, primary.oldAddress]);
        if (!from) {
          ctx.logger.warn("custody migration: no key of the organisation manages an identity", { ...power });
          continue;
        }
        writes.push(
          submit(ctx, migration, {
            chainId: power.chainId,
            kind: "custody.addKey",
            from,
            to: power.contract as Address,
            data,
            key: `grant:${powerName(power)}:${pair.newAddress}`,
            description: `Add ${pair.oldAddress}'s identity key (purpose ${power.purpose}) for its successor ${pair.newAddress}`,
          }),
        );
      }
    }
    await completeAll(run, "grants", await Promise.all(writes));
  },

  async funding(run) {
    const { ctx, migration, detail } = run;
    const writes: Promise<string>[] = [];
    for (const chainId of await organizationChains(ctx, migration.organizationId)) {
      const { client } = ctx.chains.get(chainId);
      for (const pair of detail.keys ?? []) {
        const balance = await client.getBalance({ address: pair.oldAddress });
        if (balance === 0n) continue;
        // Half: the other half pays for the old key's writes in flight and its renunciations.
        writes.push(
          submit(ctx, migration, {
            chainId,
            kind: "custody.fund",
            from: pair.oldAddress,
            to: pair.newAddress,
            data: "0x",
            value: balance / 2n,
            key: `fund:${chainId}:${pair.newAddress}`,
            description: `Gas money for ${pair.oldAddress}'s HSM successor ${pair.newAddress}`,
          }),
        );
      }
    }
    await completeAll(run, "funding", await Promise.all(writes));
  },

  async switch({ ctx, migration, detail }) {
    await ctx.custody.switchToSuccessors(migration.organizationId, detail.keys ?? []);
  },

  async drain({ ctx, migration, detail }) {
    await new Promise((resolve) => setTimeout(resolve, SWITCH_SETTLE_MS));
    const olds = (detail.keys ?? []).map((pair) => pair.oldAddress.toLowerCase());
    if (olds.length === 0) return;
    const deadline = Date.now() + WRITES_WAIT_MS;
    for (;;) {
      const open = await ctx.db.platform
        .selectFrom("transactionRequests")
        .select("id")
        .where("organizationId", "=", migration.organizationId)
        .where("fromAddress", "in", olds)
        .where("status", "not in", [...TERMINAL_STATES])
        .orderBy("id", "desc")
        .executeTakeFirst();
      if (!open) return;
      // A write waiting for co-signers may never end: the move fails then, and is resumed by requesting it again.
      if (Date.now() > deadline) throw new Error(`The old keys' write ${open.id} is still in flight`);
      await ctx.mutations.waitForTerminal(migration.organizationId, open.id, deadline);
    }
  },

  async revocations(run) {
    const { ctx, migration, detail } = run;
    const writes: Promise<string | undefined>[] = [];
    for (const pair of detail.keys ?? []) {
      // The roles granted to the successor, and any the old key was given since.
      const roles = [
        ...(detail.roles?.[pair.oldAddress] ?? []),
        ...(await heldRoles(ctx, migration.organizationId, pair.oldAddress)),
      ];
      const unique = new Map(roles.map((held) => [`${held.chainId}:${held.contract}:${held.role}`, held]));
      for (const held of unique.values()) {
        // Signed by the old key itself, after all its other writes: it needs no admin, nor the HSM partition.
        writes.push(
          submit(ctx, migration, {
            chainId: held.chainId,
            kind: "custody.renounceRole",
            from: pair.oldAddress,
            to: held.contract as Address,
            data: encodeFunctionData({
              abi: ACCESS_CONTROL,
              functionName: "renounceRole",
              args: [held.role as `0x${string}`, pair.oldAddress],
            }),
            key: `renounce:${held.chainId}:${held.contract}:${held.role}:${pair.oldAddress}`,
            description: `Renounce role ${held.role} of ${pair.oldAddress}, replaced by ${pair.newAddress} in the HSM`,
          }),
        );
      }
    }
    // Then the other powers, read again: a management key goes last, as it is what lets the key remove the others.
    const managementRemovals: { pair: KeyPair; power: HeldPower }[] = [];
    const handedOver: { pair: KeyPair; power: HeldPower }[] = [];
    for (const pair of detail.keys ?? []) {
      for (const power of await keyPowers(ctx, migration.organizationId, pair.oldAddress)) {
        // Removing a claim key would void every claim the old key signed: it stays until they are issued again.
        if (power.kind === "identityKey" && power.purpose === CLAIM) continue;
        if (power.kind === "identityKey" && power.purpose === MANAGEMENT) managementRemovals.push({ pair, power });
        else writes.push(revokePower(run, pair, power));
        if (acceptance(power, pair.oldAddress)) handedOver.push({ pair, power });
      }
    }
    const first = (await Promise.all(writes)).filter((id) => id !== undefined);
    await completeAll(run, "revocations", first);
    const last = await Promise.all([
      ...managementRemovals.map(({ pair, power }) => revokePower(run, pair, power)),
      ...handedOver.map(({ pair, power }) => acceptPower(run, pair, power)),
    ]);
    await completeAll(run, "revocations", [...first, ...last.filter((id) => id !== undefined)]);
  },

  reissue: (run) => reissueClaims(moveTools(run, "reissue")),

  signers: (run) => replaceWalletSigners(moveTools(run, "signers")),
};

/** The move in progress as its later steps (claim-reissue.ts, wallet-signers.ts) use it. */
function moveTools(run: Run, step: MigrationStep): MoveTools {
  const { ctx, migration, detail } = run;
  return {
    ctx,
    organizationId: migration.organizationId,
    keys: detail.keys ?? [],
    detail,
    submit: (write) => submit(ctx, migration, write),
    completeAll: (ids) => completeAll(run, step, ids),
    powers: (account) => keyPowers(ctx, migration.organizationId, account),
    revoke: (pair, power) => revokePower(run, pair, power),
    async indexedChains() {
      const chains = await organizationChains(ctx, migration.organizationId);
      for (const chainId of chains) await indexCaughtUp(ctx, chainId);
      return chains;
    },
  };
}

/**
 * The old key's write taking `power` from it, signed by itself (an identity key it cannot remove, lacking management
 * there, is removed by the organisation's new primary key when that manages the identity).
 */
async function revokePower({ ctx, migration, detail }: Run, pair: KeyPair, power: HeldPower) {
  let from: Address | undefined = pair.oldAddress;
  if (power.kind === "identityKey") {
    const on = ctx.chains.get(power.chainId);
    from = await managerOf(on, power.contract, [pair.oldAddress, primaryOf(detail.keys ?? []).newAddress]);
    if (!from) {
      ctx.logger.warn("custody migration: no key of the organisation manages an identity", { ...power });
      return undefined;
    }
  }
  const action = power.kind === "identityKey" ? "Remove identity key" : "Hand over";
  return submit(ctx, migration, {
    chainId: power.chainId,
    kind: revocationKind(power),
    from,
    to: power.contract as Address,
    data: revocationData(power, pair.oldAddress, pair.newAddress),
    key: `revoke:${powerName(power)}:${pair.oldAddress}`,
    description: `${action} ${powerName(power)} of ${pair.oldAddress}, replaced by ${pair.newAddress} in the HSM`,
  });
}

/** The successor accepts a seat handed over in two steps (signed in the HSM: the partition must be active). */
function acceptPower({ ctx, migration }: Run, pair: KeyPair, power: HeldPower) {
  const write = acceptance(power, pair.oldAddress);
  if (!write) return undefined;
  return submit(ctx, migration, {
    chainId: power.chainId,
    kind: write.kind,
    from: pair.newAddress,
    to: power.contract as Address,
    data: write.data,
    key: `accept:${powerName(power)}:${pair.newAddress}`,
    description: `Accept ${powerName(power)} handed over by ${pair.oldAddress}`,
  });
}

/** The first of `candidates` holding a management key on the identity. */
async function managerOf(on: ServedChain, identity: string, candidates: Address[]): Promise<Address | undefined> {
  for (const candidate of candidates) if (await hasPurpose(on, identity, candidate, MANAGEMENT)) return candidate;
  return undefined;
}

function primaryOf(keys: KeyPair[]): KeyPair {
  const primary = keys.find((pair) => pair.path === ORGANIZATION_PRIMARY_PATH);
  if (!primary) throw new Error("The organisation has no primary key to move");
  return primary;
}

/** The chains where the organisation has a system. */
async function organizationChains(ctx: Ctx, organizationId: string): Promise<number[]> {
  const rows = await ctx.db.platform
    .selectFrom("organizationChains")
    .select("chainId")
    .where("organizationId", "=", organizationId)
    .where("status", "=", "ready")
    .execute();
  return rows.map((row) => row.chainId).filter((chainId) => ctx.chains.has(chainId));
}

/** The powers besides roles `account` holds now on the chains of the organisation's systems (key-move-powers.ts). */
async function keyPowers(ctx: Ctx, organizationId: string, account: Address): Promise<HeldPower[]> {
  const systems = await ctx.db.platform
    .selectFrom("organizationChains")
    .select(["chainId", "systemAddress"])
    .where("organizationId", "=", organizationId)
    .where("status", "=", "ready")
    .execute();
  const powers: HeldPower[] = [];
  for (const { chainId, systemAddress } of systems) {
    if (!systemAddress || !ctx.chains.has(chainId)) continue;
    await indexCaughtUp(ctx, chainId); // the system's identities up to now are listed
    powers.push(...(await heldPowers(ctx.chains.get(chainId), ctx.db.ledgerOn(chainId), systemAddress, account)));
    const warn = (message: string, details: Record<string, unknown>) => ctx.logger.warn(message, details);
    powers.push(...(await heldSeats(ctx.chains.get(chainId), ctx.db.ledgerOn(chainId), account, warn)));
  }
  return powers;
}

async function indexCaughtUp(ctx: Ctx, chainId: number) {
  const head = await ctx.chains.get(chainId).client.getBlockNumber();
  if (!(await ctx.index.waitForBlock(chainId, head, INDEX_WAIT_MS)))
    throw new Error(`The Ledger Index has not reached block ${head} of chain ${chainId}`);
}

/** The roles `account` holds now on the platform's contracts (system access managers and tokens), from the index. */
async function heldRoles(ctx: Ctx, organizationId: string, account: string): Promise<HeldRole[]> {
  const roles: HeldRole[] = [];
  for (const chainId of await organizationChains(ctx, organizationId)) {
    await indexCaughtUp(ctx, chainId); // roles granted up to now are in the index: none is left out
    const rows = await ctx.db
      .ledgerOn(chainId)
      .selectFrom("roleAssignment")
      .select(["contract", "role"])
      .where("account", "=", indexedHex(account))
      .where("active", "=", true)
      .orderBy("ordinal")
      .execute();
    for (const row of rows) roles.push({ chainId, contract: row.contract, role: row.role });
  }
  return roles;
}

async function submit(
  ctx: Ctx,
  migration: CustodyMigrationRow,
  write: MoveWrite & { value?: bigint },
): Promise<string> {
  return liveWriteRequest(
    (idempotencyKey) =>
      ctx.mutations.submit({
        organizationId: migration.organizationId,
        chainId: write.chainId,
        kind: write.kind,
        from: write.from,
        to: write.to,
        data: write.data,
        value: write.value,
        createdBy: "platform",
        idempotencyKey,
        description: write.description,
        ...(write.executor ? { executor: write.executor, walletSelection: write.walletSelection } : {}),
      }),
    migration.id,
    write.key,
  );
}

/** Waits for each of the step's writes; the step fails unless all completed. */
async function completeAll({ ctx, migration, detail }: Run, step: MigrationStep, ids: string[]) {
  detail.requests = { ...detail.requests, [step]: ids };
  const failed: string[] = [];
  for (const id of ids) {
    const request = await ctx.mutations.waitForTerminal(migration.organizationId, id, Date.now() + WRITES_WAIT_MS);
    if (request?.status !== "COMPLETED") failed.push(`${id} ${request?.status ?? "missing"}`);
  }
  if (failed.length > 0) throw new Error(`The ${step} step's writes did not complete: ${failed.join(", ")}`);
}

export function moveKeysTask(ctx: Ctx) {
  const db = custodyDb(ctx.db.platform);
  return defineTask(MoveKeysPayload, async ({ migrationId }) => {
    const migration = await db
      .selectFrom("custodyMigrations")
      .selectAll()
      .where("id", "=", migrationId)
      .executeTakeFirst();
    if (migration?.status !== "running") return; // finished, or failed and not requested again
    const detail: MigrationDetail = { ...migration.detail };
    const record = (change: Partial<Pick<CustodyMigrationRow, "status" | "step" | "error">>) =>
      db
        .updateTable("custodyMigrations")
        .set({ ...change, detail: JSON.stringify(detail), updatedAt: new Date() })
        .where("id", "=", migrationId)
        .execute();
    for (let at = MIGRATION_STEPS.indexOf(migration.step); at < MIGRATION_STEPS.length - 1; at++) {
      const step = MIGRATION_STEPS[at] as Exclude<MigrationStep, "done">;
      try {
        await STEPS[step]({ ctx, migration, detail });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        ctx.logger.warn("custody migration step failed", { migrationId, step, error: message });
        await record({ status: "failed", error: message.slice(0, 1000) });
        return;
      }
      const next = MIGRATION_STEPS[at + 1];
      await record(next === "done" ? { step: next, status: "succeeded" } : { step: next });
    }
  });
}
