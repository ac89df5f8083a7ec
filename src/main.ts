// First: the tracing SDK must be running before the modules it instruments load (src/start-tracing.ts).
import { tracing } from './start-tracing';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { startNode } from './node';
import { systemClock } from './time/clock';

async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel, config.nodeId);
  const node = await startNode(config, systemClock, logger);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining');
    node
      .stop()
      .then(() => tracing?.shutdown()) // sends the spans still buffered
      .then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
