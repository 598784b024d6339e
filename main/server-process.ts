// Forks the embedded server as an Electron utilityProcess, so express, synchronous SQLite, both hubs, the jobs and
// up to 2,000 demo agents run off the main thread that serves the window (and runs the CSP hook of every
// response). The process runs app/server-child.ts, bundled as out/main/server-child.js beside this file's bundle.
import { fileURLToPath } from 'node:url';
import { utilityProcess } from 'electron';
import { ServerHost, type ServerHostHooks } from './server-host';

/** The server process's bundle (electron.vite.config.ts emits it beside out/main/index.js). */
export function serverChildPath(): string {
  return fileURLToPath(new URL('./server-child.js', import.meta.url));
}

/** Forks the server process (call after app `ready`); start it with `start(options)` on the returned host. */
export function forkServerProcess(hooks: ServerHostHooks): ServerHost {
  const child = utilityProcess.fork(serverChildPath(), [], {
    serviceName: 'Gatehouse server',
    // Its log lines go where main's go: the terminal of `npm start`, or nowhere in a packaged app.
    stdio: 'inherit',
  });
  return new ServerHost(child, hooks);
}
