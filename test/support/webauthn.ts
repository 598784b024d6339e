import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

// A platform authenticator in software, for integration tests that need many registrations and assertions
// without a browser (the Playwright suite uses Chromium's CDP virtual authenticator instead). It builds the
// structures of WebAuthn Level 2 — `none` attestation, ES256 keys from node:crypto, CBOR from @simplewebauthn —
// and signs exactly what a real authenticator signs: authenticatorData || SHA-256(clientDataJSON).

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(data));

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKeyCose: Uint8Array;
  counter: number;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftAuthenticatorOptions {
  origin: string;
  rpId?: string;
  /** False makes the authenticator skip user verification (the UV flag stays clear). */
  userVerified?: boolean;
}

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];
  readonly rpId: string;

  constructor(private readonly options: SoftAuthenticatorOptions) {
    this.rpId = options.rpId ?? 'localhost';
  }

  private flags(extra = 0): number {
    return FLAG_UP | (this.options.userVerified === false ? 0 : FLAG_UV) | extra;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin?: string): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: origin ?? this.options.origin, crossOrigin: false }),
    );
  }

  /** Answers registration options with a RegistrationResponseJSON (what startRegistration returns). */
  register(options: { challenge: string }): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const publicKeyCose = isoCBOR.encode(cose);
    const id = randomBytes(32);
    const credential: Credential = { id, privateKey, publicKeyCose, counter: 0 };
    this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([this.flags(FLAG_AT)]),
      Buffer.alloc(4), // counter 0
      Buffer.alloc(16), // AAGUID: none
      idLength,
      id,
      Buffer.from(publicKeyCose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /**
   * Answers assertion options with an AuthenticationResponseJSON (what startAuthentication returns), signed by
   * the first allowed credential this authenticator holds (or `credentialIndex`). `origin` overrides the origin
   * written into clientDataJSON, to test origin checks.
   */
  assert(
    options: { challenge: string; allowCredentials?: Array<{ id: string }> },
    overrides: { origin?: string; credentialIndex?: number } = {},
  ): Record<string, unknown> {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential =
      overrides.credentialIndex !== undefined
        ? this.credentials[overrides.credentialIndex]
        : this.credentials.find((c) => allowed.size === 0 || allowed.has(b64url(c.id)));
    if (!credential) throw new Error('no credential for these options');
    credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([this.flags()]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
    };
  }
}
