import { spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './free-port';

export interface LocalRedis {
  url: string;
  /** The server's process id, for faults that pause it (scripts/consistency/nemesis.ts). */
  pid: number;
  stop(): Promise<void>;
}

/** A throw-away redis-server (no persistence) on `port` or a free loopback port; resolves once it answers PING. */
export async function startLocalRedis(port?: number): Promise<LocalRedis> {
  port ??= await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (err) => reject(new Error(`cannot start redis-server (apt-get install -y redis-server): ${err.message}`))),
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => {}); // refused until the server listens
  try {
    // connect() rejects on the first refusal, but the client keeps retrying and PING waits for it.
    probe.connect().catch(() => undefined);
    await Promise.race([probe.ping(), spawnFailed]);
  } finally {
    probe.disconnect();
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
