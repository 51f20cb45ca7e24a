// Turns a zod validation failure into BAD_REQUEST naming every field path (e.g. `modules.0.typeId`).
import type { ZodError } from "zod";
import { badRequest } from "../errors/api-error.ts";

export function validationError(error: ZodError, where: string) {
  const issues = error.issues.map((i) => ({ path: i.path.map(String).join(".") || where, message: i.message }));
  const first = issues[0];
  return badRequest(first ? `Invalid ${where} field "${first.path}": ${first.message}` : `Invalid ${where}`, issues);
}
