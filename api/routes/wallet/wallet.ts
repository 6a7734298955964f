// One's own minerals (DECISIONS: Minerals and awards): the wallet and its ledger, read with `profile.read`
// (read allowance). `/profiles/{u}/minerals` stays the public view.
import { listLedger, loadWallet } from '../../../shared/wallet/wallet.js';
import { presentLedgerRow, presentWallet } from '../../../shared/wallet/presenters.js';
import { scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { WALLET_DOCS } from './wallet-docs.js';
import { ledgerQuery } from './schemas.js';

export function walletRoutes(api: VersionedRoutes): void {
  api.get('/wallet', scoped('profile.read', 'read'), WALLET_DOCS.wallet, async (ctx) => {
    ctx.body = { data: presentWallet(await loadWallet(ctx.services.knex, ctx.state.caller!.account.id)) };
  });

  api.get(
    '/wallet/ledger',
    scoped('profile.read', 'read'),
    validate({ query: ledgerQuery }),
    WALLET_DOCS.ledger,
    async (ctx) => {
      const query = ctx.state.input.query as { before?: string; limit: number };
      const page = await listLedger(ctx.services.knex, ctx.state.caller!.account.id, query);
      ctx.body = { data: page.rows.map(presentLedgerRow), has_more: page.has_more, next_before: page.next_before };
    },
  );
}
