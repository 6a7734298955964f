// The activity feed (spec: GET /activity, /profiles/{username}/reviews, /games/{slug}/activity): activity
// items joined to what they are about, each shown only when its reader may see it. Each item carries the
// visibility of what it is about (the author's library visibility for library entries; the database keeps
// it current); the reader's follows, blocks either way and suspension are decided per author in SQL.
import type { Knex } from 'knex';
import { NOT_SUSPENDED } from '../moderation/suspension.js';
import { queryPrepared, statementName } from '../platform/db/prepared.js';
import { invalidRequest } from '../platform/errors.js';
import { couldBeUsername, foundPerson, NOBODY, personLookup, type FoundPerson } from './visibility.js';
import { blockedSql } from './item-visibility.js';
import { amongMatches, findTextMatches, textTest, textTestPerItem, type TextMatches } from './activity-branches.js';
import { likeContaining } from '../platform/db/like.js';
import { ACTIVITY_KINDS, type ActivityKind } from './activity-kinds.js';
import { commentCountSql, type CommentedKind } from '../content/comment-count.js';

export { ACTIVITY_KINDS, type ActivityKind };

export interface ActivityFilters {
  authorIds?: string[];
  gameId?: number;
  kinds?: ActivityKind[];
  q?: string;
  rating?: number;
  spoilers?: 'all' | 'safe' | 'spoilers';
  order?: 'new' | 'old';
  before?: string;
  limit: number;
  offset?: number;
}

/**
 * SQL: the reader may see the item `x`, by the visibility the item stores (derived from its subject by the
 * database, see migration activity_item_visibility): no lookup per item but the reader's follows. HIDDEN
 * items (captures removed by moderation, subjects gone) show to nobody, their author included.
 */
function itemSeen(anonymous: boolean): string {
  if (anonymous) return `x.visibility = 'PUBLIC'`;
  return `(x.visibility = 'PUBLIC' OR (x.account_id = :reader AND x.visibility <> 'HIDDEN')
    OR (x.visibility = 'FOLLOWERS' AND EXISTS (SELECT 1 FROM follows fo WHERE fo.follower_id = :reader AND fo.followee_id = x.account_id)))`;
}

/** Each kind's subject and the columns the filters test on it (null: the kind has none). */
const SUBJECTS: Record<
  ActivityKind,
  { table: string; alias: string; rating: string | null; spoilers: string | null; text: string | null }
> = {
  review: { table: 'reviews', alias: 'r', rating: 'r.rating', spoilers: 'r.contains_spoilers', text: 'r.body' },
  session: { table: 'play_sessions', alias: 'p', rating: null, spoilers: null, text: null },
  list: { table: 'lists', alias: 'l', rating: null, spoilers: null, text: 'l.title' },
  journey: { table: 'journeys', alias: 'j', rating: null, spoilers: null, text: 'j.title' },
  screenshot: {
    table: 'screenshots',
    alias: 's',
    rating: null,
    spoilers: 's.contains_spoilers',
    text: 's.description',
  },
  entry: { table: 'library_entries', alias: 'e', rating: 'e.rating', spoilers: null, text: null },
};

/**
 * SQL: what the item `x` of `kind` must pass of the filters on what it is about (rating, spoilers, text),
 * '' when nothing, or null when the filters rule the kind out (a rating on sessions). Each test looks the
 * subject up by primary key, with no join in the outer query, so PostgreSQL walks the feed in its index
 * order and stops at the page's end. `text` decides how `q` is tested (activity-branches.ts).
 */
function kindTests(kind: ActivityKind, filters: ActivityFilters, text: (kind: ActivityKind) => string): string | null {
  const subject = SUBJECTS[kind];
  const tests: string[] = [];
  if (filters.rating !== undefined) {
    if (!subject.rating) return null;
    tests.push(`${subject.rating} >= :rating`);
  }
  if (filters.spoilers === 'safe' && subject.spoilers) tests.push(`NOT ${subject.spoilers}`);
  if (filters.spoilers === 'spoilers') {
    if (!subject.spoilers) return null;
    tests.push(subject.spoilers);
  }
  // OFFSET 0 keeps the test a lookup per item the walk passes. Without it PostgreSQL may turn it into a
  // hash of the whole subject table (166,000 sessions for 21 items) or, for a lone kind, a join that it
  // planned as a parallel scan: 330 ms for a page of 30 entries rated 80 and up.
  const looked = tests.length
    ? ` AND EXISTS (SELECT 1 FROM ${subject.table} ${subject.alias} WHERE ${subject.alias}.id = x.subject_id AND ${tests.join(' AND ')} OFFSET 0)`
    : '';
  return `${looked}${filters.q?.trim() ? ` AND ${text(kind)}` : ''}`;
}

