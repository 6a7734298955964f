// `npm run op -- keys rotate`: the identity key set's rotation (DECISIONS: Arcade, key set).
import { config } from '../shared/config.js';
import { rotateSigningKeys } from '../shared/identity/signing-keys.js';
import type { OpCommand } from './op-arcade.js';

export const KEY_COMMANDS: Record<string, OpCommand> = {
  'keys rotate': {
    summary: 'promote the next signing key to current; the current one keeps verifying for 24 hours',
    async run(knex) {
      const kid = await rotateSigningKeys(knex, config().secret);
      console.log(`current signing key is now ${kid}`);
    },
  },
};
