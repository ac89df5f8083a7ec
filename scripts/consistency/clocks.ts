import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * libfaketime's multithreaded flavour (node runs several threads): LIBFAKETIME, else where Debian's package
 * (apt-get install faketime) put it on this machine, as dpkg lists its files.
 */
function libfaketime(): string | null {
  if (process.env.LIBFAKETIME) return process.env.LIBFAKETIME;
  const listed = spawnSync('dpkg', ['-L', 'libfaketime'], { encoding: 'utf8' });
  return listed.stdout?.split('\n').find((file) => file.endsWith('/libfaketimeMT.so.1')) ?? null;
}

/**
 * The wall clock each API node starts with, in libfaketime's FAKETIME syntax, by index: the first node true, the
 * second 90 s ahead and gaining 1 ms a second, the third a minute behind (docs/cluster.md §Clock skew).
 */
const SKEWS = ['+0', '+90 x1.001', '-60'];
/** Where the clock nemesis throws the last node's clock (from its skew, 4 minutes back) until the heal. */
export const JUMP_BACK = '-300';

/**
 * Skewed wall clocks for a local cluster's API nodes: each node runs under libfaketime reading its offset from a file
 * of its own on every call (FAKETIME_NO_CACHE), so the clock nemesis can jump it mid-run. The monotonic clock stays
 * true, as NTP leaves it: timers, leases and timeouts keep their length.
 */
export class Clocks {
  private readonly dir = mkdtempSync(join(tmpdir(), 'registry-clocks-'));

  /** Null when libfaketime is not installed. */
  static library(): string | null {
    const library = libfaketime();
    return library && existsSync(library) ? library : null;
  }

  constructor(private readonly library: string) {}

  /** For the launcher's nodeEnv: API node `index` under its skew. */
  nodeEnv(index: number): Record<string, string> {
    const node = `api-${index + 1}`;
    this.set(node, SKEWS[index % SKEWS.length]);
    return {
      LD_PRELOAD: this.library,
      FAKETIME_TIMESTAMP_FILE: this.file(node),
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
  }

  skew(index: number): string {
    return SKEWS[index % SKEWS.length];
  }

  /** Moves a node's wall clock to `offset` (FAKETIME syntax) from now on. */
  set(node: string, offset: string): void {
    writeFileSync(this.file(node), `${offset}\n`);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private file(node: string): string {
    return join(this.dir, node);
  }
}
