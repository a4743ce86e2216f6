/**
 * Which endpoint of §4 an observed request is: the spec model's path templates as patterns, so
 * traffic (app/traffic) and the coverage of a run (core/report/coverage.ts) are judged by the same
 * catalogue the runner and the reference server use.
 */
import type { EndpointSpec } from './endpoints.js';
import { model } from './model.js';

export interface Routed {
  endpoint: EndpointSpec;
  params: Record<string, string>;
}

const ROUTES = Object.values(model.endpoints).map((endpoint) => {
  const names: string[] = [];
  const pattern = endpoint.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { endpoint, names, regex: new RegExp(`^${pattern}$`) };
});

/** The endpoint a method and path (query left out) address, or undefined for anything else. */
export function route(method: string, path: string): Routed | undefined {
  const bare = path.split('?')[0];
  for (const { endpoint, names, regex } of ROUTES) {
    if (endpoint.method !== method.toUpperCase()) continue;
    const m = regex.exec(bare);
    if (!m) continue;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1]);
      });
    } catch {
      // A malformed percent-escape: the path names no account we can read; it is still this endpoint.
    }
    return { endpoint, params };
  }
  return undefined;
}
