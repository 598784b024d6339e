import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The server reads its numbered .sql migrations from a `migrations/` folder beside its code, and starts its WAL
// checkpointer's thread from `checkpoint-worker.mjs` beside it; in the bundled server (out/main/server-child.js,
// out/main/serve.js) that is out/main, so the build emits the files there as they are.
function bundleServerFiles(): Plugin {
  const dir = resolve(__dirname, 'server/db');
  return {
    name: 'gatehouse-bundle-server-files',
    generateBundle() {
      const files = [
        ...readdirSync(resolve(dir, 'migrations'))
          .filter((f) => f.endsWith('.sql'))
          .map((f) => `migrations/${f}`),
        'checkpoint-worker.mjs',
      ];
      for (const fileName of files) {
        this.emitFile({ type: 'asset', fileName, source: readFileSync(resolve(dir, fileName), 'utf8') });
      }
    },
  };
}

/** Issue 18: no console script chunk over 250 kB, so no single download or parse holds up the first screen. */
const CHUNK_BUDGET_BYTES = 250_000;

/** Fails the build when a script chunk is over the budget, naming it; the fix is a lazy import or a chunk group. */
function chunkBudget(): Plugin {
  return {
    name: 'gatehouse-chunk-budget',
    writeBundle(_options, bundle) {
      const over = Object.values(bundle)
        .filter((file) => file.type === 'chunk' && Buffer.byteLength(file.code) > CHUNK_BUDGET_BYTES)
        .map(
          (file) =>
            `${file.fileName} (${(Buffer.byteLength(file.type === 'chunk' ? file.code : '') / 1000).toFixed(0)} kB)`,
        );
      if (over.length)
        this.error(`console chunks over the ${CHUNK_BUDGET_BYTES / 1000} kB budget: ${over.join(', ')}`);
    },
  };
}

export default defineConfig({
  main: {
    plugins: [bundleServerFiles()],
    build: {
      outDir: 'out/main',
      // The pure-JavaScript packages the server loads at start are bundled in: one parsed file instead of hundreds
      // resolved and read one by one (ESM resolution, CommonJS export scanning) is a large part of cold start
      // (issue 18). Native packages (better-sqlite3, argon2) stay in node_modules, which holds their Node builds,
      // and so do the packages loaded only on first use (@simplewebauthn/server, nodemailer, qrcode, undici and
      // the OpenAPI generator).
      externalizeDeps: { exclude: ['express', 'zod', 'ws', 'jose', 'otplib', 'pino', 'openid-client'] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          // The embedded server's own process (utilityProcess.fork in main/server-process.ts): out/main/server-child.js.
          'server-child': resolve(__dirname, 'app/server-child.ts'),
          // The headless server (`npm run serve`, the cold-start bench): out/main/serve.js runs in plain Node, so
          // start-up loads built JavaScript instead of transpiling TypeScript with tsx.
          serve: resolve(__dirname, 'app/serve.ts'),
        },
        // The two server entries share their code in chunks; those chunks sit beside the entries, not in chunks/,
        // because the server finds its migrations/ folder beside the module that holds its code.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'preload/index.ts') },
        // A sandboxed preload must be CommonJS; with "type": "module" electron-vite would emit ESM.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    // electron-vite forces base './' for the renderer; the console is served by the embedded server with history
    // routing, so assets must be absolute or a reload of /devices/42 would ask for /devices/assets/....
    plugins: [react(), { name: 'gatehouse-absolute-base', config: () => ({ base: '/' }) }, chunkBudget()],
    build: {
      minify: true,
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: {
        input: { index: resolve(__dirname, 'renderer/index.html') },
        // Pages are lazy chunks (renderer/src/app/routes.ts). What every page needs from node_modules (React, the
        // query cache, the store) is in two vendor chunks (react-dom alone is most of the budget), which stay cached
        // across releases of the console's own code; the other packages (charts, CSV parsing, WebAuthn) stay in
        // the chunks of the pages that use them.
        output: {
          codeSplitting: {
            groups: [
              { name: 'vendor-react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
              {
                name: 'vendor',
                test: /node_modules[\\/](react|@tanstack[\\/](react-query|query-core)|zustand)[\\/]/,
              },
            ],
          },
        },
      },
    },
  },
});
