import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../support/import-graph';

// No import cycle (issue 17): static imports and re-exports, type-only ones included, form no loop anywhere in the
// code that ships. A cycle makes load order matter and ties modules that should stand apart; the fix is to move
// what both sides need into a leaf file they both import (agent-sim/handle.ts, server/contract/common.ts).
const CHECKED = ['server', 'app', 'main', 'preload', 'renderer/src', 'agent-sim'];

const scratch = mkdtempSync(join(tmpdir(), 'import-cycles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, 'tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('import cycles', () => {
  it('there are none in the shipped code', () => {
    const cycles = importCycles(importGraph(resolve('.'), CHECKED)).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('finds a cycle made of type-only imports and re-exports through an index', () => {
    const root = writeTree({
      'src/a.ts': "import type { B } from './b';\nexport type A = { b: B };\n",
      'src/b.ts': "export type { C as B } from './lib';\n",
      'src/lib/index.ts': "export * from './c';\n",
      'src/lib/c.ts': "import type { A } from '../a';\nexport type C = { a?: A };\n",
      'src/leaf.ts': "import type { A } from './a';\nexport type L = A;\n",
    });
    expect(importCycles(importGraph(root, ['src']))).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/lib/index.ts', 'src/lib/c.ts', 'src/a.ts'],
    ]);
  });

  it('finds a file importing itself, and nothing in a tree without loops', () => {
    const looped = writeTree({ 'src/self.ts': "export { x } from './self';\nexport const x = 1;\n" });
    expect(importCycles(importGraph(looped, ['src']))).toEqual([['src/self.ts', 'src/self.ts']]);
    const clean = writeTree({
      'src/a.ts': "import { b } from './b';\nimport { c } from './c';\nexport const a = b + c;\n",
      'src/b.ts': "import { c } from './c';\nexport const b = c;\n",
      'src/c.ts': "import { readFileSync } from 'node:fs';\nexport const c = readFileSync.length;\n",
    });
    expect(importCycles(importGraph(clean, ['src']))).toEqual([]);
  });
});
