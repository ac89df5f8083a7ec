import { execFileSync } from 'node:child_process';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { validateManifests } from '../../scripts/validate-k8s';

const deployment = (container: Record<string, unknown>, spec: Record<string, unknown> = {}): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'broken' },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'x', image: 'x', ...container }] } },
      ...spec,
    },
  });

const schemaOnly = { projectRules: false };

t.test('a well-formed Deployment → no problems', async (t) => {
  const { count, problems } = await validateManifests(deployment({}), 'fixture', schemaOnly);
  t.equal(count, 1);
  t.same(problems, []);
});

t.test('replicas as a string → schema problem naming spec/replicas', async (t) => {
  const { problems } = await validateManifests(deployment({}, { replicas: 'two' }), 'fixture', schemaOnly);
  t.equal(problems.length, 1);
  t.match(problems[0].message, /spec\/replicas must be integer/);
  t.equal(problems[0].object, 'Deployment broken');
});

t.test('a misspelt container field → unknown field problem', async (t) => {
  const { problems } = await validateManifests(
    deployment({ readinessProbes: { httpGet: { path: '/readyz', port: 8080 } } }),
    'fixture',
    schemaOnly,
  );
  t.equal(problems.length, 1);
  t.match(problems[0].message, /unknown field "readinessProbes" \(not in IContainer\)/);
});

t.test('a container without its required name → schema problem', async (t) => {
  const body = deployment({}).replace('"name":"x",', '');
  const { problems } = await validateManifests(body, 'fixture', schemaOnly);
  t.ok(
    problems.some((p) => /containers\/0 must have required property name/.test(p.message)),
    JSON.stringify(problems),
  );
});

t.test('an unknown kind → problem', async (t) => {
  const { problems } = await validateManifests('apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: x}\n', 'fixture', schemaOnly);
  t.match(problems[0].message, /unknown apiVersion\/kind apps\/v1\/Deploymnet/);
});

t.test('a registry Deployment without NODE_ID, probes or preStop → project rule problems', async (t) => {
  const body = deployment({ name: 'registry', env: [{ name: 'ROLE', value: 'api' }] });
  const { problems } = await validateManifests(body, 'fixture');
  const messages = problems.map((p) => p.message).join('\n');
  t.match(messages, /NODE_ID must come from the downward API/);
  t.match(messages, /needs a livenessProbe/);
  t.match(messages, /needs a readinessProbe/);
  t.match(messages, /preStop/);
  t.match(messages, /resources.requests must set cpu and memory/);
  t.match(messages, /non-root/);
});

const mongodb = (spec: Record<string, unknown>) =>
  JSON.stringify({
    apiVersion: 'mongodbcommunity.mongodb.com/v1',
    kind: 'MongoDBCommunity',
    metadata: { name: 'rs' },
    spec: { type: 'ReplicaSet', members: 3, version: '7.0.14', security: { authentication: { modes: ['SCRAM'] } }, users: [], ...spec },
  });

t.test('MongoDBCommunity is checked against its CRD schema (k8s/crds/), unknown fields included', async (t) => {
  t.same((await validateManifests(mongodb({}), 'fixture', schemaOnly)).problems, []);
  const wrongType = await validateManifests(mongodb({ members: 'three' }), 'fixture', schemaOnly);
  t.match(wrongType.problems[0]?.message, /CRD schema: \/spec\/members must be integer/);
  const typo = await validateManifests(mongodb({ memebrs: 3 }), 'fixture', schemaOnly);
  t.match(typo.problems[0]?.message, /CRD schema: \/spec must NOT have additional properties .*memebrs/);
  const wrongEnum = await validateManifests(mongodb({ type: 'Sharded' }), 'fixture', schemaOnly);
  t.match(wrongEnum.problems[0]?.message, /\/spec\/type must be equal to one of the allowed values/);
  // additionalMongodConfig keeps unknown fields, as the CRD says: mongod's own configuration goes there.
  t.same((await validateManifests(mongodb({ additionalMongodConfig: { setParameter: { x: 1 } } }), 'fixture', schemaOnly)).problems, []);
});

t.test('Prometheus Operator kinds are checked against their models', async (t) => {
  const podMonitor = (endpoint: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: { name: 'x' },
      spec: { selector: { matchLabels: { app: 'x' } }, podMetricsEndpoints: [endpoint] },
    });
  t.same((await validateManifests(podMonitor({ port: 'http', path: '/metrics' }), 'fixture', schemaOnly)).problems, []);
  const typo = await validateManifests(podMonitor({ port: 'http', pth: '/metrics' }), 'fixture', schemaOnly);
  t.match(typo.problems[0]?.message, /unknown field "pth"/);
});

/** `kubectl kustomize`, or a standalone `kustomize` (scripts/validate-k8s.sh installs one where neither is). */
const kustomizeCommand = (['kubectl', 'kustomize'] as const).find((command) => {
  try {
    execFileSync(command, command === 'kubectl' ? ['kustomize', '--help'] : ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

t.test(
  'the production overlay runs MongoDB through the operator with the transaction lifetime the engine needs',
  { skip: !kustomizeCommand && 'no kubectl or kustomize on PATH' },
  async (t) => {
    const args = kustomizeCommand === 'kubectl' ? ['kustomize', 'k8s/overlays/production'] : ['build', 'k8s/overlays/production'];
    const rendered = execFileSync(kustomizeCommand!, args, { encoding: 'utf8' });
    const objects = parseAllDocuments(rendered).map((d) => d.toJS() as { kind: string; spec: Record<string, any> });
    t.notOk(
      objects.some((o) => o.kind === 'StatefulSet'),
      'no hand-made StatefulSet',
    );
    const replicaSet = objects.find((o) => o.kind === 'MongoDBCommunity');
    t.equal(replicaSet?.spec.members, 3);
    t.equal(replicaSet?.spec.additionalMongodConfig?.setParameter?.transactionLifetimeLimitSeconds, 10);
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of ['PodMonitor', 'PrometheusRule', 'NetworkPolicy', 'PodDisruptionBudget']) t.ok(kinds.has(kind), kind);
  },
);

t.test('invalid YAML → problem, not a crash', async (t) => {
  const { problems } = await validateManifests('kind: [unclosed\n', 'fixture');
  t.match(problems[0].message, /^YAML:/);
});

t.test('the CLI exits 1 and names the object on a broken manifest', async (t) => {
  let status = 0;
  let stderr = '';
  try {
    execFileSync(process.execPath, ['--import=tsx', 'scripts/validate-k8s.ts', '--schema-only', '-'], {
      input: deployment({}, { replicas: 'two' }),
      stdio: 'pipe',
    });
  } catch (error) {
    status = (error as { status: number }).status;
    stderr = String((error as { stderr: Buffer }).stderr);
  }
  t.equal(status, 1);
  t.match(stderr, /INVALID stdin: Deployment broken: schema: data\/spec\/replicas must be integer/);
});

t.test('every overlay renders and validates (scripts/validate-k8s.sh)', async (t) => {
  const out = execFileSync('bash', ['scripts/validate-k8s.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  t.match(out, /3 kustomizations rendered and valid/);
});
