// Request and response shapes of the workflow-engine operator routes (spec: Workflow-engine recovery, doctor readout).
import { z } from "@hono/zod-openapi";

const ServiceToken = z
  .string()
  .regex(/^[a-zA-Z0-9_-]+$/, "letters, digits, _ and - only")
  .openapi({ description: "As the doctor shows it (characters outside [A-Za-z0-9-] written as _ and two hex digits)" });

export const DoctorBodySchema = z.object({}).strict().openapi("WorkflowEngineDoctorRequest");

export const ForceRedeployBodySchema = z
  .object({
    serviceUrl: z.url().openapi({ description: "A registered worker process, as the doctor lists it" }),
    force: z.boolean().default(true),
  })
  .strict()
  .openapi("WorkflowEngineForceRedeployRequest");

export const CleanupBodySchema = z
  .object({
    serviceUrl: z.url().openapi({ description: "The deployment to keep (its exact registered value)" }),
    forceDrain: z.boolean().default(false),
  })
  .strict()
  .openapi("WorkflowEngineCleanupRequest");

export const RecoverBodySchema = z
  .object({ serviceName: ServiceToken, serviceKey: ServiceToken })
  .strict()
  .openapi("WorkflowEngineRecoverRequest");

const Status = z.enum(["ok", "unreachable", "degraded"]);

export const DoctorSchema = z
  .object({
    ingress: z.object({ status: Status, latencyMs: z.number().nullable() }),
    admin: z.object({ status: Status, latencyMs: z.number().nullable(), version: z.string().nullable() }),
    deployments: z.object({
      status: Status,
      items: z.array(z.object({ id: z.string(), serviceUrl: z.string(), createdAt: z.string() })),
      error: z.string().nullable(),
    }),
    services: z.object({
      status: Status,
      items: z.array(z.object({ name: z.string(), revision: z.number().optional() })),
      error: z.string().nullable(),
    }),
    invocations: z.object({
      status: Status,
      byStatus: z.record(z.string(), z.number()).optional(),
      recentFailures: z
        .array(
          z.object({
            id: z.string(),
            serviceName: z.string(),
            serviceKey: z.string().nullable(),
            failedAt: z.string(),
            errorMessage: z.string().nullable(),
          }),
        )
        .optional(),
      error: z.string().nullable(),
    }),
  })
  .openapi("WorkflowEngineDoctor");

export const AcknowledgedSchema = z
  .object({ acknowledged: z.boolean(), deploymentId: z.string().optional() })
  .openapi("WorkflowEngineAcknowledged");
