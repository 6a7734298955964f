// Giving an award (DECISIONS: Minerals and awards), in one transaction: the giver debited the cost, the
// author credited a fifth (outside the daily cap), the award recorded (the database moves the thing's
// `awards` counter with the row) and the author notified. Nothing of it happens unless all of it does.
//
// Order of locks: the thing first (FOR NO KEY UPDATE, the lock its counter's update takes; a deletion
// waits, then takes the award with the thing), then the giver's and the author's balance rows in account
// order, so two people awarding each other at once cannot deadlock. Every award of one giver queues on
// the giver's balance row: the price and "given already" are judged on the latest balance and awards, so
// 20 awards at once from a wallet that pays for 3 give exactly 3.
import type { Knex } from 'knex';
import { registerConstraint } from '../platform/db/database-errors.js';
import { MICROSECONDS } from '../content/cursor-page.js';
import { notify } from '../notifications/notify.js';
import { seenSubject, SUBJECT_TABLES } from '../social/subjects.js';
import { authorCredit, awardById, type Award } from './award-catalog.js';
import { alreadyAwarded, refuseOwnContent, refuseUnpaid, type AwardInput } from './award-rules.js';
import { AwardGiven } from './models.js';
import { MineralLedgerEntry } from '../wallet/models.js';

// The check above the insert answers first; the index answers the same should anything slip past it.
registerConstraint('awards_once', alreadyAwarded);

/** An award given, as POST /awards answers it. */
export interface GivenAward {
  on: AwardInput['on'];
  /** The thing's id as clients name it. */
  id: string;
  award: Award;
  /** What the author received. */
  credit: number;
  /** The thing's awards after this one. */
  awards: Record<string, number>;
  /** The giver's balance after paying. */
  balance: number;
  created_at: string;
}

/**
 * `giverId` gives `input.award` to the thing named by `input.on` and `input.id`. What the giver may not see
 * is its kind's 404; their own thing is 400 `own_content`; an award of this kind they gave the thing
 * already is 409 `already_awarded`; a balance short of the cost is 409 `insufficient_minerals`.
 */
export async function giveAward(knex: Knex, giverId: string, input: AwardInput): Promise<GivenAward> {
  // The route's schema lets only the catalog's ids through.
  const award = awardById(input.award)!;
  const source = SUBJECT_TABLES[input.on];
  return knex.transaction(async (trx) => {
    const thing = await seenSubject(trx, input.on, input.id, giverId);
    refuseOwnContent(thing.ownerId, giverId);
    const held = await trx.raw<{ rows: unknown[] }>(`SELECT 1 FROM ${source.table} WHERE id = ? FOR NO KEY UPDATE`, [
      thing.id,
    ]);
    // Deleted while it was being judged.
    if (held.rows.length === 0) throw source.notFound();
    const { rows: wallets } = await trx.raw<{ rows: Array<{ account_id: string; balance: string }> }>(
      `SELECT account_id, balance FROM mineral_balances WHERE account_id IN (?, ?) ORDER BY account_id FOR UPDATE`,
      [giverId, thing.ownerId],
    );
    const balance = Number(wallets.find((wallet) => wallet.account_id === giverId)?.balance ?? 0);
    const key = { giver_id: giverId, subject_kind: input.on, subject_id: thing.id, award: award.id };
    if (await AwardGiven.query(trx).findOne(key).select('id')) throw alreadyAwarded();
    refuseUnpaid(balance, award.cost);

    // To the microsecond, as the ledger's cursor reads it: more than a Date holds, so the text from SQL.
    const [given] = await trx('awards')
      .insert({ ...key, cost: award.cost })
      .returning(trx.raw(`to_char(created_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS created_at`));
    const credit = authorCredit(award.cost);
    const subject = { subject_kind: input.on, subject_id: thing.apiId, award: award.id };
    await MineralLedgerEntry.query(trx).insert([
      { account_id: giverId, delta: -award.cost, reason: 'award_given', ...subject },
      { account_id: thing.ownerId, delta: credit, reason: 'award_received', ...subject },
    ]);
    await notify(trx, {
      recipientId: thing.ownerId,
      kind: 'award',
      actorId: giverId,
      subject: { kind: input.on, id: thing.apiId },
      data: { award: award.id, award_name: award.name },
    });
    const counted: { awards: Record<string, number> } = await trx(source.table).where({ id: thing.id }).first('awards');
    return {
      on: input.on,
      id: thing.apiId,
      award,
      credit,
      awards: counted.awards,
      balance: balance - award.cost,
      created_at: (given as { created_at: string }).created_at,
    };
  });
}
