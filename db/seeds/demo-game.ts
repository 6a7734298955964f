// The demo Arcade game (DECISIONS: Demo data): one listed game whose live release asks for `identify` and
// names an events URL, so a newcomer can call every public Arcade route at once. Its addresses are under
// the reserved `.example` name: nothing is fetched from them (events to it wait and retry like any other).
// Written straight into the tables as a finished review would leave them; a repeat adds nothing.
import type { Knex } from 'knex';
import { claimFirstUsername } from '../../shared/accounts/usernames.js';
import { arcadeSettings } from '../../shared/arcade/settings.js';

export const DEMO_GAME_SLUG = 'demo-rocks';
const ORIGIN = 'https://arcade-demo.jogatina.example';

const LISTING = {
  name: 'Demo Rocks',
  tagline: 'Steer a small ship through a field of rocks.',
  description: {
    default_locale: 'en',
    'pt-BR': 'Pilote uma pequena nave por um campo de asteroides.',
    en: 'Steer a small ship through a field of rocks. A demo game of Jogatina Arcade.',
    es: 'Pilota una pequeña nave por un campo de asteroides.',
  },
  tags: ['arcade', 'retro'],
  age_rating: 'L',
  orientation: 'landscape',
  platforms: ['desktop', 'mobile'],
  privacy_url: `${ORIGIN}/privacy`,
  terms_url: null,
  support_url: `${ORIGIN}/support`,
  controller_name: 'Jogatina Demo Studio',
  controller_country: 'BR',
  privacy_contact: `${ORIGIN}/privacy#contact`,
};

/** Creates the demo studio and its listed game unless they exist; answers whether it made them. */
export async function seedDemoArcadeGame(knex: Knex): Promise<boolean> {
  return knex.transaction(async (trx) => {
    if (await trx('arcade_claims').where({ kind: 'slug', value: DEMO_GAME_SLUG }).first('app_id')) return false;
    const [account] = await trx('accounts')
      .insert({ email: 'demo-studio@jogatina.example', email_verified_at: trx.fn.now() })
      .returning('id');
    await claimFirstUsername(trx, account.id, 'demo_studio');
    const [app] = await trx('apps')
      .insert({ account_id: account.id, name: 'Demo Rocks', description: 'The demo Arcade game.', scopes: [] })
      .returning('id');
    const { terms_version: terms } = await arcadeSettings(trx);
    await trx('arcade_claims').insert([
      { kind: 'slug', value: DEMO_GAME_SLUG, app_id: app.id },
      { kind: 'origin', value: ORIGIN, app_id: app.id },
    ]);
    await trx('arcade_apps').insert({
      app_id: app.id,
      account_id: account.id,
      slug: DEMO_GAME_SLUG,
      terms_version: terms,
    });
    const [release] = await trx('arcade_releases')
      .insert({
        app_id: app.id,
        number: 1,
        status: 'approved',
        entry_url: `${ORIGIN}/play/`,
        entry_origin: ORIGIN,
        capabilities: [],
        scopes: ['identify'],
        orientation: 'landscape',
        platforms: ['desktop', 'mobile'],
        data_events_url: `${ORIGIN}/events`,
        notes: 'Demo data.',
        submitted_at: trx.fn.now(),
        reviewed_at: trx.fn.now(),
        approved_at: trx.fn.now(),
        went_live_at: trx.fn.now(),
        review: JSON.stringify({ decision: 'approve', reasons: [], note: null }),
      })
      .returning('id');
    await trx('arcade_listings').insert({
      app_id: app.id,
      number: 1,
      status: 'approved',
      fields: JSON.stringify(LISTING),
      submitted_at: trx.fn.now(),
      reviewed_at: trx.fn.now(),
      review: JSON.stringify({ decision: 'approve', reasons: [], note: null }),
    });
    await trx('arcade_apps')
      .where({ app_id: app.id })
      // Never re-checked by the schedule: its host is a reserved name that never answers, and two failed
      // checks would hide the demo an hour after it was seeded.
      .update({ status: 'listed', approved_at: trx.fn.now(), live_release_id: release.id, recheck_due_at: 'infinity' });
    return true;
  });
}
