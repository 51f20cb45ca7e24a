// The "xvp-settlement" addon: the factory made by a system's AddonRegistry creates settlements; a settlement moves
// every leg in one transaction once every party approved before the cutoff (and the hashlock's secret is shown),
// and moves nothing when an approval or allowance is missing, the cutoff passed or it was cancelled; an account's
// place in it moves to a successor in two steps.
import { type Address, type Hex, keccak256, toHex, zeroHash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAddonFactory } from "./addon-fixture.ts";
import { EIP170_LIMIT, expectRevert, type SystemFixture, startSystemFixture, theEvent } from "./system-fixture.ts";

const S = "XvPSettlement";
const F = "XvPSettlementFactory";
const ERC20 = "MockERC20";

let f: SystemFixture;
let factory: Address;
let factoryImplementation: Address;
let settlementImplementation: Address;
let bond: Address;
let cash: Address;
let seller: Address;
let buyer: Address;

interface Flow {
  asset: Address;
  from: Address;
  to: Address;
  amount: bigint;
}

beforeAll(async () => {
  f = await startSystemFixture();
  [seller, buyer] = [f.chain.accounts[2], f.chain.accounts[3]];
  ({
    factory,
    factoryImplementation,
    instanceImplementation: settlementImplementation,
  } = await createAddonFactory(f, "xvp-settlement", F, S));
  expect(await f.read(factory, F, "version")).toBe(1n);
  bond = await f.deploy(ERC20, ["Bond", "BND", 18]);
  cash = await f.deploy(ERC20, ["Cash", "CSH", 6]);
  await f.send(0, bond, ERC20, "mint", [seller, 1_000n]);
  await f.send(0, cash, ERC20, "mint", [buyer, 1_000_000n]);
});
afterAll(async () => {
  await f?.chain.stop();
});

const balance = (asset: Address, who: Address) => f.read<bigint>(asset, ERC20, "balanceOf", [who]);
const now = async () => (await f.chain.publicClient.getBlock()).timestamp;
const party = (address: Address) => f.chain.accounts.indexOf(address);

async function create(flows: Flow[], hashlock: Hex = zeroHash, cutoffIn = 3600n) {
  const cutoff = (await now()) + cutoffIn;
  const { logs } = await f.send(3, factory, F, "create", [flows, cutoff, hashlock]); // the buyer creates it
  const created = theEvent(logs, "XvPSettlementCreated");
  expect(created).toMatchObject({ creator: buyer, cutoff, hashlock });
  expect(created.flows).toEqual(flows);
  return created.settlement as Address;
}

/** Each party grants its outgoing legs' allowances and approves. */
async function approveAll(settlement: Address, flows: Flow[], except?: Address) {
  for (const flow of flows) {
    if (flow.from === except) continue;
    await f.send(party(flow.from), flow.asset, ERC20, "approve", [settlement, flow.amount]);
    await f.send(party(flow.from), settlement, S, "approve");
  }
}

const dvp = (): Flow[] => [
  { asset: bond, from: seller, to: buyer, amount: 10n },
  { asset: cash, from: buyer, to: seller, amount: 1_000n },
];

