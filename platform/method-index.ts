import FindMyWay, { type HTTPMethod } from 'find-my-way';

/** Which methods a concrete path answers, for 405 Method Not Allowed with an Allow header. */
export interface MethodIndex {
  add(method: string | string[], url: string): void;
  /** Methods registered for this path, empty when the path itself is unknown. */
  allowedFor(path: string): string[];
}

/**
 * Fastify's router answers 404 for a known path under the wrong method. A second router (the same
 * find-my-way Fastify uses, so patterns match alike) holds every route to tell the two apart.
 */
export function createMethodIndex(): MethodIndex {
  const router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 256 });
  const methods = new Set<string>();
  return {
    add(method, url) {
      for (const one of Array.isArray(method) ? method : [method]) {
        if (router.hasRoute(one as HTTPMethod, url)) continue;
        router.on(one as HTTPMethod, url, () => undefined);
        methods.add(one);
      }
    },
    allowedFor(path) {
      return [...methods].filter((method) => router.find(method as HTTPMethod, path) !== null).sort();
    },
  };
}