/** The kinds a page may hold: those asked for (all by default) that the filters do not rule out. */
function possibleKinds(filters: ActivityFilters): ActivityKind[] {
  return (filters.kinds ?? ACTIVITY_KINDS).filter((kind) => kindTests(kind, filters, () => '') !== null);
}

/**
 * SQL: the item `x` passes the filters on what it is about, tested per item (`text` decides how `q` is);
 * null when nothing is asked.
 */
function matching(filters: ActivityFilters, text: (kind: ActivityKind) => string): string | null {
  const spoilers = filters.spoilers === 'safe' || filters.spoilers === 'spoilers';
  const asks = filters.rating !== undefined || spoilers || Boolean(filters.q?.trim());
  if (!asks) return null;
  const clauses = possibleKinds(filters).map((kind) => `(x.kind = '${kind}'${kindTests(kind, filters, text)})`);
  return clauses.length ? `(${clauses.join('\n    OR ')})` : 'false';
}

/**
 * SQL: as `matching`, for a page read straight from `q`'s matches (amongMatches tests the text): a CASE on
 * the kind, which no index answers, so the matches' bitmap stays the only one (as ORs, each kind's arm
 * became a second bitmap of the same items, or of a whole kind).
 */
function matchingEach(filters: ActivityFilters): string {
  const kinds = possibleKinds(filters);
  if (!kinds.length) return 'false';
  return `(CASE x.kind ${kinds.map((kind) => `WHEN '${kind}' THEN true${kindTests(kind, filters, () => 'true')}`).join(' ')} ELSE false END)`;
}

/**
 * SQL: what a likeable thing shows wherever it is shown (DECISIONS: What the feed and the things carry):
 * its likes and awards as it keeps them, and the comments on it that moderation has not removed.
 */
const reactions = (alias: string, commentKind: CommentedKind) => `'likes', ${alias}.likes, 'awards', ${alias}.awards,
      'comments', ${commentCountSql(commentKind, `${alias}.id`)}`;

/**
 * What each kind's item shows beyond the common fields: the spec's pairs over its subject's columns, the
 * thing's id (an entry's thing is its game) and a likeable thing's reactions.
 */
const DETAILS: Record<ActivityKind, string> = {
  review: `'review_id', r.id, 'body', r.body, 'rating', r.rating, 'contains_spoilers', r.contains_spoilers,
      ${reactions('r', 'REVIEW')}`,
  session: `'session_id', p.id, 'minutes', p.minutes, 'live', p.ended_at IS NULL`,
  entry: `'status', e.status, 'rating', e.rating`,
  list: `'list_id', l.public_id, 'title', l.title, ${reactions('l', 'LIST')}`,
  journey: `'journey_id', j.id, 'title', j.title, ${reactions('j', 'JOURNEY')}`,
  // URLs as MediaStorage.url makes them (the base is the web process's setting, bound): a missing
  // thumbnail's URL and sizes stay null.
  screenshot: `'screenshot_id', s.public_id, 'contains_spoilers', s.contains_spoilers, ${reactions('s', 'SCREENSHOT')},
      'imageUrl', CAST(:media_base AS text) || '/' || s.image_key,
      'thumbnailUrl', CAST(:media_base AS text) || '/' || s.thumbnail_key,
      'thumbnailWidth', CASE WHEN s.thumbnail_key IS NOT NULL THEN s.thumbnail_width END,
      'thumbnailHeight', CASE WHEN s.thumbnail_key IS NOT NULL THEN s.thumbnail_height END`,
};

