// Whether a Content-Type names JSON: application/json or an application/…+json type, any parameters aside.
export function isJsonContentType(header: string | undefined | null): boolean {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || (type?.startsWith("application/") === true && type.endsWith("+json"));
}
