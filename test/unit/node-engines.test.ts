import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The Node version the README promises is one every installed package accepts, so `npm ci` on it warns of no
 * EBADENGINE, and the one the Dockerfile and the type definitions are of (issue 42, item 3).
 */
const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

// semver comes with the installed tree (jsonwebtoken's dependency, pinned by the lock file), as npm's own check uses it.
const semver = createRequire(__filename)('semver') as {
  minVersion(range: string): { version: string; major: number; minor: number } | null;
  satisfies(version: string, range: string): boolean;
};

const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
const lowest = semver.minVersion(pkg.engines.node)!;

t.test(`every package of the lock file accepts Node ${lowest.version}, the lowest package.json's engines allows`, async (t) => {
  const refusing = Object.entries(lock.packages)
    .map(([name, entry]) => [name, Array.isArray(entry.engines) ? undefined : entry.engines?.node] as const)
    .filter(([, range]) => range && !semver.satisfies(lowest.version, range))
    .map(([name, range]) => `${name} wants node ${range}`);
  t.same(refusing, []);
});

t.test(`the README, the Dockerfile and @types/node are of Node ${lowest.major}`, async (t) => {
  t.match(read('README.md'), new RegExp(`Node ${lowest.major}\\.${lowest.minor} or later`));
  t.match(read('Dockerfile'), new RegExp(`^ARG NODE_IMAGE=node:${lowest.major}-`, 'm'));
  t.match(pkg.devDependencies['@types/node'], new RegExp(`^\\^${lowest.major}\\.`));
});
