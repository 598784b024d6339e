import { Card } from '../../ui';
import { CodeBlock } from './parts';

// A receiver a technician can paste into a Node service: it checks X-Service-Signature over
// `<X-Service-Signature-Timestamp>.<raw body>` with the signing secret before trusting anything in the body.

export const RECEIVER_SNIPPET = `// Verifies Gatehouse webhook deliveries (Node 18+, no dependencies).
// Set WEBHOOK_SECRET to the signing secret shown when the webhook was created or rotated.
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

const secret = process.env.WEBHOOK_SECRET;
const seen = new Set(); // event ids already handled: retries resend the same event

function signatureValid(rawBody, headers) {
  const timestamp = headers['x-service-signature-timestamp'];
  const sent = headers['x-service-signature'];
  if (typeof timestamp !== 'string' || typeof sent !== 'string') return false;
  const expected =
    'sha256=' + createHmac('sha256', secret).update(\`\${timestamp}.\${rawBody}\`).digest('hex');
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  // Reject deliveries signed more than 5 minutes ago (replays).
  const fresh = Math.abs(Date.now() - Number(timestamp)) < 5 * 60 * 1000;
  return fresh && a.length === b.length && timingSafeEqual(a, b);
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8'); // verify the raw bytes, not re-serialized JSON
    if (!signatureValid(rawBody, req.headers)) {
      res.writeHead(401).end('bad signature');
      return;
    }
    const event = JSON.parse(rawBody); // { id, type, timestamp, orgId, data }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(event.type, event.data);
    }
    res.writeHead(200).end('ok'); // any 2xx marks the delivery delivered
  });
}).listen(8443); // serve it behind HTTPS: Gatehouse only delivers to https:// addresses
`;

export function ReceiverSnippet({ hasSecret }: { hasSecret: boolean }) {
  return (
    <Card
      title="Verify deliveries in your receiver"
      icon="lock"
      testId="receiver-snippet"
      className="wh-snippet"
    >
      <p className="muted small">
        {hasSecret
          ? 'Every delivery carries X-Service-Signature: an HMAC-SHA256 of the signature timestamp, a dot and the raw body, keyed by the signing secret. Check it before trusting the body, and dedupe by event id.'
          : 'This webhook has no signing secret, so its deliveries are not signed. Rotate the secret to start signing; then check the signature as below.'}
      </p>
      <CodeBlock
        label="Node (node:crypto)"
        text={RECEIVER_SNIPPET}
        testId="receiver-code"
        copyLabel="Copy code"
      />
    </Card>
  );
}