describe("XvPSettlement", () => {
  it("moves every leg in one transaction once every party approved", async () => {
    const flows = dvp();
    const settlement = await create(flows);
    expect(await f.read(settlement, S, "parties")).toEqual([seller, buyer]);
    const before = await Promise.all([balance(bond, buyer), balance(cash, seller)]);
    await approveAll(settlement, flows);
    const { logs } = await f.send(2, settlement, S, "execute", ["0x"]);
    expect(theEvent(logs, "XvPSettlementExecuted")).toMatchObject({ executor: seller, secret: "0x" });
    expect(await balance(bond, buyer)).toBe(before[0] + 10n);
    expect(await balance(cash, seller)).toBe(before[1] + 1_000n);
    expect(await f.read(settlement, S, "executed")).toBe(true);
    await expectRevert(f.send(2, settlement, S, "execute", ["0x"]), "XvPSettlementAlreadyExecuted");
  });

  it("moves nothing without every approval, or when a party's allowance is missing", async () => {
    const flows = dvp();
    const settlement = await create(flows);
    await approveAll(settlement, flows, buyer);
    await expectRevert(f.send(2, settlement, S, "execute", ["0x"]), "XvPSettlementNotApproved", [buyer]);
    // The buyer approves without an allowance: the seller's leg would move first, but the whole transaction reverts.
    await f.send(3, settlement, S, "approve");
    const before = await balance(bond, buyer);
    await expectRevert(f.send(2, settlement, S, "execute", ["0x"]), "ERC20InsufficientAllowance");
    expect(await balance(bond, buyer)).toBe(before);
    await expectRevert(f.send(4, settlement, S, "approve"), "XvPSettlementNotParty", [f.chain.accounts[4]]);
  });

  it("moves nothing once the cutoff passed or once cancelled", async () => {
    const flows = dvp();
    const late = await create(flows, zeroHash, 60n);
    await approveAll(late, flows);
    await f.chain.testClient.increaseTime({ seconds: 120 });
    await f.chain.testClient.mine({ blocks: 1 });
    const cutoff = await f.read<bigint>(late, S, "cutoff");
    await expectRevert(f.send(2, late, S, "execute", ["0x"]), "XvPSettlementCutoffPassed", [cutoff]);

    const cancelled = await create(flows);
    await approveAll(cancelled, flows);
    await expectRevert(f.send(4, cancelled, S, "cancel"), "XvPSettlementNotParty", [f.chain.accounts[4]]);
    const { logs } = await f.send(3, cancelled, S, "cancel");
    expect(theEvent(logs, "XvPSettlementCancelled")).toMatchObject({ by: buyer });
    await expectRevert(f.send(2, cancelled, S, "execute", ["0x"]), "XvPSettlementAlreadyCancelled");
  });

  it("executes a hashlocked settlement only with the secret, and shows the secret", async () => {
    const secret = toHex("the other chain's secret");
    const flows = dvp();
    const settlement = await create(flows, keccak256(secret));
    await approveAll(settlement, flows);
    await expectRevert(f.send(2, settlement, S, "execute", [toHex("wrong")]), "XvPSettlementSecretInvalid");
    const { logs } = await f.send(4, settlement, S, "execute", [secret]);
    expect(theEvent(logs, "XvPSettlementExecuted")).toMatchObject({ secret });
  });

  it("hands a party's place to its successor in two steps: its legs move, no approval stands", async () => {
    const flows = dvp();
    const settlement = await create(flows);
    const [stranger, successor] = [f.chain.accounts[4], f.chain.accounts[1]];
    await approveAll(settlement, flows); // both parties approved
    // Only an account the settlement names proposes, never to one it names already; only the successor accepts.
    await expectRevert(f.send(4, settlement, S, "proposeHandover", [successor]), "XvPSettlementNotParty", [stranger]);
    await expectRevert(f.send(2, settlement, S, "proposeHandover", [buyer]), "XvPSettlementSuccessorInvolved", [buyer]);
    const { logs } = await f.send(2, settlement, S, "proposeHandover", [successor]);
    expect(theEvent(logs, "XvPSettlementHandoverStarted")).toEqual({ account: seller, successor });
    expect(await f.read(settlement, S, "pendingSuccessorOf", [seller])).toBe(successor);
    await expectRevert(f.send(4, settlement, S, "acceptHandover", [seller]), "XvPSettlementNotPendingSuccessor", [
      seller,
      stranger,
    ]);
    const accepted = await f.send(1, settlement, S, "acceptHandover", [seller]);
    expect(theEvent(accepted.logs, "XvPSettlementHandedOver")).toEqual({ previous: seller, successor });
    // The terms stand with the successor in the seller's place; the seller is out of the settlement, and no party's
    // approval stands (the buyer approved legs with the seller).
    expect(await f.read(settlement, S, "parties")).toEqual([successor, buyer]);
    expect(await f.read(settlement, S, "flows")).toEqual([
      { ...flows[0], from: successor },
      { ...flows[1], to: successor },
    ]);
    expect([
      await f.read(settlement, S, "approved", [seller]),
      await f.read(settlement, S, "approved", [successor]),
      await f.read(settlement, S, "approved", [buyer]),
    ]).toEqual([false, false, false]);
    await expectRevert(f.send(2, settlement, S, "approve"), "XvPSettlementNotParty", [seller]);
    await expectRevert(f.send(2, settlement, S, "cancel"), "XvPSettlementNotParty", [seller]);
    await expectRevert(f.send(2, settlement, S, "proposeHandover", [seller]), "XvPSettlementNotParty", [seller]);
    await expectRevert(f.send(3, settlement, S, "execute", ["0x"]), "XvPSettlementNotApproved", [successor]);
    // The successor delivers the seller's leg and receives its payment.
    await f.send(0, bond, ERC20, "mint", [successor, 10n]);
    await approveAll(settlement, [{ ...flows[0], from: successor }, flows[1]]);
    await f.send(3, settlement, S, "execute", ["0x"]);
    expect(await balance(cash, successor)).toBe(1_000n);
    await expectRevert(f.send(1, settlement, S, "proposeHandover", [stranger]), "XvPSettlementAlreadyExecuted");
  });

  it("hands the creator's seat over in two steps, and only while the settlement is open", async () => {
    const [other, successor] = [f.chain.accounts[4], f.chain.accounts[0]];
    const flows = [{ asset: bond, from: seller, to: other, amount: 1n }]; // the buyer only created it
    const settlement = await create(flows);
    await f.send(3, settlement, S, "proposeHandover", [successor]);
    await f.send(0, settlement, S, "acceptHandover", [buyer]);
    expect(await f.read(settlement, S, "creator")).toBe(successor);
    await expectRevert(f.send(3, settlement, S, "cancel"), "XvPSettlementNotParty", [buyer]);
    await f.send(0, settlement, S, "cancel");
    await expectRevert(f.send(2, settlement, S, "proposeHandover", [buyer]), "XvPSettlementAlreadyCancelled");
  });

  it("refuses settlements without legs, with an invalid leg or a cutoff in the past", async () => {
    await expectRevert(f.send(3, factory, F, "create", [[], (await now()) + 60n, zeroHash]), "XvPSettlementNoFlows");
    const selfLeg = [{ asset: bond, from: seller, to: seller, amount: 1n }];
    await expectRevert(
      f.send(3, factory, F, "create", [selfLeg, (await now()) + 60n, zeroHash]),
      "XvPSettlementInvalidFlow",
      [0n],
    );
    const past = (await now()) - 1n;
    await expectRevert(f.send(3, factory, F, "create", [dvp(), past, zeroHash]), "XvPSettlementCutoffInPast", [past]);
  });

  it("fits EIP-170", async () => {
    for (const address of [factoryImplementation, settlementImplementation]) {
      const code = await f.chain.publicClient.getCode({ address });
      expect(((code?.length ?? 2) - 2) / 2).toBeLessThan(EIP170_LIMIT);
    }
  });
});
