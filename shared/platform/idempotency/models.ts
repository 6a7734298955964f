// A kept Idempotency-Key: the request it was first used for (its scope hashed with the caller and the
// route), and the answer to replay, sealed, or the worker's job the request handed over (idempotency-keys.ts).
import { BaseModel } from '../db/base-model.js';

export class IdempotencyKey extends BaseModel {
  static override tableName = 'idempotency_keys';

  declare id: number;
  /** The hash of the caller, the route and the key: what a repeat looks the row up by. */
  declare scope: string;
  declare account_id: string;
  declare caller: string;
  declare method: string;
  declare path: string;
  declare key: string;
  declare fingerprint: string;
  declare state: 'in_progress' | 'done';
  declare status: number | null;
  /** Written as JSON text by the one statement that stores an answer; read as the object. */
  declare headers: Record<string, string> | null;
  /** The answer's body, sealed. */
  declare body: string | null;
  declare locked_at: Date | null;
  declare created_at: Date;
  declare expires_at: Date;
  declare job_queue: string | null;
  declare job_id: string | null;
}
