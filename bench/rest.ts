import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, type Comparison, send } from './load.js';
import { type Server, startTarget, tempFolder } from './processes.js';
import type { BareRoute } from './targets.js';
import { REST_WORKLOADS } from './workloads.js';

/** Section 1: every REST route of the rail against a bare Fastify route answering the same JSON. */

/** One real answer of the rail per route (200 required), kept to be served again by bare Fastify. */
async function captureRoutes(rail: Server): Promise<BareRoute[]> {
  const routes: BareRoute[] = [];
  for (const { label, load } of REST_WORKLOADS) {
    const { status, text } = await send(rail.port, load);
    if (status !== 200) throw new Error(`${label} answered ${status}, not 200: ${text.slice(0, 300)}`);
    routes.push({ method: load.method ?? 'GET', path: load.path.split('?')[0] ?? load.path, body: text });
  }
  return routes;
}

/** Bare Fastify serving the rail's captured answers at the same methods and paths. */
export async function startBareFastify(rail: Server): Promise<Server> {
  const file = join(tempFolder('bare-routes'), 'routes.json');
  writeFileSync(file, JSON.stringify(await captureRoutes(rail)));
  return startTarget('bare-fastify', [file]);
}

export async function benchRest(rail: Server, bare: Server): Promise<Comparison[]> {
  const rows: Comparison[] = [];
  for (const { label, load, target } of REST_WORKLOADS) {
    rows.push(await compare(label, target, { name: 'rail', port: rail.port, load }, { name: 'bare Fastify', port: bare.port, load }));
  }
  return rows;
}
