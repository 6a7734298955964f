// The history's hook in the reads it records (DECISIONS: History): GET /games/{slug} and GET
// /profiles/{username} call it once they have their answer. Whether the read is recorded is decided at once
// from the caller the request already holds (no query); the view is handed to the process's ViewRecorder
// once the answer has gone out, so it adds nothing to the read's time, and a failed write is logged, never
// answered.
import { recordsView, type ViewedThing } from '../../shared/history/history-rules.js';
import type { AppContext } from '../context.js';

export function recordViewAfterAnswer(ctx: AppContext, thing: ViewedThing): void {
  const caller = ctx.state.caller;
  if (!caller || !recordsView(caller, thing)) return;
  const { views } = ctx.services;
  const readerId = caller.account.id;
  ctx.res.once('finish', () => {
    // Only what was really answered: a step after the route may still have turned it into an error.
    if (ctx.res.statusCode < 400) views.add(readerId, thing);
  });
}
