import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { HttpServer } from './http.js';

export interface OpenApiInfo {
  /** The service's base path in the all-in-one server, e.g. `/stability`; stripped from documented paths. */
  prefix: string;
  /**
   * Where the service's base URL points in this server, stripped from documented paths; default
   * `prefix`. The forecast's paths already begin with /forecast, so its base URL is the root ('').
   */
  baseUrl?: string;
  title: string;
  version: string;
  description: string;
  /** The OpenAPI version the spec documents for the service: 3.0 by default, 3.1 for the compliance oracle. */
  openapi?: '3.0.3' | '3.1.0';
}

/**
 * Documents the routes registered after this call in the same encapsulated context, from the zod
 * schemas that validate them, and serves the document at `<prefix>/openapi.json`.
 * Paths are written relative to the service's base URL ({stability_url} and so on).
 */
export async function registerOpenApi(app: HttpServer, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: info.openapi ?? '3.0.3',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: (info.baseUrl ?? info.prefix) || '/' }],
    },
    // The transform below removes the prefix once; the plugin's own stripping would remove it again
    // from paths that repeat it (/compliance/compliance/regulatory-calendar).
    stripBasePath: false,
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const base = info.baseUrl ?? info.prefix;
      const url = base && transformed.url.startsWith(base) ? transformed.url.slice(base.length) || '/' : transformed.url;
      return { ...transformed, url };
    },
  });
  app.get(`${info.prefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
