// Awards (DECISIONS: Minerals and awards): the catalog is public; giving one is `social.write` (write
// allowance), as likes are.
import { AWARDS } from '../../../shared/awards/award-catalog.js';
import { giveAward } from '../../../shared/awards/award-commands.js';
import type { AwardInput } from '../../../shared/awards/award-rules.js';
import { presentAward, presentGivenAward } from '../../../shared/awards/presenters.js';
import { publicRoute, scoped } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { AWARD_DOCS } from './awards-docs.js';
import { awardBody } from './schemas.js';

const CATALOG = AWARDS.map(presentAward);

export function awardRoutes(api: VersionedRoutes): void {
  api.get('/awards/catalog', publicRoute('read'), AWARD_DOCS.catalog, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = { data: CATALOG };
  });

  api.post('/awards', scoped('social.write', 'write'), validate({ body: awardBody }), AWARD_DOCS.give, async (ctx) => {
    const input = ctx.state.input.body as unknown as AwardInput;
    const given = await giveAward(ctx.services.knex, ctx.state.caller!.account.id, input);
    ctx.status = 201;
    ctx.body = { data: presentGivenAward(given) };
  });
}
