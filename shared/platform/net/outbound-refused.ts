// The one error the outbound guard throws. Callers branch on `reason` (a URL check shows it as the
// check's `error`, a data event decides whether to retry), never on message text.

export type RefusalReason =
  | 'url_invalid'
  | 'scheme_denied'
  | 'address_denied'
  | 'dns_failed'
  | 'connect_failed'
  | 'tls_failed'
  | 'timeout'
  | 'too_many_redirects'
  | 'too_large'
  | 'bad_response'
  | 'decode_failed';

export class OutboundRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** The URL being fetched when it was refused (a redirect target, for refusals after a redirect). */
    readonly url: string | null = null,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OutboundRefused';
  }
}

export function isOutboundRefused(error: unknown): error is OutboundRefused {
  return error instanceof OutboundRefused;
}
