// Starts the real web process for a benchmark, as production would run it, on the bench database.
import { startServer, type ServerProcess } from './processes.js';

/** `ready`: the log message to wait for (`listening`, or `catalog copy read` for browsing from memory). */
export function startApiServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  ready = 'listening',
): Promise<ServerProcess> {
  return startServer(
    'api/server.ts',
    {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      SECRET: 'bench-secret-0123456789abcdef0123456789',
      ...env,
    },
    ready,
  );
}
