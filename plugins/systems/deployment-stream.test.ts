import { describe, expect, it } from "vitest";
import { DEPLOYMENT_STEPS } from "./deployment-steps.ts";
import { completeEvent, treeChanges, treeEvent } from "./deployment-stream.ts";
import type { DeploymentTree } from "./deployments.ts";
import type { DeploymentRow, DeploymentStepRow, StepStatus } from "./tables.ts";

const at = new Date("2026-01-02T03:04:05.000Z");
const deployment: DeploymentRow = {
  id: "dep-1",
  organizationId: "org-1",
  chainId: 31337,
  name: "Acme",
  createdBy: "user-1",
  idempotencyKey: "key-1",
  status: "running",
  createdAt: at,
  updatedAt: at,
};

const step = (nodeId: string, change: Partial<DeploymentStepRow> = {}): DeploymentStepRow => {
  const position = DEPLOYMENT_STEPS.findIndex((s) => s.nodeId === nodeId);
  const { parentId, name } = DEPLOYMENT_STEPS[position];
  return {
    deploymentId: "dep-1",
    nodeId,
    parentId,
    position,
    name,
    status: "pending",
    detail: {},
    wireError: null,
    updatedAt: at,
    ...change,
  };
};
const tree = (statuses: Partial<Record<string, StepStatus>> = {}, status = deployment.status): DeploymentTree => ({
  deployment: { ...deployment, status },
  steps: DEPLOYMENT_STEPS.map((s) => step(s.nodeId, { status: statuses[s.nodeId] ?? "pending" })),
});

describe("deployment steps", () => {
  it("name each node once, every parent before its children", () => {
    const ids = DEPLOYMENT_STEPS.map((s) => s.nodeId);
    expect(new Set(ids).size).toBe(ids.length);
    DEPLOYMENT_STEPS.forEach((s, i) => {
      if (s.parentId !== null) expect(ids.indexOf(s.parentId)).toBeLessThan(i);
    });
  });
});

describe("treeEvent", () => {
  it("nests the nodes under their parents and dates them in ISO", () => {
    const event = treeEvent(tree({ organization: "succeeded" }));
    expect(event).toMatchObject({ deploymentId: "dep-1", organizationId: "org-1", chainId: 31337, status: "running" });
    expect(event.nodes.map((n) => n.nodeId)).toEqual(["organization"]);
    const [root] = event.nodes;
    expect(root).toMatchObject({ status: "succeeded", updatedAt: "2026-01-02T03:04:05.000Z" });
    expect(root.children.map((n) => n.nodeId)).toEqual(["custody", "funding", "system", "index"]);
    expect(root.children.every((n) => n.children.length === 0)).toBe(true);
  });
});

describe("completeEvent", () => {
  it("reports success only for a succeeded deployment, with the failed steps and their errors", () => {
    const wireError = { code: "CONTRACT_ERROR" };
    const failed: DeploymentTree = {
      deployment: { ...deployment, status: "failed" },
      steps: [step("organization", { status: "succeeded" }), step("system", { status: "failed", wireError })],
    };
    expect(completeEvent(failed)).toEqual({
      deploymentId: "dep-1",
      organizationId: "org-1",
      success: false,
      failedSteps: [{ nodeId: "system", name: DEPLOYMENT_STEPS[3].name, wireError }],
    });
    expect(completeEvent(tree({}, "succeeded"))).toMatchObject({ success: true, failedSteps: [] });
  });
});

describe("treeChanges", () => {
  it("sends the whole tree first", () => {
    const { events, seen } = treeChanges(undefined, tree());
    expect(events).toEqual([{ event: "tree", data: treeEvent(tree()) }]);
    expect([...seen.nodes.keys()]).toEqual(DEPLOYMENT_STEPS.map((s) => s.nodeId));
  });

  it("then sends nothing while nothing changed", () => {
    const { seen } = treeChanges(undefined, tree());
    expect(treeChanges(seen, tree()).events).toEqual([]);
  });

  it("sends an update per changed node, without its parent and name", () => {
    const { seen } = treeChanges(undefined, tree());
    const next = tree({ custody: "succeeded", funding: "running" });
    next.steps[1].detail = { signer: "0xabc" };
    const { events, seen: after } = treeChanges(seen, next);
    expect(events).toEqual([
      {
        event: "update",
        data: {
          nodeId: "custody",
          status: "succeeded",
          detail: { signer: "0xabc" },
          wireError: null,
          updatedAt: at.toISOString(),
        },
      },
      {
        event: "update",
        data: { nodeId: "funding", status: "running", detail: {}, wireError: null, updatedAt: at.toISOString() },
      },
    ]);
    expect(treeChanges(after, next).events).toEqual([]);
  });

  it("sends the whole tree again when the nodes change shape", () => {
    const { seen } = treeChanges(undefined, tree());
    const fewer: DeploymentTree = { deployment, steps: tree().steps.slice(0, 3) };
    expect(treeChanges(seen, fewer).events.map((e) => e.event)).toEqual(["tree"]);
    const moved: DeploymentTree = {
      deployment,
      steps: tree().steps.map((s) => ({ ...s, parentId: s.parentId && "custody" })),
    };
    expect(treeChanges(seen, moved).events.map((e) => e.event)).toEqual(["tree"]);
  });
});