/**
 * SQL: the page as the spec shows it, its JSON text whole: `data` (the first `limit` of the picked items
 * `x`, one more than the page was picked to tell `has_more`), `has_more` and `next_before`. The web
 * process sends the text as it is: parsing a page (100 KB and more with long reviews) and serializing it
 * again was most of its work on a feed read. Each item is built by a subquery on its own kind's table, in
 * a CASE on the kind, so PostgreSQL runs only that one per item: as a lateral join per kind, every item
 * stepped through all six (15% more of the statement's time for the global feed); as plain joins, every
 * item probed all six tables. Only the kinds the page can hold are named. `person`: the page is of the
 * statement's person, whose name every item carries, so no author is looked up per item.
 */
function pageJson(kinds: readonly ActivityKind[], order: string, person: boolean, limit: number): string {
  const created = `to_char(x.created_at AT TIME ZONE 'UTC', :timestamp)`;
  const common = `'id', x.id, 'kind', x.kind, 'username', a.username, 'game_id', x.game_id, 'created_at', ${created}`;
  const item = (kind: ActivityKind) => {
    const { table, alias } = SUBJECTS[kind];
    return `
    WHEN '${kind}' THEN (SELECT json_build_object(${common}, ${DETAILS[kind]})
      FROM ${table} ${alias} WHERE ${alias}.id = x.subject_id)`;
  };
  const author = person
    ? 'CROSS JOIN (SELECT person.username FROM person) a'
    : 'LEFT JOIN LATERAL (SELECT a.username FROM accounts a WHERE a.id = x.account_id LIMIT 1) a ON true';
  // An item whose subject is gone is HIDDEN and never picked; were one read mid-change, it shows its
  // common fields rather than a null in the list.
  const items = `json_agg(coalesce(CASE x.kind ${kinds.map(item).join('')} END, json_build_object(${common}))
    ORDER BY ${order}) FILTER (WHERE x.n <= ${limit})`;
  return `SELECT json_build_object('data', coalesce(${items}, '[]'), 'has_more', count(*) > ${limit},
    'next_before', CASE WHEN count(*) > ${limit} THEN max(${created}) FILTER (WHERE x.n = ${limit}) END)::text AS page
  FROM (SELECT x.*, row_number() OVER (ORDER BY ${order}) AS n FROM picked x) x ${author}`;
}

/** Who and what a feed statement reads beyond the filters. */
interface FeedContext {
  /** The feed is of the person so named, looked up in the same statement (readPersonActivity). */
  personName?: string;
  /** What `q` matched, found first (activity-branches.ts). */
  matches?: TextMatches;
  /** MediaStorage's public base: captures' keys become URLs in the statement. */
  mediaBase?: string;
}

/**
 * `person`: the feed is of the person looked up in the same statement (readPersonActivity). `direct`: the
 * page is read straight from what `q` matched (activity-branches.ts).
 */
