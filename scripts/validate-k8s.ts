/**
 * Validates rendered Kubernetes manifests with no cluster.
 *
 *   node --import=tsx scripts/validate-k8s.ts FILE.yaml... | -   (- reads stdin)
 *
 * Two passes over every object of every YAML document:
 *  1. schema: kubernetes-models (and @kubernetes-models/prometheus-operator for the Prometheus Operator's
 *     kinds) maps apiVersion/kind to its model class and `.validate()` checks types, enums and required
 *     fields against the Kubernetes OpenAPI schemas; a kind of a CRD kept in k8s/crds/ (MongoDBCommunity)
 *     is checked against that CRD's openAPIV3Schema, closed as the API server prunes unknown fields;
 *  2. unknown fields: those schemas allow extra properties, so a typo such as `readinessProbes`
 *     would pass. The same package's TypeScript interfaces are closed, so each object is
 *     type-checked as an object literal of its interface and TypeScript's excess-property check
 *     reports every unknown key, at any depth.
 * Then a few project rules (probes, resources, non-root, NODE_ID, selectors that match) that a
 * schema cannot express. Exits 1 with one line per problem.
 */
import Ajv from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { parseCli } from './cli';

export interface Problem {
  source: string;
  object: string;
  message: string;
}

interface Manifest {
  source: string;
  object: string;
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const root = resolve(__dirname, '..');

/** Groups whose models come from another package of the kubernetes-models family. */
const MODEL_PACKAGES: Record<string, string> = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };

/** `apps/v1` → `kubernetes-models/apps/v1`; the core group `v1` → `kubernetes-models/v1`. */
function modelModule(apiVersion: string): string {
  return `${MODEL_PACKAGES[apiVersion.split('/')[0]] ?? 'kubernetes-models'}/${apiVersion}`;
}

/**
 * An OpenAPI v3 schema of a CRD made closed: every object with `properties` and no
 * `x-kubernetes-preserve-unknown-fields` takes no other key (the API server prunes them, so a typo
 * would be dropped without a word), and `nullable` becomes a null type.
 */
function closedSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-kubernetes-') || key === 'nullable') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, closedSchema(v as Json)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = typeof value === 'object' && value !== null ? closedSchema(value as Json) : value;
    } else out[key] = value;
  }
  if (schema.properties && !schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  if (schema.nullable === true && typeof schema.type === 'string') out.type = [schema.type, 'null'];
  return out;
}

let compiled: Map<string, (body: unknown) => string[]> | null = null;

