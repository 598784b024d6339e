import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// The heartbeat baseline, run in its own process like the real server: a bare node:http handler that reads and
// parses the body and answers a heartbeat-shaped reply. Prints its port on stdout.

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ commands: [], heartbeatIntervalSeconds: 60 }));
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log((server.address() as AddressInfo).port);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
