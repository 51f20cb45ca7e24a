// The nodes of an organisation's deployment tree, in the order the deploy task runs them. `organization` (the row
// and its owner) is done by the request itself; the task runs the others (deploy-task.ts).
export const DEPLOYMENT_STEPS = [
  { nodeId: "organization", parentId: null, name: "Organisation and its owner" },
  { nodeId: "custody", parentId: "organization", name: "Custody seed, signer and owner wallet" },
  { nodeId: "funding", parentId: "organization", name: "Gas money for the signer" },
  { nodeId: "system", parentId: "organization", name: "System contracts (system.create transaction)" },
  { nodeId: "index", parentId: "organization", name: "System indexed by the Ledger Index" },
] as const;

export type StepId = (typeof DEPLOYMENT_STEPS)[number]["nodeId"];
