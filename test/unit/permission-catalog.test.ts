import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATEHOUSE_PERMISSION_RESOURCES } from '../../server/contract/people';
import { PERMISSIONS } from '../../server/http/permissions';

// The contract's list of permission resources Gatehouse has features for (server/contract/people.ts) is what the
// console's role and API-key scope pickers offer. It must be exactly the resources of the named permissions the
// server checks (a route's `permission`, a service's `callerHolds`): a checked resource missing from the list
// could not be granted from the console, and a listed resource nothing checks would be a choice that grants
// nothing. Every check names its permission by its PERMISSIONS constant, so the server's sources tell which are used.

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const DEFINITION = resolve('server/http/permissions.ts');

describe('the permission resources Gatehouse has', () => {
  it('are exactly the resources of the permissions the server checks', () => {
    const text = sources(resolve('server'))
      .filter((file) => file !== DEFINITION)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const used = Object.entries(PERMISSIONS)
      .filter(([name, value]) => value !== PERMISSIONS.ALL && new RegExp(`\\b${name}\\b`).test(text))
      .map(([, value]) => value.split(':')[0]!);
    expect([...new Set(used)].sort()).toEqual([...GATEHOUSE_PERMISSION_RESOURCES].sort());
  });
});
