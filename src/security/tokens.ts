import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';

/** Stored instead of tokens: only hashes, so a leaked database grants no ownership. */
export interface OwnerSecrets {
  tokenHash: string;
  transferHash: string;
}

export interface Access {
  token: string;
  transfer: string;
}

const TOKEN_BYTES = 16;
/**
 * Tokens are cut from a pooled CSPRNG buffer, refilled every 256 tokens (node pools randomUUID the same way):
 * one `randomBytes(16)` per token was 2-3 % of the CPU time of POST /tenders.
 */
const pool = Buffer.alloc(TOKEN_BYTES * 256);
let poolAt = pool.length;

function newToken(): string {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += TOKEN_BYTES;
  return pool.toString('hex', poolAt - TOKEN_BYTES, poolAt);
}
const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** The stored hashes of an owner token and a transfer token. */
export const ownerSecretsOf = (access: Access): OwnerSecrets => ({
  tokenHash: hashOf(access.token),
  transferHash: hashOf(access.transfer),
});

/** A fresh owner token and transfer token (32 hex characters each, CSPRNG) with their stored hashes. */
export function issueAccess(): { access: Access; secrets: OwnerSecrets } {
  const access = { token: newToken(), transfer: newToken() };
  return { access, secrets: ownerSecretsOf(access) };
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(presented: string | null | undefined, storedHash: string | undefined): boolean {
  if (!presented || !storedHash) return false;
  const a = Buffer.from(hashOf(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
