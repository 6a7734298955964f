// The state every request carries through the middleware chain.
import type { ParameterizedContext } from 'koa';
import type { Account } from '../shared/accounts/account.js';
import type { Session } from '../shared/auth/models.js';
import type { KeyIdentity } from '../shared/keys/key-caller.js';

/** The file an upload route's multipart step read, in a temporary folder (middleware/multipart.ts). */
export interface UploadedFile {
  field: string;
  path: string;
  bytes: number;
  declaredType: string | null;
  filename: string | null;
}

export interface RequestInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** Who calls: an API key's owner (with the key), a session's account, or nobody (null). */
export interface Caller {
  account: Account;
  key: KeyIdentity | null;
  session: Session | null;
  /** Whether the account is suspended, when the lookup that found the caller already asked (keys do). */
  suspended?: boolean;
}

export interface AppState {
  /** Set once the route's access declaration has run (see middleware/access.ts). */
  caller: Caller | null;
  /** A well-formed key token from the Authorization header, resolved by the route's access declaration. */
  keyToken: string | null;
  requestId: string;
  /** A multipart body that only a route's own `multipartFile` step may read. */
  multipartPending?: boolean;
  upload?: UploadedFile;
  /** Validated and coerced input, set by `validate`. */
  input: RequestInput;
}

export type AppContext = ParameterizedContext<AppState>;

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, or undefined when the request had none (set by `jsonBody`). */
    body?: unknown;
  }
}
