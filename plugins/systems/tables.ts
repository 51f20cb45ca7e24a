// The systems plugin's tables (migrations.ts) as Kysely types, and the platform db widened with them.
import type { ColumnType, Selectable } from "kysely";
import type { PlatformDb } from "../../host/db/database.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

export type DeploymentStatus = "running" | "succeeded" | "failed";
export type StepStatus = "pending" | "running" | "succeeded" | "failed";

export interface OrganizationDeploymentsTable {
  id: string;
  organizationId: string;
  chainId: number;
  /** The organisation's name as requested (a repeat with the same key must ask for the same). */
  name: string;
  /** The user who asked for it (its owner); the idempotency key is theirs. */
  createdBy: string;
  idempotencyKey: string;
  status: DeploymentStatus;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface OrganizationDeploymentStepsTable {
  deploymentId: string;
  nodeId: string;
  parentId: string | null;
  position: number;
  name: string;
  status: StepStatus;
  /** What the step produced so far (signer, transaction id and hash, system address). */
  detail: Json<Record<string, unknown>>;
  /** The public error object (Form B's `error`) of a failed step. */
  wireError: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  updatedAt: Timestamp;
}

export type SystemsTables = {
  organizationDeployments: OrganizationDeploymentsTable;
  organizationDeploymentSteps: OrganizationDeploymentStepsTable;
};
export type DeploymentRow = Selectable<OrganizationDeploymentsTable>;
export type DeploymentStepRow = Selectable<OrganizationDeploymentStepsTable>;

export const systemsDb = (db: PlatformDb) => db.withTables<SystemsTables>();
