import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The server reads its numbered .sql migrations from a `migrations/` folder beside its code; in the bundled
// server process (out/main/server-child.js) that folder is out/main/migrations, so the build emits the files there.
function bundleMigrations(): Plugin {
  const dir = resolve(__dirname, 'server/db/migrations');
  return {
    name: 'gatehouse-bundle-migrations',
    generateBundle() {
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
        this.emitFile({
          type: 'asset',
          fileName: `migrations/${file}`,
          source: readFileSync(resolve(dir, file), 'utf8'),
        });
      }
    },
  };
}

export default defineConfig({
  main: {
    plugins: [bundleMigrations()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          // The embedded server's own process (utilityProcess.fork in main/server-process.ts): out/main/server-child.js.
          'server-child': resolve(__dirname, 'app/server-child.ts'),
        },
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
    plugins: [react(), { name: 'gatehouse-absolute-base', config: () => ({ base: '/' }) }],
    build: {
      minify: true,
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
