// PM2's process file (`npx pm2-runtime ecosystem.config.cjs` in a container, or `npx pm2 start
// ecosystem.config.cjs` on a host), running the compiled build (`npm run build` first). The web process
// runs in cluster mode (WEB_INSTANCES, default 2) sharing PORT, and is reloaded one instance at a time:
// PM2 starts the new one, waits for its `ready` (sent once it listens), then stops the old one with
// SIGINT, which finishes the requests in flight. Workers run side by side (WORKER_INSTANCES, default 2);
// each gets its own metrics port when WORKER_METRICS_PORT is set (the port plus the instance number).
//
// The release step (migrations) runs once per start. PM2 starts every app at once, but web and worker
// refuse to start while a migration is pending (they exit 1 naming `npm run migrate`), and PM2 starts them
// again after a growing delay, so they begin once the release is done. Run `npm run migrate` (or the
// release app alone) before a reload that brings migrations.
const stopMs = Number(process.env.SHUTDOWN_TIMEOUT_MS || 10000);
const shared = {
  node_args: '--enable-source-maps',
  // Past the process's own shutdown deadline, so its orderly stop is never cut short.
  kill_timeout: stopMs + 5000,
  exp_backoff_restart_delay: 200,
  merge_logs: true,
};

module.exports = {
  apps: [
    // Once: not restarted after it ends, whatever its code (a failure is for the operator to read).
    {
      ...shared,
      name: 'release',
      script: 'dist/db/migrate.js',
      autorestart: false,
      exp_backoff_restart_delay: undefined,
    },
    {
      ...shared,
      name: 'web',
      script: 'dist/api/server.js',
      exec_mode: 'cluster',
      instances: Number(process.env.WEB_INSTANCES || 2),
      wait_ready: true,
      listen_timeout: 30000,
    },
    {
      ...shared,
      name: 'worker',
      script: 'dist/workers/index.js',
      exec_mode: 'fork',
      instances: Number(process.env.WORKER_INSTANCES || 2),
      // Each instance its own metrics port, the base port plus its number (PM2 counts from 0); only with
      // a base port set, since PM2 would count from 0 and hand out port 1.
      ...(Number(process.env.WORKER_METRICS_PORT) > 0 ? { increment_var: 'WORKER_METRICS_PORT' } : {}),
    },
  ],
};
