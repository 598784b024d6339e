import { sign, type KeyObject } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';

// A stand-in for GitHub's release API and asset host, and the signed releases published on it, for the
// release-feed sync suites.

export interface FeedState {
  status: number;
  release: unknown;
  manifest: Buffer;
  signature: Buffer;
  requests: string[];
}

/** A stand-in for GitHub's release API and asset host on a local port. */
export async function startFeed(): Promise<{ url: string; state: FeedState; close: () => Promise<void> }> {
  const state: FeedState = {
    status: 200,
    release: {},
    manifest: Buffer.alloc(0),
    signature: Buffer.alloc(0),
    requests: [],
  };
  const http: Server = createHttpServer((req, res) => {
    state.requests.push(req.url ?? '');
    if (req.url === '/releases/latest') {
      res.writeHead(state.status, { 'content-type': 'application/json' }).end(JSON.stringify(state.release));
    } else if (req.url === '/assets/manifest.json') {
      res.writeHead(200).end(state.manifest);
    } else if (req.url === '/assets/manifest.json.sig') {
      res.writeHead(200).end(state.signature);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  return { url, state, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

export const SUM_LINUX = '1'.repeat(64);
export const SUM_WINDOWS = '2'.repeat(64);

export function publishRelease(
  feed: { url: string; state: FeedState },
  key: KeyObject,
  overrides: { version?: string; tag?: string; linuxSum?: string; assets?: string[] } = {},
) {
  const version = overrides.version ?? '3.1.0';
  const manifest = Buffer.from(
    JSON.stringify({
      version,
      artifacts: [
        {
          platform: 'linux',
          arch: 'amd64',
          file: `gatehouse-agent-${version}-linux-amd64`,
          sha256: overrides.linuxSum ?? SUM_LINUX,
          size: 1234,
        },
        {
          platform: 'windows',
          arch: 'amd64',
          file: `gatehouse-agent-${version}-windows-amd64.exe`,
          sha256: SUM_WINDOWS,
        },
      ],
    }),
  );
  const names = overrides.assets ?? [
    `gatehouse-agent-${version}-linux-amd64`,
    `gatehouse-agent-${version}-windows-amd64.exe`,
    'gatehouse-agent-manifest.json',
    'gatehouse-agent-manifest.json.sig',
  ];
  const asset = (name: string) =>
    name === 'gatehouse-agent-manifest.json'
      ? `${feed.url}/assets/manifest.json`
      : name === 'gatehouse-agent-manifest.json.sig'
        ? `${feed.url}/assets/manifest.json.sig`
        : `https://github.example.test/releases/download/v${version}/${name}`;
  feed.state.status = 200;
  feed.state.release = {
    tag_name: overrides.tag ?? `v${version}`,
    body: `Release ${version}`,
    assets: names.map((name) => ({ name, browser_download_url: asset(name) })),
  };
  feed.state.manifest = manifest;
  feed.state.signature = Buffer.from(sign(null, manifest, key).toString('base64'));
}
