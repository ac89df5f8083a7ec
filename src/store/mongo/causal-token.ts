import { BSON, Long, type ClientSession, type ClusterTime, type Timestamp } from 'mongodb';
import type { CausalToken } from '../port';

/** The two times a causally consistent ClientSession carries between operations. */
export interface CausalTimes {
  clusterTime?: ClusterTime;
  operationTime?: Timestamp;
}

const isTimestamp = (value: unknown): value is Timestamp => (value as Timestamp | null)?._bsontype === 'Timestamp';

/**
 * Canonical extended JSON, because relaxed mode turns the signature's 64-bit `keyId` into a lossy double and a
 * real replica set rejects a cluster time whose signature no longer matches.
 */
export function tokenFromTimes(times: CausalTimes): CausalToken {
  if (times.clusterTime || !times.operationTime) return encodeTimes(times);
  // Reads answered from kept versions carry only the time a version was confirmed at, the same object for every
  // read of that version: its token is encoded once.
  let token = tokenOfOperationTime.get(times.operationTime);
  if (!token) tokenOfOperationTime.set(times.operationTime, (token = encodeTimes(times)));
  return token;
}

const tokenOfOperationTime = new WeakMap<Timestamp, CausalToken>();

function encodeTimes(times: CausalTimes): CausalToken {
  const clusterTime = times.clusterTime && {
    ...times.clusterTime,
    signature: times.clusterTime.signature && {
      ...times.clusterTime.signature,
      keyId: Long.fromValue(times.clusterTime.signature.keyId),
    },
  };
  return {
    clusterTime: clusterTime ? BSON.EJSON.serialize(clusterTime, { relaxed: false }) : null,
    operationTime: times.operationTime ? BSON.EJSON.serialize(times.operationTime, { relaxed: false }) : null,
  };
}

/** Reads a token leniently: a missing or malformed part is dropped (the read then merely is not causal). */
export function timesFromToken(token: CausalToken | undefined): CausalTimes {
  const times: CausalTimes = {};
  const clusterTime = parse(token?.clusterTime) as ClusterTime | undefined;
  const keyId = toLong(clusterTime?.signature?.keyId);
  if (isTimestamp(clusterTime?.clusterTime) && clusterTime.signature && keyId) {
    times.clusterTime = { clusterTime: clusterTime.clusterTime, signature: { hash: clusterTime.signature.hash, keyId } };
  }
  const operationTime = parse(token?.operationTime);
  if (isTimestamp(operationTime)) times.operationTime = operationTime;
  return times;
}

/** A keyId written by another encoder (e.g. relaxed EJSON: a plain number) decodes as Int32 or Double. */
function toLong(keyId: unknown): Long | undefined {
  if (Long.isLong(keyId)) return keyId;
  const value = (keyId as { valueOf(): unknown } | null | undefined)?.valueOf();
  return typeof value === 'number' && Number.isSafeInteger(value) ? Long.fromNumber(value) : undefined;
}

function parse(value: unknown): unknown {
  if (!value || typeof value !== 'object') return undefined;
  try {
    return BSON.EJSON.deserialize(value, { relaxed: false });
  } catch {
    return undefined;
  }
}

/** Starts a session at `times`; `advanceClusterTime` throws on a missing or malformed cluster time, so that is guarded. */
export function applyTimes(session: ClientSession, times: CausalTimes): void {
  if (times.clusterTime) {
    try {
      session.advanceClusterTime(times.clusterTime);
    } catch {
      // A signature of the wrong shape: leave the session's cluster time to the server's gossip.
    }
  }
  if (times.operationTime) session.advanceOperationTime(times.operationTime);
}

/** The later of what was known and what the session (or anything else known) has seen since: `known` itself if nothing. */
export function laterTimes(known: CausalTimes, session: CausalTimes): CausalTimes {
  const clusterTime =
    known.clusterTime && session.clusterTime && known.clusterTime.clusterTime.greaterThan(session.clusterTime.clusterTime)
      ? known.clusterTime
      : (session.clusterTime ?? known.clusterTime);
  const operationTime =
    known.operationTime && session.operationTime && known.operationTime.greaterThan(session.operationTime)
      ? known.operationTime
      : (session.operationTime ?? known.operationTime);
  return clusterTime === known.clusterTime && operationTime === known.operationTime ? known : { clusterTime, operationTime };
}
