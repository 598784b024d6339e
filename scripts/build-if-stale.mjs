#!/usr/bin/env node
// Builds with electron-vite when out/ is missing or older than the sources. `npm start`, `npm run serve` and the
// cold-start bench all run built JavaScript (the desktop app, out/main/serve.js, out/renderer), so each calls this
// first: a fresh clone or an edited source is built once, with one line saying why; an up-to-date out/ costs a
// directory walk of a few milliseconds. Run directly (`node scripts/build-if-stale.mjs`) it does the same.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const SOURCES = [
  'main',
  'preload',
  'renderer',
  'server',
  'app',
  'agent-sim',
  'electron.vite.config.ts',
  'package.json',
];
const OUTPUTS = [
  ['out/main/index.js'],
  ['out/main/server-child.js'],
  // The headless server (`npm run serve`): runs in plain Node, no TypeScript transpiling at start.
  ['out/main/serve.js'],
  ['out/preload/index.cjs', 'out/preload/index.js', 'out/preload/index.mjs'],
  ['out/renderer/index.html'],
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows up as a newer directory
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Why a build is needed, or null when out/ is complete and newer than every source. */
export function staleReason() {
  let oldestOutput = Infinity;
  for (const alternatives of OUTPUTS) {
    const found = alternatives.map((file) => join(ROOT, file)).find((file) => existsSync(file));
    if (!found) return `${alternatives[0]} is missing`;
    oldestOutput = Math.min(oldestOutput, statSync(found).mtimeMs);
  }
  const newestSource = Math.max(...SOURCES.map((source) => newestMtime(join(ROOT, source))));
  return newestSource > oldestOutput ? 'sources changed since the last build' : null;
}

/** Builds when out/ is stale; exits the process with the build's code when the build fails. */
export function buildIfStale() {
  const reason = staleReason();
  if (!reason) return;
  console.log(`gatehouse: building (${reason})`);
  const result = spawnSync('npx', ['electron-vite', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    shell: process.platform === 'win32', // npx is a .cmd on Windows
  });
  if (result.status !== 0) {
    console.error('gatehouse: build failed; fix the errors above and try again');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale();
