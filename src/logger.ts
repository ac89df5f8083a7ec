import pino, { type Logger } from 'pino';

/** JSON logs; `authorization`, cookies and tokens are redacted wherever they appear. */
export function createLogger(level: string, nodeId: string): Logger {
  return pino({
    level,
    base: { node: nodeId },
    redact: { paths: ['*.authorization', '*.cookie', '*.token', '*.transfer', '*.acc_token'], censor: '[redacted]' },
  });
}
