// The state every request carries through the middleware chain.
import type { ParameterizedContext } from 'koa';
import type { UploadedFile } from './middleware/multipart.js';

export interface RequestInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export interface AppState {
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
