// A software authenticator for tests: the answers a browser would send for a passkey (ES256 on P-256 or EdDSA on
// Ed25519), built from node:crypto keys and a few lines of CBOR, with every flag, counter, origin, relying party
// and challenge under the test's control, so each failure path of the ceremonies can be produced on purpose.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

export type Algorithm = 'ES256' | 'EdDSA';

type Cbor = number | string | Uint8Array | Map<number | string, Cbor> | { [key: string]: Cbor };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** The CBOR this needs (RFC 8949): integers, byte and text strings, maps in the order given. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64u = (data: Uint8Array) => Buffer.from(data).toString('base64url');

export interface CeremonyOptions {
  origin?: string;
  rpId?: string;
  /** The challenge to sign (default: the one of the options given). */
  challenge?: string;
  /** User presence and user verification flags (default: both set). */
  up?: boolean;
  uv?: boolean;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** The user handle to return (base64url; default: the one given at registration; null: none). */
  userHandle?: string | null;
  /** The clientDataJSON type (default webauthn.create / webauthn.get). */
  type?: string;
}

export const defaultOrigin = 'http://localhost:5173';

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly aaguid: Buffer;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The counter of the last signature; a counter of 0 stays 0 (authenticators without one, like synced passkeys). */
  counter: number;
  userHandle: string | null = null;

  constructor(
    readonly algorithm: Algorithm = 'ES256',
    options: { aaguid?: string; counter?: number } = {},
  ) {
    const pair =
      algorithm === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.aaguid = Buffer.from((options.aaguid ?? '00000000-0000-0000-0000-000000000000').replace(/-/g, ''), 'hex');
    this.counter = options.counter ?? 1;
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  /** The public key as COSE_Key (RFC 9053): EC2 P-256 for ES256, OKP Ed25519 for EdDSA. */
  cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x!, 'base64url');
    if (this.algorithm === 'EdDSA')
      return cbor(
        new Map<number, Cbor>([
          [1, 1],
          [3, -8],
          [-1, 6],
          [-2, x],
        ]),
      );
    return cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, x],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private flags(o: CeremonyOptions, extra = 0): number {
    return (o.up === false ? 0 : 0x01) | (o.uv === false ? 0 : 0x04) | extra;
  }

  /** The answer to registration options (RegistrationResponseJSON), attestation 'none'. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, o: CeremonyOptions = {}) {
    this.userHandle = options.user.id;
    const clientData = Buffer.from(
      JSON.stringify({
        type: o.type ?? 'webauthn.create',
        challenge: o.challenge ?? options.challenge,
        origin: o.origin ?? defaultOrigin,
        crossOrigin: false,
      }),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([this.aaguid, idLength, this.credentialId, this.cosePublicKey()]);
    const authData = this.authData(
      o.rpId ?? options.rp.id ?? 'localhost',
      this.flags(o, 0x40),
      o.counter ?? 0,
      attested,
    );
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: { credProps: { rk: true } },
      response: {
        clientDataJSON: b64u(clientData),
        attestationObject: b64u(attestationObject),
        transports: ['internal' as const, 'hybrid' as const],
      },
    };
  }

  /** The answer to request options (AuthenticationResponseJSON), signed with this passkey's key. */
  authenticate(options: { challenge: string; rpId?: string }, o: CeremonyOptions = {}) {
    const counter = o.counter ?? (this.counter === 0 ? 0 : ++this.counter);
    if (o.counter !== undefined) this.counter = o.counter;
    const clientData = Buffer.from(
      JSON.stringify({
        type: o.type ?? 'webauthn.get',
        challenge: o.challenge ?? options.challenge,
        origin: o.origin ?? defaultOrigin,
        crossOrigin: false,
      }),
    );
    const authData = this.authData(o.rpId ?? options.rpId ?? 'localhost', this.flags(o), counter);
    const signed = Buffer.concat([authData, sha256(clientData)]);
    const signature =
      this.algorithm === 'ES256' ? sign('sha256', signed, this.privateKey) : sign(null, signed, this.privateKey);
    const userHandle = o.userHandle === undefined ? this.userHandle : o.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64u(clientData),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(userHandle ? { userHandle } : {}),
      },
    };
  }
}

/** Challenges of several regions joined as the sign-in app joins them (their bytes, in order). */
export const joinChallenges = (...challenges: string[]) =>
  Buffer.concat(challenges.map((c) => Buffer.from(c, 'base64url'))).toString('base64url');

/** The user handle a region gives (`<region>:<userId>` in UTF-8, base64url). */
export const handleOf = (region: string, userId: number) => Buffer.from(`${region}:${userId}`).toString('base64url');
