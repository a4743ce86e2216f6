/** The route table: the §4 endpoint catalogue of the spec model, the §5 GraphQL endpoint, the operator API. */
import { model, type EndpointId } from '../core/spec/index.js';
import { GRAPHQL_PATH, handleGraphql } from './graphql.js';
import { endpointHandlers } from './areas.js';
import type { Handler } from './handlers/shared.js';
import { OPERATOR_PREFIX, operatorIndex, operatorRoutes } from './operator.js';

/** Who may call a route: a data-import token (§5), the operator key, or anyone (the token mutation). */
export type Access = 'token' | 'operator' | 'public';

export interface Route {
  method: string;
  template: string;
  access: Access;
  endpoint?: EndpointId;
  handler: Handler;
  pattern: RegExp;
  paramNames: string[];
}

function compile(template: string): { pattern: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(param[1]);
      return '([^/]+)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), paramNames };
}

function route(method: string, template: string, access: Access, handler: Handler, endpoint?: EndpointId): Route {
  return { method, template, access, handler, endpoint, ...compile(template) };
}

export function buildRoutes(
  graphqlPath = GRAPHQL_PATH,
  handlers: Record<EndpointId, Handler> = endpointHandlers,
): Route[] {
  return [
    ...Object.values(model.endpoints).map((e) => route(e.method, e.path, 'token', handlers[e.id], e.id)),
    route('POST', graphqlPath, 'public', (req, env) => handleGraphql(req.body, env)),
    route('GET', OPERATOR_PREFIX, 'operator', operatorIndex),
    ...operatorRoutes.map((r) => route(r.method, r.path, 'operator', r.handler)),
  ];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'bad_path' }
  | { kind: 'not_found' };

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    if (r.method !== method) {
      allowed.push(r.method);
      continue;
    }
    const params: Record<string, string> = {};
    try {
      r.paramNames.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1])));
    } catch {
      return { kind: 'bad_path' };
    }
    return { kind: 'found', route: r, params };
  }
  return allowed.length ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
}
