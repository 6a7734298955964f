// Baseline for the `me` scenario: node:http and one pg pool doing the same work as GET /api/v1/me with a
// key (hash the token, read the key with its app and account in one query), with nothing else.
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { listenOnLoopback } from './listen.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const QUERY = `SELECT acc.id, acc.username, acc.display_name, k.id AS key_id, k.app_id, a.scopes
  FROM api_keys k JOIN apps a ON a.id = k.app_id JOIN accounts acc ON acc.id = k.account_id
  WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`;

const server = http.createServer((req, res) => {
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const hash = createHash('sha256').update(token).digest('hex');
  pool.query(QUERY, [hash]).then(
    ({ rows: [row] }) => {
      const body = JSON.stringify({
        data: {
          account: { id: row.id, username: row.username, display_name: row.display_name },
          key: { id: row.key_id, app_id: row.app_id, scopes: row.scopes },
        },
      });
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    },
    () => {
      res.writeHead(500);
      res.end();
    },
  );
});
listenOnLoopback(server, () => pool.end());
