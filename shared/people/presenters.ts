// How a person shows inside someone else's page (search results, connection lists, discovery, comment
// authors): the name, the display name (an empty string when unset) and the avatar. The avatar's storage
// key comes in the same query as the row, so presenting never queries.

/** What a person summary is presented from: the account's names and its avatar's storage key. */
export interface PersonSummaryRow {
  username: string | null;
  display_name: string | null;
  avatar_key: string | null;
}

/** `username` keeps the row's type: a query that reads only named accounts answers a string. */
export function presentPersonSummary<Row extends PersonSummaryRow>(
  row: Row,
  mediaUrl: (key: string) => string,
): { username: Row['username']; display_name: string; avatar_url: string | null } {
  return {
    username: row.username,
    display_name: row.display_name ?? '',
    avatar_url: row.avatar_key ? mediaUrl(row.avatar_key) : null,
  };
}
