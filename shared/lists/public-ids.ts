// The ids lists and folders are named by in the API (`public_id`): short, URL-safe and unguessable, so a
// private list's id reveals nothing of its neighbours. 72 random bits; the unique index stands behind them.
import { randomBytes } from 'node:crypto';

export function newPublicId(): string {
  return randomBytes(9).toString('base64url');
}
