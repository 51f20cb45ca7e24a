// GET /api/v2/organizations/deploy/{deploymentId}/stream as server-sent events: `tree` first (and again whenever the
// nodes change shape), `update` for each node whose status, detail or error changed (by `nodeId`), `complete` once
// the deployment is terminal (then the stream closes), `error` with the public error object if reading fails. Woken
// by the deployment's NOTIFY (any process), with a slow poll in case a notification is lost.
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import type { PlatformDb } from "../../host/db/database.ts";
import type { ChannelListener } from "../../host/db/notifications.ts";
import { ApiError } from "../../host/errors/api-error.ts";
import { publicError } from "../../host/errors/render.ts";
import type { AppEnv } from "../../host/http/env.ts";
import type { Logger } from "../../host/logger.ts";
import { type DeploymentTree, deploymentTree } from "./deployments.ts";
import type { DeploymentStepRow } from "./tables.ts";

const POLL_MS = 2_000;
const KEEPALIVE_MS = 15_000;

interface DeploymentNode {
  nodeId: string;
  parentId: string | null;
  name: string;
  status: string;
  detail: Record<string, unknown>;
  wireError: Record<string, unknown> | null;
  updatedAt: string;
}

const nodeOf = (row: DeploymentStepRow): DeploymentNode => ({
  nodeId: row.nodeId,
  parentId: row.parentId,
  name: row.name,
  status: row.status,
  detail: row.detail,
  wireError: row.wireError,
  updatedAt: new Date(row.updatedAt).toISOString(),
});

/** The `tree` event: the deployment with its nodes nested under their parents. */
export function treeEvent({ deployment, steps }: DeploymentTree) {
  type Nested = DeploymentNode & { children: Nested[] };
  const nested = new Map<string, Nested>(steps.map((row) => [row.nodeId, { ...nodeOf(row), children: [] }]));
  const roots: Nested[] = [];
  for (const node of nested.values()) {
    const parent = node.parentId ? nested.get(node.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return {
    deploymentId: deployment.id,
    organizationId: deployment.organizationId,
    chainId: deployment.chainId,
    status: deployment.status,
    nodes: roots,
  };
}

/** The `complete` event of a terminal deployment. */
export function completeEvent({ deployment, steps }: DeploymentTree) {
  return {
    deploymentId: deployment.id,
    organizationId: deployment.organizationId,
    success: deployment.status === "succeeded",
    failedSteps: steps
      .filter((row) => row.status === "failed")
      .map((row) => ({ nodeId: row.nodeId, name: row.name, wireError: row.wireError })),
  };
}

/** What a follower of the stream has seen: the tree's shape (nodes and parents) and each node as last sent. */
export interface SeenTree {
  shape: string;
  nodes: Map<string, string>;
}

/**
 * The events that bring a follower who has seen `seen` up to `tree`, and what it has seen then: the whole `tree`
 * first and whenever the nodes change shape, else an `update` (without parentId and name) per node that changed.
 */
export function treeChanges(
  seen: SeenTree | undefined,
  tree: DeploymentTree,
): { events: { event: "tree" | "update"; data: unknown }[]; seen: SeenTree } {
  const nodes = tree.steps.map(nodeOf);
  const shape = nodes.map((n) => `${n.nodeId}<${n.parentId ?? ""}`).join(",");
  const texts = new Map(nodes.map((n) => [n.nodeId, JSON.stringify(n)]));
  if (!seen || seen.shape !== shape)
    return { events: [{ event: "tree", data: treeEvent(tree) }], seen: { shape, nodes: texts } };
  const events = nodes
    .filter((node) => seen.nodes.get(node.nodeId) !== texts.get(node.nodeId))
    .map(({ parentId: _parentId, name: _name, ...patch }) => ({ event: "update" as const, data: patch }));
  return { events, seen: { shape, nodes: texts } };
}

export function streamDeployment(
  c: Context<AppEnv>,
  input: { db: PlatformDb; listener: ChannelListener; logger: Logger; deploymentId: string; organizationId: string },
) {
  const requestId = c.get("requestId");
  return streamSSE(c, async (stream: SSEStreamingApi) => {
    let dirty = true;
    let wake: (() => void) | undefined;
    const notify = () => {
      dirty = true;
      wake?.();
    };
    // Without the channel (the database refused the LISTEN) the stream still reads the state every POLL_MS.
    const unsubscribe = await input.listener.subscribe(input.deploymentId, notify).catch(() => () => {});
    stream.onAbort(notify);
    const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
    let seen: SeenTree | undefined;
    let lastWrite = Date.now();
    try {
      while (!stream.aborted) {
        dirty = false;
        const tree = await deploymentTree(input.db, input.deploymentId, input.organizationId);
        if (!tree) throw new ApiError("ORGANIZATION_DEPLOYMENT_NOT_FOUND");
        const changes = treeChanges(seen, tree);
        for (const { event, data } of changes.events) await send(event, data);
        if (changes.events.length > 0) lastWrite = Date.now();
        seen = changes.seen;
        if (tree.deployment.status !== "running") {
          await send("complete", completeEvent(tree));
          return;
        }
        if (Date.now() - lastWrite >= KEEPALIVE_MS) {
          await stream.write(": keepalive\n\n");
          lastWrite = Date.now();
        }
        if (!dirty) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      }
    } catch (error) {
      if (!(error instanceof ApiError)) {
        input.logger.error("deployment stream failed", {
          requestId,
          deploymentId: input.deploymentId,
          error: String(error),
        });
      }
      const known = error instanceof ApiError ? error : new ApiError("INTERNAL_SERVER_ERROR");
      if (!stream.aborted) await send("error", { error: publicError(known, requestId) }).catch(() => {});
    } finally {
      unsubscribe();
    }
  });
}
