import type Koa from 'koa';
import { readFileSync } from 'node:fs';

/** One API key of the auth file (reference `auth.ini`: `[group]` then `name = key[,levels]`). */
export interface Account {
  name: string;
  group: string;
  levels: string;
}

/** Who is asking: an account, or nobody (GET needs no key). */
export interface Viewer {
  account: Account | null;
}

/** The reference's default accreditation when a key lists none (spec era: levels 1-5). */
const DEFAULT_LEVELS = '12345';

/** Groups whose members act as the system and read restricted data whole (docs/platform.md §Roles). */
const SYSTEM_GROUPS = new Set(['chronograph', 'contracting', 'admins', 'Administrator', 'bots', 'auction']);

export function parseAuthFile(text: string): Map<string, Account> {
  const accounts = new Map<string, Account>();
  let group: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[;#].*$/, '').trim();
    if (!line) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      group = section[1].trim();
      continue;
    }
    const entry = /^([^=:]+)[=:](.*)$/.exec(line);
    if (!entry || !group) continue;
    const [key, levels] = entry[2]
      .trim()
      .split(',', 2)
      .map((s) => s.trim());
    if (key) accounts.set(key, { name: entry[1].trim(), group, levels: levels || DEFAULT_LEVELS });
  }
  return accounts;
}

export function loadAuthFile(path: string): Map<string, Account> {
  return parseAuthFile(readFileSync(path, 'utf8'));
}

/** `Bearer KEY` or `Basic base64(KEY:anything)`; anything else, or an unknown key, is anonymous. */
export function keyFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const space = header.indexOf(' ');
  if (space < 0) return null;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === 'bearer') return value || null;
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const user = decoded.split(':', 1)[0];
    return user || null;
  }
  return null;
}

/** Who sends a request with this `Authorization` header. */
export function viewerOf(accounts: Map<string, Account>, authorization: string): Viewer {
  const key = keyFromHeader(authorization);
  return { account: (key && accounts.get(key)) || null };
}

/** `viewerOf` into `ctx.state.viewer`, for the apps whose middlewares are separate. */
export function authenticate(accounts: Map<string, Account>): Koa.Middleware {
  return async function identifyViewer(ctx, next) {
    ctx.state.viewer = viewerOf(accounts, ctx.get('authorization'));
    await next();
  };
}

export const isBroker = (viewer: Viewer) => viewer.account?.group === 'brokers';
export const isSystem = (viewer: Viewer) => !!viewer.account && SYSTEM_GROUPS.has(viewer.account.group);
export const inGroup = (viewer: Viewer, group: string) => viewer.account?.group === group;
/** The registry's administrator: the reference's `Administrator` group, or `admins` as this product's auth.ini names it. */
export const isAdministrator = (viewer: Viewer) => inGroup(viewer, 'Administrator') || inGroup(viewer, 'admins');
/** `r` accreditation or a system role: sees restricted objects whole (docs/platform.md §Restricted access). */
export const seesRestricted = (viewer: Viewer) => isSystem(viewer) || (!!viewer.account && viewer.account.levels.includes('r'));