/** The CRDs kept in k8s/crds/: `group/version Kind` → a validator of that version's schema (compiled once). */
function crdValidators(): Map<string, (body: unknown) => string[]> {
  if (compiled) return compiled;
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    formats: { hostname: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i },
  });
  const validators = new Map<string, (body: unknown) => string[]>();
  compiled = validators;
  const dir = join(root, 'k8s/crds');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const crd = doc.toJS() as Json | null;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      const spec = crd.spec as { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Json } }[] };
      for (const version of spec.versions) {
        const validate = ajv.compile(closedSchema(version.schema.openAPIV3Schema));
        validators.set(`${spec.group}/${version.name} ${spec.names.kind}`, (body) =>
          validate(body)
            ? []
            : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`),
        );
      }
    }
  }
  return validators;
}

function describe(body: Json): string {
  const meta = (body.metadata ?? {}) as Json;
  const ns = typeof meta.namespace === 'string' ? `${meta.namespace}/` : '';
  const text = (v: unknown) => (typeof v === 'string' ? v : '?');
  return `${text(body.kind)} ${ns}${text(meta.name)}`;
}

export function parseManifests(text: string, source: string): { manifests: Manifest[]; problems: Problem[] } {
  const manifests: Manifest[] = [];
  const problems: Problem[] = [];
  parseAllDocuments(text).forEach((doc, index) => {
    if ('errors' in doc && doc.errors.length > 0) {
      for (const e of doc.errors) problems.push({ source, object: `document ${index + 1}`, message: `YAML: ${e.message}` });
      return;
    }
    const body = doc.toJS() as unknown;
    if (body === null || body === undefined) return; // empty document between separators
    if (typeof body !== 'object' || Array.isArray(body)) {
      problems.push({ source, object: `document ${index + 1}`, message: 'not a Kubernetes object (expected a mapping)' });
      return;
    }
    const items = (body as Json).kind === 'List' && Array.isArray((body as Json).items) ? ((body as Json).items as Json[]) : [body as Json];
    for (const item of items) manifests.push({ source, object: describe(item), body: item });
  });
  return { manifests, problems };
}

async function modelClass(apiVersion: string, kind: string): Promise<{ new (data: unknown): { validate(): void } } | null> {
  try {
    const mod = (await import(modelModule(apiVersion))) as Record<string, unknown>;
    const cls = mod[kind] as ((new (data: unknown) => unknown) & { apiVersion?: string; kind?: string }) | undefined;
    if (typeof cls === 'function' && cls.apiVersion === apiVersion && cls.kind === kind) {
      return cls as unknown as { new (data: unknown): { validate(): void } };
    }
  } catch {
    // unknown group/version: reported below
  }
  return null;
}

async function schemaPass(manifests: Manifest[], crds: Map<string, (body: unknown) => string[]>): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const m of manifests) {
    const { apiVersion, kind } = m.body;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      problems.push({ ...pick(m), message: 'apiVersion and kind are required strings' });
      continue;
    }
    const crd = crds.get(`${apiVersion} ${kind}`);
    if (crd) {
      for (const error of crd(m.body)) problems.push({ ...pick(m), message: `CRD schema: ${error}` });
      continue;
    }
    const Model = await modelClass(apiVersion, kind);
    if (!Model) {
      problems.push({ ...pick(m), message: `unknown apiVersion/kind ${apiVersion}/${kind} (not in kubernetes-models)` });
      continue;
    }
    try {
      new Model(normalizeBytes(m.body)).validate();
    } catch (error) {
      problems.push({ ...pick(m), message: `schema: ${(error as Error).message}` });
    }
  }
  return problems;
}

/**
 * kustomize folds long base64 values of generated Secrets over several lines; the API server
 * decodes them with Go's base64, which skips \r and \n, but the schema's "byte" format does not.
 */
function normalizeBytes(body: Json): Json {
  const field = body.kind === 'Secret' ? 'data' : body.kind === 'ConfigMap' ? 'binaryData' : null;
  const data = field ? body[field] : undefined;
  if (!field || !data || typeof data !== 'object') return body;
  const unfolded = Object.fromEntries(
    Object.entries(data as Json).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/[\r\n]/g, '') : v]),
  );
  return { ...body, [field]: unfolded };
}

function pick(m: Manifest): { source: string; object: string } {
  return { source: m.source, object: m.object };
}

/** Pass 2: one virtual TypeScript file, one typed constant per object; excess-property errors name the key. */
function unknownFieldPass(manifests: Manifest[], crds: Map<string, unknown>): Problem[] {
  const typed = manifests.filter(
    (m) => typeof m.body.apiVersion === 'string' && typeof m.body.kind === 'string' && !crds.has(`${m.body.apiVersion} ${m.body.kind}`),
  );
  if (typed.length === 0) return [];
  const lines: string[] = [];
  const owner: Manifest[] = []; // line index → manifest
  typed.forEach((m, i) => {
    const { apiVersion, kind } = m.body as { apiVersion: string; kind: string };
    const header = `import type { I${kind} as T${i} } from ${JSON.stringify(modelModule(apiVersion))};`;
    const text = `${header}\nexport const o${i}: T${i} = ${JSON.stringify(m.body, null, 1)};`;
    for (const line of text.split('\n')) {
      lines.push(line);
      owner.push(m);
    }
  });
  const fileName = join(root, '.validate-k8s.virtual.mts'); // .mts: always ESM, as the model package is;
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === fileName ? source : readFile(f));
  host.fileExists = (f) => f === fileName || fileExists(f);
  host.getSourceFile = (f, lang, ...rest) => (f === fileName ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, ...rest));
  const program = ts.createProgram({ rootNames: [fileName], options, host });
  const sf = program.getSourceFile(fileName);
  if (!sf) throw new Error('internal: virtual source file missing');
  const problems: Problem[] = [];
  for (const d of ts.getPreEmitDiagnostics(program, sf)) {
    if (d.file?.fileName !== fileName || d.start === undefined) continue;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const m = owner[line];
    if (!m) continue;
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    // Only report what the schema pass cannot: unknown keys. Type mismatches are pass 1's to report
    // (its messages carry the JSON path), and would be duplicated here.
    const unknown = /Object literal may only specify known properties, and '([^']+)' does not exist in type '([^']+)'/.exec(text);
    if (unknown) {
      problems.push({
        ...pick(m),
        message: `unknown field "${unknown[1].replace(/^"|"$/g, '')}" (not in ${unknown[2]}), near: ${lines[line].trim()}`,
      });
    } else if (d.code === 2307 || d.code === 2305 || d.code === 2614) {
      problems.push({ ...pick(m), message: `internal: cannot load the model types: ${text}` });
    }
  }
  return problems;
}

function containersOf(body: Json): Json[] {
  const spec = body.spec as Json | undefined;
  const template = (body.kind === 'CronJob' ? ((spec?.jobTemplate as Json)?.spec as Json)?.template : spec?.template) as Json | undefined;
  const podSpec = (template?.spec ?? {}) as Json;
  return (podSpec.containers ?? []) as Json[];
}

function templateLabels(body: Json): Record<string, string> {
  const template = (body.spec as Json | undefined)?.template as Json | undefined;
  return ((template?.metadata as Json | undefined)?.labels ?? {}) as Record<string, string>;
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Pass 3: rules of this project that no schema states. */
function projectPass(manifests: Manifest[]): Problem[] {
  const problems: Problem[] = [];
  const workloads = manifests.filter((m) => ['Deployment', 'StatefulSet', 'Job'].includes(String(m.body.kind)));
  const byKey = new Map(manifests.map((m) => [`${String(m.body.kind)}/${String((m.body.metadata as Json)?.name)}`, m]));

  for (const m of workloads) {
    const podSpec = (((m.body.spec as Json).template as Json).spec ?? {}) as Json;
    for (const c of containersOf(m.body)) {
      const where = `container "${String(c.name)}"`;
      const resources = (c.resources ?? {}) as Json;
      for (const part of ['requests', 'limits']) {
        const r = (resources[part] ?? {}) as Json;
        if (!r.cpu || !r.memory) problems.push({ ...pick(m), message: `${where}: resources.${part} must set cpu and memory` });
      }
      const sc = (c.securityContext ?? {}) as Json;
      const podSc = (podSpec.securityContext ?? {}) as Json;
      if (sc.runAsNonRoot !== true && podSc.runAsNonRoot !== true) {
        problems.push({ ...pick(m), message: `${where}: must run as non-root (securityContext.runAsNonRoot: true)` });
      }
      if (sc.allowPrivilegeEscalation !== false) {
        problems.push({ ...pick(m), message: `${where}: securityContext.allowPrivilegeEscalation must be false` });
      }
    }
    // The registry node itself: the rules of the brief for its containers.
    const image = containersOf(m.body).find((c) => c.name === 'registry');
    if (image && m.body.kind === 'Deployment') {
      const env = (image.env ?? []) as Json[];
      const nodeId = env.find((e) => e.name === 'NODE_ID');
      const field = ((nodeId?.valueFrom as Json | undefined)?.fieldRef as Json | undefined)?.fieldPath;
      if (field !== 'metadata.name')
        problems.push({ ...pick(m), message: 'NODE_ID must come from the downward API (fieldRef metadata.name)' });
      if (!env.some((e) => e.name === 'ROLE')) problems.push({ ...pick(m), message: 'ROLE must be set' });
      if (!image.livenessProbe) problems.push({ ...pick(m), message: 'registry container needs a livenessProbe (/healthz)' });
      if (!image.readinessProbe) problems.push({ ...pick(m), message: 'registry container needs a readinessProbe (/readyz)' });
      if ((image.securityContext as Json | undefined)?.readOnlyRootFilesystem !== true) {
        problems.push({ ...pick(m), message: 'registry container must have readOnlyRootFilesystem: true' });
      }
      const role = env.find((e) => e.name === 'ROLE')?.value;
      if (role === 'api' && !(image.lifecycle as Json | undefined)?.preStop) {
        problems.push({ ...pick(m), message: 'api container needs a preStop hook to drain before SIGTERM' });
      }
    }
  }

  for (const m of manifests) {
    const spec = (m.body.spec ?? {}) as Json;
    if (m.body.kind === 'Service' && spec.selector) {
      const sel = spec.selector as Record<string, string>;
      if (!workloads.some((w) => matches(sel, templateLabels(w.body)))) {
        problems.push({ ...pick(m), message: `selector ${JSON.stringify(sel)} matches no pod template` });
      }
    }
    if (m.body.kind === 'PodDisruptionBudget') {
      const sel = ((spec.selector as Json | undefined)?.matchLabels ?? {}) as Record<string, string>;
      if (!workloads.some((w) => matches(sel, templateLabels(w.body)))) {
        problems.push({ ...pick(m), message: `selector ${JSON.stringify(sel)} matches no pod template` });
      }
    }
    if (m.body.kind === 'HorizontalPodAutoscaler') {
      const ref = (spec.scaleTargetRef ?? {}) as Json;
      if (!byKey.has(`${String(ref.kind)}/${String(ref.name)}`)) {
        problems.push({ ...pick(m), message: `scaleTargetRef ${String(ref.kind)}/${String(ref.name)} is not in the rendered set` });
      }
    }
    if (m.body.kind === 'Ingress') {
      for (const rule of (spec.rules ?? []) as Json[]) {
        for (const p of ((rule.http as Json | undefined)?.paths ?? []) as Json[]) {
          const name = ((p.backend as Json)?.service as Json | undefined)?.name;
          if (!byKey.has(`Service/${String(name)}`))
            problems.push({ ...pick(m), message: `backend Service ${String(name)} is not in the rendered set` });
        }
      }
    }
  }
  return problems;
}

export async function validateManifests(
  text: string,
  source: string,
  opts: { projectRules?: boolean } = {},
): Promise<{ count: number; problems: Problem[] }> {
  const parsed = parseManifests(text, source);
  const crds = crdValidators();
  const problems = [...parsed.problems, ...(await schemaPass(parsed.manifests, crds)), ...unknownFieldPass(parsed.manifests, crds)];
  if (opts.projectRules !== false) problems.push(...projectPass(parsed.manifests));
  return { count: parsed.manifests.length, problems };
}

const USAGE = `usage: node --import=tsx scripts/validate-k8s.ts [--schema-only] FILE.yaml... | -

Checks rendered Kubernetes manifests against the API schemas and the project's own rules (- reads stdin).

  --schema-only   only the schemas, not the project's rules
  -h, --help      this text`;

async function main(): Promise<number> {
  const { values, positionals: files } = parseCli(USAGE, { 'schema-only': { type: 'boolean', default: false } }, { positionals: true });
  const projectRules = !values['schema-only'];
  if (files.length === 0) {
    process.stderr.write(`no manifest given\n\n${USAGE}\n`);
    return 2;
  }
  let failed = 0;
  for (const file of files) {
    const text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
    const { count, problems } = await validateManifests(text, file === '-' ? 'stdin' : file, { projectRules });
    for (const p of problems) process.stderr.write(`INVALID ${p.source}: ${p.object}: ${p.message}\n`);
    if (count === 0) {
      process.stderr.write(`INVALID ${file}: no Kubernetes objects found\n`);
      failed++;
    }
    failed += problems.length;
    process.stdout.write(`${file === '-' ? 'stdin' : file}: ${count} objects, ${problems.length} problems\n`);
  }
  return failed === 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`validate-k8s: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(2);
    },
  );
}
