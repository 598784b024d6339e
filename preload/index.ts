// Preload for the console window. It runs sandboxed (no Node APIs beyond a small `process` subset and a
// `require` limited to electron's renderer modules), so the facts it exposes arrive from main as
// `additionalArguments` on process.argv rather than over IPC. Nothing here grants the page a capability.
import { contextBridge } from 'electron';
import type { GatehouseBridge, GatehousePlatform } from './api';

/** Reads `--<name>=<value>` that main appended through webPreferences.additionalArguments. */
function argument(name: string): string | undefined {
  const prefix = `--${name}=`;
  const hit = process.argv.find((arg) => arg.startsWith(prefix));
  return hit === undefined ? undefined : hit.slice(prefix.length);
}

const bridge: GatehouseBridge = Object.freeze({
  appVersion: argument('gatehouse-version') ?? 'unknown',
  platform: (argument('gatehouse-platform') ?? process.platform) as GatehousePlatform,
});

// contextBridge copies the frozen object into the page's world: the page sees plain data and can neither
// reach this script's scope nor mutate what other code reads.
contextBridge.exposeInMainWorld('gatehouse', bridge);
