// The part of oidc-provider (a dev dependency without its own types) the SSO tests use: test/support/oidc-provider.ts.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    method: string;
    body: unknown;
    type: string;
    req: IncomingMessage;
    res: ServerResponse;
  }

  interface InteractionDetails {
    uid: string;
    params: Record<string, string>;
    prompt: { name: string };
  }

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(fn: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (fields: { accountId: string; clientId: string }) => GrantInstance;
  }
}
