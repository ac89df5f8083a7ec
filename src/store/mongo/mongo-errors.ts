import {
  MongoBulkWriteError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { StoreConflict, StoreUnavailable } from '../port';

/** Server codes meaning "no primary / shutting down / timed out" rather than a bug in the request. */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernFailed
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const isUnavailable = (error: MongoError): boolean =>
  // A bulk write cut by a dropped connection carries the network error inside (a 500 before; docs/cluster.md §Faults exercised).
  (error instanceof MongoBulkWriteError && error.errorResponse instanceof MongoError && isUnavailable(error.errorResponse)) ||
  error instanceof MongoNetworkError ||
  error instanceof MongoServerSelectionError ||
  error instanceof MongoNotConnectedError ||
  error instanceof MongoTopologyClosedError ||
  error.hasErrorLabel('TransientTransactionError') ||
  error.hasErrorLabel('UnknownTransactionCommitResult') ||
  (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code));

/**
 * What the port promises callers: a conflict stays a StoreConflict, anything the driver could not get past
 * (it has already retried retryable reads and writes once) becomes StoreUnavailable, a bug stays itself.
 */
export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreConflict || error instanceof StoreUnavailable) return error;
  if (error instanceof MongoError && isUnavailable(error)) {
    return new StoreUnavailable(`the store is unavailable: ${error.message}`, { cause: error });
  }
  return error;
}

/**
 * The connection failed after the command was sent: the server may still be running it
 * (docs/cluster.md §Outcome unknown). A bulk write carries the network error inside.
 */
export const connectionCut = (error: unknown): boolean =>
  error instanceof MongoNetworkError || (error instanceof MongoBulkWriteError && error.errorResponse instanceof MongoNetworkError);

export const isDuplicateKey = (error: unknown): boolean => error instanceof MongoError && error.code === 11000;