function where(
  filters: ActivityFilters,
  readerId: string | null,
  person: boolean,
  perKind: boolean,
  direct?: TextMatches,
) {
  const anonymous = readerId === null;
  // The text differs for anonymous readers, so their prepared plan has no per-row follow lookups.
  const clauses = [itemSeen(anonymous)];
  const bindings: Record<string, Knex.Value> = anonymous ? {} : { reader: readerId };
  if (direct) clauses.push(matchingEach(filters));
  // Read one kind at a time, each walk tests its own kind's filters (feedStatement).
  const matches = perKind || direct ? null : matching(filters, textTestPerItem);
  if (matches) clauses.push(matches);
  // Shared feeds (everyone, a game) leave suspended authors out, as search does, but for the author; a
  // feed of named people shows their items as their other pages do, so a page and its count agree.
  const named = person || filters.authorIds !== undefined;
  if (!named) {
    clauses.push(
      anonymous ? NOT_SUSPENDED('x.account_id') : `(x.account_id = :reader OR ${NOT_SUSPENDED('x.account_id')})`,
    );
  }
  // Blocks are between accounts: an anonymous reader has none.
  if (!anonymous) {
    clauses.push(`NOT ${blockedSql(':reader', 'x.account_id')}`);
  }
  if (person) {
    clauses.push('x.account_id = (SELECT person.id FROM person)');
  } else if (filters.authorIds?.length === 1) {
    clauses.push('x.account_id = :author');
    bindings.author = filters.authorIds[0];
  } else if (filters.authorIds) {
    clauses.push('x.account_id = ANY(CAST(:authors AS uuid[]))');
    bindings.authors = filters.authorIds as unknown as Knex.Value;
  }
  if (filters.gameId !== undefined) {
    clauses.push('x.game_id = :game');
    bindings.game = filters.gameId;
  }
  if (perKind) {
    // The kinds are the walks'.
  } else if (filters.kinds?.length === 1 && !named) {
    // An equality, not ANY: only then can the walk use the (kind, created_at, id) index in order. Not with
    // authors: their own index is the short walk, and the generic plan could not tell (the text decides).
    clauses.push('x.kind = :kind');
    bindings.kind = filters.kinds[0];
  } else if (filters.kinds?.length) {
    clauses.push('x.kind = ANY(CAST(:kinds AS text[]))');
    bindings.kinds = filters.kinds as unknown as Knex.Value;
  }
  if (filters.rating !== undefined) bindings.rating = filters.rating;
  const text = filters.q?.trim();
  if (text) Object.assign(bindings, { like: likeContaining(text), words: text });
  if (filters.before) {
    clauses.push(filters.order === 'old' ? 'x.created_at > :before' : 'x.created_at < :before');
    bindings.before = filters.before;
  }
  return { sql: clauses.join(' AND '), bindings };
}

/**
 * The feed's statement: first the page's items, in the feed's index order (materialized, so nothing is
 * joined before the page is picked, and carrying the columns the rest needs); then what they are about,
 * for those rows only. One statement, run prepared: its planning cost more than its execution. With
 * `personName`, it starts by looking up the person so named and answers their row beside the items, so a
 * person's feed is one round trip. Exported for the benchmark's plan check.
 */
export function feedStatement(
  knex: Knex,
  filters: ActivityFilters,
  readerId: string | null,
  { personName, matches, mediaBase = '' }: FeedContext = {},
) {
  const person = personName !== undefined;
  if (filters.offset !== undefined && filters.kinds?.length !== 1) {
    throw invalidRequest('offset pages one kind only: send exactly one in kinds.', {
      field: 'offset',
      reason: 'not_allowed',
    });
  }
  // Few matches of `q` are read straight, all kinds at once; else the kinds walk (readsByKind).
  const direct = matches?.direct ? matches : undefined;
  const perKind = !direct && readsByKind(filters, person);
  const { sql, bindings } = where(filters, readerId, person, perKind, direct);
  const among = direct ? amongMatches(direct, bindings) : null;
  const direction = filters.order === 'old' ? 'ASC' : 'DESC';
  const order = `x.created_at ${direction}, x.id ${direction}`;
  // The limit is part of the text (a validated integer): a prepared statement's generic plan then knows the
  // page is small and looks its details up by key, where a bound limit made it hash-join whole tables.
  const limit = Math.trunc(filters.limit) + 1;
  const columns = 'x.id, x.kind, x.account_id, x.subject_id, x.game_id, x.created_at';
  let page = `SELECT ${columns} FROM activity_items x WHERE ${sql} ORDER BY ${order} LIMIT ${limit} OFFSET :offset`;
  if (among) {
    // Straight from the matches: their bitmap, all of them sorted, and only then the tests that look
    // something up per item (follows, blocks, suspension, a rating), item by item until the page is full.
    // OFFSET 0 keeps those tests out of the sort's input: the generic plan expects a handful of matches
    // where there are thousands, and a suspension join planned for a handful cost 20 ms.
    page = `SELECT ${columns} FROM (SELECT ${columns}, x.visibility FROM activity_items x WHERE ${among}
       ORDER BY ${order} OFFSET 0) x
       WHERE ${sql} ORDER BY ${order} LIMIT ${limit} OFFSET :offset`;
  } else if (perKind) {
    const text = (kind: ActivityKind) => (matches ? textTest(kind, matches, bindings) : textTestPerItem(kind));
    const walk = (kind: ActivityKind) =>
      `SELECT ${columns} FROM activity_items x WHERE ${sql} AND x.kind = '${kind}'${kindTests(kind, filters, text)}
         ORDER BY ${order} LIMIT ${limit}`;
    const kinds = possibleKinds(filters);
    // One kind pages by offset (the only case that may); several merge their walks, none has an offset.
    if (kinds.length === 0) page = `SELECT ${columns} FROM activity_items x WHERE false`;
    else if (kinds.length === 1) page = `${walk(kinds[0])} OFFSET :offset`;
    else {
      page = `SELECT x.* FROM (${kinds.map((kind) => `(${walk(kind)})`).join('\n UNION ALL ')}) x
         ORDER BY ${order} LIMIT ${limit} OFFSET :offset`;
    }
  }
  const picked = `picked AS MATERIALIZED (${page})`;
  const items = pageJson(filters.kinds ?? ACTIVITY_KINDS, order, person, Math.trunc(filters.limit));
  const text = person
    ? `WITH person AS MATERIALIZED (${personLookup(':person_name', ':person_reader')}), ${picked}
       SELECT person.*, (${items}) AS page FROM person`
    : `WITH ${picked} ${items}`;
  // The format is a value, not text of the query: its colons would read as named bindings.
  const values = {
    ...bindings,
    ...(person ? { person_name: personName, person_reader: readerId ?? NOBODY } : {}),
    offset: filters.offset ?? 0,
    media_base: mediaBase,
    timestamp: 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"',
  };
  const native = knex.raw(text, values).toSQL().toNative();
  return { name: statementName('jogatina_activity', native.sql), text: native.sql, values: [...native.bindings] };
}

