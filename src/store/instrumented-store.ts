import { SpanStatusCode, trace } from '@opentelemetry/api';
import { storeDuration } from '../metrics';
import { StoreConflict, type Store, type StoreSession } from './port';

const SESSION_OPERATIONS = [
  'get',
  'getView',
  'getMany',
  'history',
  'commit',
  'feed',
  'feedListing',
  'sealedBelow',
  'nextCounter',
  'putBlob',
  'getBlob',
] as const;

const tracer = trace.getTracer('registry.store');

/**
 * One port call, timed and, with tracing on, as a span `store.<operation>` around the engine's own (the MongoDB
 * driver's command spans nest under it; better-sqlite3 has no instrumentation, so on SQLite it is the only one).
 */
async function timed<T>(engine: string, operation: string, run: () => Promise<T>): Promise<T> {
  const end = storeDuration.startTimer({ engine, operation });
  return tracer.startActiveSpan(`store.${operation}`, { attributes: { 'registry.store.engine': engine } }, async (span) => {
    try {
      const result = await run();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      const outcome = err instanceof StoreConflict ? 'conflict' : 'error';
      end({ outcome });
      span.setAttribute('registry.store.outcome', outcome);
      if (outcome === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message ?? err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The store with every port operation timed into `registry_store_operation_duration_seconds` and traced. */
export function instrumentedStore(store: Store): Store {
  const { engine } = store;
  const instrumentSession = (session: StoreSession): StoreSession => {
    const wrapped = { token: () => session.token() } as StoreSession;
    for (const operation of SESSION_OPERATIONS) {
      const original = (session[operation] as (...args: unknown[]) => Promise<unknown>).bind(session);
      (wrapped as unknown as Record<string, unknown>)[operation] = (...args: unknown[]) =>
        timed(engine, operation, () => original(...args));
    }
    return wrapped;
  };
  return {
    engine,
    session: (token, author) => instrumentSession(store.session(token, author)),
    transfer: store.transfer,
    due: (nowMs, limit) => timed(engine, 'due', () => store.due(nowMs, limit)),
    ping: () => timed(engine, 'ping', () => store.ping()),
    close: () => store.close(),
  };
}
