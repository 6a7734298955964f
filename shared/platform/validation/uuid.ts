const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that reach a query are checked first, so a malformed one is "not found" without a database error. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
