import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

// DER prefixes of a raw Ed25519 key: PKCS#8 of a 32-byte seed, SPKI of a 32-byte public key (RFC 8410).
const SEED_DER = Buffer.from('302e020100300506032b657004220420', 'hex');
const PUBLIC_DER = Buffer.from('302a300506032b6570032100', 'hex');

/** The Ed25519 key of a 64-hex-character seed (PyNaCl's `SigningKey(hex, encoder=HexEncoder)`). */
export const signingKeyOf = (seed: string): KeyObject =>
  createPrivateKey({ key: Buffer.concat([SEED_DER, Buffer.from(seed, 'hex')]), format: 'der', type: 'pkcs8' });

/** The Ed25519 public key of 64 hex characters. */
export const publicKeyOf = (hex: string): KeyObject =>
  createPublicKey({ key: Buffer.concat([PUBLIC_DER, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });

/** The reference's KeyID of a public key: the first 8 hex characters of its raw bytes. */
export const keyIdOf = (key: KeyObject): string =>
  key
    .export({ format: 'der', type: 'spki' })
    .subarray(PUBLIC_DER.length, PUBLIC_DER.length + 4)
    .toString('hex');
