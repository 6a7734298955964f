// The web process's exit code when its port is taken, so `npm start` (scripts/start.ts) can tell that from
// any other failure and move a port it chose itself. 98 is EADDRINUSE's errno on Linux.
export const PORT_IN_USE_EXIT = 98;
