// Runs real job handlers of some queues in this process for a describe block, as the worker process
// would: pg-boss delivers, the handler runs, and the answer goes back by NOTIFY to the route that waits.
import { boss } from '../../shared/platform/jobs/boss.js';
import { Signals } from '../../shared/platform/jobs/signals.js';
import { createLogger } from '../../shared/platform/logger.js';
import { QUEUES, type QueueName } from '../../shared/platform/jobs/queue.js';
import { jobHandlers } from '../../workers/jobs/index.js';
import { subscribeAll } from '../../workers/worker.js';
import { startEventDispatcher } from '../../workers/event-dispatcher.js';
import { testWorkerServices } from './worker-services.js';

export function useJobWorker(names: QueueName[]): { readonly mailDir: string } {
  let stop: (() => Promise<void>) | null = null;
  let services: ReturnType<typeof testWorkerServices> | null = null;
  before(async function () {
    this.timeout(60000);
    services = testWorkerServices();
    const signals = new Signals(process.env.DATABASE_URL!, createLogger('silent'));
    const queues = Object.fromEntries(names.map((name) => [name, QUEUES[name]]));
    const running = await subscribeAll({ boss: boss(), signals, services, queues, handlers: jobHandlers });
    // As the worker process does: new events for integrations are queued as they commit.
    const dispatcher = names.includes('app-event.deliver')
      ? await startEventDispatcher(signals, services.knex, createLogger('silent'))
      : null;
    stop = async () => {
      // pg-boss's workers and the slot consumers (data events), which boss().offWork does not reach.
      await running.stop();
      await dispatcher?.stop();
      await signals.close();
      await services?.close();
    };
  });
  after(() => stop?.());
  return {
    /** The folder the email.send handler writes its .eml files in (set once the block started). */
    get mailDir() {
      return services!.mailDir;
    },
  };
}
