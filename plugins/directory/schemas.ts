// The directory and addon factory resources as the spec names their fields.
import { z } from "@hono/zod-openapi";
import { ADDON_KINDS } from "../../domain/directory/addon-kinds.ts";
import {
  DIRECTORY_FIELDS,
  IDENTITY_IMPLEMENTATION_FIELDS,
  SYSTEM_IMPLEMENTATION_FIELDS,
} from "../../domain/directory/directory-keys.ts";
import { AddressSchema, linksSelf } from "../../host/http/schemas.ts";

const Pointer = z.string().nullable().openapi({ description: "Address; null when the directory holds no entry" });
const pointers = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, Pointer]));

const TypeFields = {
  id: z.string().openapi({ description: "The type id: keccak256 of its name (bytes32)" }),
  typeId: z.string().openapi({ description: "Same as id" }),
  name: z.string(),
  registeredAt: z.string().openapi({ description: "ISO 8601" }),
  isExperimental: z.boolean(),
};

export const TokenTypeSchema = z
  .object({ ...TypeFields, implementation: z.string(), factoryImplementation: z.string() })
  .openapi("DirectoryTokenType");

export const ComplianceModuleTypeSchema = z
  .object({ ...TypeFields, implementation: z.string() })
  .openapi("DirectoryComplianceModuleType");

export const AddonTypeSchema = z
  .object({
    ...TypeFields,
    kind: z.enum(ADDON_KINDS),
    factoryImplementation: z.string().openapi({ description: "For a singleton: its single implementation" }),
    instanceImplementation: z.string().nullable().openapi({ description: "Factories only" }),
  })
  .openapi("DirectoryAddonType");

export const DirectorySchema = z
  .object({
    id: z.string().openapi({ description: "The directory's address" }),
    ...pointers(DIRECTORY_FIELDS),
    identityImplementations: z.object(pointers(IDENTITY_IMPLEMENTATION_FIELDS)),
    systemImplementations: z.object(pointers(SYSTEM_IMPLEMENTATION_FIELDS)),
    tokenTypes: z.array(TokenTypeSchema),
    complianceModuleTypes: z.array(ComplianceModuleTypeSchema),
    addonTypes: z.array(AddonTypeSchema),
  })
  .openapi("Directory");

export const DirectoryResponseSchema = z.object({ data: DirectorySchema.nullable(), links: linksSelf });

export const DirectoryQuerySchema = z.object({
  contract: AddressSchema.optional().openapi({
    description: "A directory address (default: the directory of the organisation's system on the chain)",
  }),
});

export const AddonFactoryListItemSchema = z
  .object({
    id: z.string().openapi({ description: "The addon's address" }),
    name: z.string(),
    typeId: z.string().openapi({ description: "The addon type, e.g. xvp-settlement" }),
    deployedInTransaction: z.string(),
    account: z.string().openapi({ description: "The addon's address (same as id)" }),
    kind: z.enum(ADDON_KINDS),
    systemAddonImplementation: z.string().nullable().openapi({ description: "Singletons only" }),
    factoryImplementation: z.string(),
    instanceImplementation: z.string().nullable().openapi({ description: "Factories only" }),
  })
  .openapi("AddonFactoryListItem");

export const AddonFactorySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    typeId: z.string(),
    version: z.number().int().openapi({ description: "The addon's version() when created (1 when it has none)" }),
    type: z.string().openapi({ description: "Same as typeId" }),
  })
  .openapi("AddonFactory");

export const AddonFactoryParams = z.object({
  factoryAddress: AddressSchema.openapi({ param: { name: "factoryAddress", in: "path" } }),
});
