// The largest value of PostgreSQL's `integer` column (int4). Every integer a request may carry into such a
// column declares it as its schema's maximum, so an out-of-range number is the client's 400 `out_of_range`
// and never a statement that fails as ours (500). test/api/input-bounds.test.ts holds every
// integer field of the reference to a maximum.
export const INT4_MAX = 2147483647;
