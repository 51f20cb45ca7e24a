// Turns a zod validation failure into BAD_REQUEST naming every field path (e.g. `modules.0.typeId`).
import type { ZodError } from "zod";
import { badRequest } from "../errors/api-error.ts";

/** A zod failure's issues with their field paths, under `prefix` (e.g. ["featureConfigs", "aum-fee"]). */
export function zodIssues(error: ZodError, prefix: string[] = []) {
  return error.issues.map((i) => ({ path: [...prefix, ...i.path.map(String)].join("."), message: i.message }));
}

export function validationError(error: ZodError, where: string) {
  const issues = zodIssues(error).map((i) => ({ ...i, path: i.path || where }));
  const first = issues[0];
  return badRequest(first ? `Invalid ${where} field "${first.path}": ${first.message}` : `Invalid ${where}`, issues);
}