/**
 * Whether the page is read one kind at a time (activity-branches.ts): a shared feed (not of people, not of
 * a game, whose own indexes are the short walks) whose filters leave some kinds out, or that looks for text.
 */
function readsByKind(filters: ActivityFilters, person: boolean): boolean {
  if (person || filters.authorIds !== undefined || filters.gameId !== undefined) return false;
  return Boolean(filters.q?.trim()) || possibleKinds(filters).length < ACTIVITY_KINDS.length;
}

/** What `q` names, found first when the page is read by kind (null otherwise, or without `q`). */
async function textMatches(knex: Knex, filters: ActivityFilters, person: boolean): Promise<TextMatches | undefined> {
  const q = filters.q?.trim();
  if (!q || !readsByKind(filters, person)) return undefined;
  return findTextMatches(knex, q, possibleKinds(filters), filters.limit);
}

/** The feed's page as JSON text (the spec's `{ data, has_more, next_before }`), to send as it is. */
export type FeedPageJson = string;

const EMPTY_PAGE: FeedPageJson = JSON.stringify({ data: [], has_more: false, next_before: null });

export async function readActivity(
  knex: Knex,
  readerId: string | null,
  filters: ActivityFilters,
  mediaBase: string,
): Promise<FeedPageJson> {
  const matches = await textMatches(knex, filters, false);
  const { name, text, values } = feedStatement(knex, filters, readerId, { matches, mediaBase });
  const [{ page }] = (await queryPrepared(knex, name, text, values)) as unknown as Array<{ page: FeedPageJson }>;
  return page;
}

/**
 * The feed of the one person holding `name` (filters.authorIds is not read), with the person as the
 * statement found them: null when nobody holds the name (the page is then empty). The caller decides from
 * the person whether the reader may see them at all; the items are already those the reader may see.
 */
export async function readPersonActivity(
  knex: Knex,
  name: string,
  readerId: string | null,
  filters: ActivityFilters,
  mediaBase: string,
): Promise<{ person: FoundPerson | null; page: FeedPageJson }> {
  // Bad filters are refused before a name that cannot be anyone's is 404.
  const statement = feedStatement(knex, filters, readerId, { personName: name, mediaBase });
  const row = couldBeUsername(name)
    ? (await queryPrepared(knex, statement.name, statement.text, statement.values))[0]
    : undefined;
  if (!row) return { person: null, page: EMPTY_PAGE };
  const { page, ...person } = row as { page: FeedPageJson } & Record<string, unknown>;
  return { person: foundPerson(person, readerId), page };
}
