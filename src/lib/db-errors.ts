/** True for a UNIQUE/PRIMARY KEY constraint failure from libSQL (a lost race on an insert). */
export function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string })?.code ?? ""} ${(error as Error)?.message ?? ""} ${(error as { cause?: Error })?.cause?.message ?? ""}`;
  return /SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)|UNIQUE constraint failed/.test(text);
}
