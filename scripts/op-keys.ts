// `npm run op -- keys rotate`: the identity key set's rotation (DECISIONS: Arcade, key set). The promoted
// key was published as `next` since the last rotation, so game servers holding a cached set know it; other
// processes start signing with it within SIGNER_CACHE_MS (shared/identity/signing-keys.ts).
import { rotateSigningKeys } from '../shared/identity/signing-keys.js';
import type { OpCommand } from './op-arcade.js';

export const KEY_COMMANDS: Record<string, OpCommand> = {
  'keys rotate': {
    summary: 'promote the next signing key to current; the current one keeps verifying for 24 hours',
    async run(knex, config) {
      const kid = await rotateSigningKeys(knex, config.secret);
      console.log(`current signing key is now ${kid}`);
    },
  },
};
