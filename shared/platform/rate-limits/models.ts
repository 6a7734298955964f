// The rate limits' counters. `rate_limits` is rate-limiter-flexible's table (the attempt limiter's store,
// attempt-limiter.ts), whose own writes stay the library's; `rolling_windows` holds each subject's uses of a
// rolling daily cap (rolling-cap.ts), taken and counted in one statement each.
import { BaseModel } from '../db/base-model.js';

export class RateLimit extends BaseModel {
  static override tableName = 'rate_limits';
  static override idColumn = 'key';

  declare key: string;
  declare points: number;
  /** When the window ends, in milliseconds since the epoch (null: never). */
  declare expire: number | null;
}

export class RollingWindow extends BaseModel {
  static override tableName = 'rolling_windows';
  static override idColumn = 'key';

  declare key: string;
  /** The times of the uses still in the window. */
  declare uses: Date[];
  declare last_use: Date;
}
