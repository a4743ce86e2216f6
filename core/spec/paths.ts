/**
 * Dot paths into JSON values (`customers.0.email`), as §7.1 writes `attr`: string parts are field
 * names, numeric parts zero-based array indexes.
 */
type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  isNode(value) && !Array.isArray(value);

/**
 * Sets `key` on a plain object as an own data property, as Object.fromEntries does: assigning
 * `__proto__` (a key a defect or a target may send) would set the object's prototype instead.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * The one way a path is written (§7.1 `attr`): parts joined with dots, array indexes as numbers
 * (`customers.0.landline`). `whole` names the empty path (the request or document as a whole).
 */
export function dotPath(parts: readonly PropertyKey[], whole = ''): string {
  return parts.length === 0 ? whole : parts.map(String).join('.');
}

/** The value at `path`, or undefined when any step is missing. */
export function getAtPath(target: unknown, path: string): unknown {
  let node: unknown = target;
  for (const part of path.split('.')) {
    if (!isNode(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Sets a value at a dot path, creating objects on the way (for the configurable contract link). */
export function setAtPath(target: Node, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (!isNode(node[part])) node[part] = {};
    node = node[part] as Node;
  }
  node[parts[parts.length - 1]] = value;
}

/** Takes out the value at a dot path, and the objects on the way that it leaves empty. */
export function deleteAtPath(target: Node, path: string): void {
  const parts = path.split('.');
  const chain: Node[] = [target];
  for (const part of parts.slice(0, -1)) {
    const next = chain[chain.length - 1][part];
    if (!isNode(next)) return;
    chain.push(next);
  }
  delete chain[chain.length - 1][parts[parts.length - 1]];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Array.isArray(chain[i]) || Object.keys(chain[i]).length > 0) break;
    delete chain[i - 1][parts[i - 1]];
  }
}

/**
 * A copy of `target` with the value at `path` replaced, or left out when `value` is undefined. Only
 * the objects on the path are copied and the rest is shared, so `target` is never changed.
 */
export function replacedAtPath(target: object, path: string, value: unknown): Node {
  const copy = (node: unknown): Node => (Array.isArray(node) ? [...node] : { ...(node as Node) }) as Node;
  const parts = path.split('.');
  const root = copy(target);
  let node = root;
  for (const part of parts.slice(0, -1)) {
    node[part] = copy(node[part]);
    node = node[part] as Node;
  }
  const last = parts[parts.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return root;
}

/** `attr` points at `path` or inside it (an object-level defect may be reported on a field of the object). */
export const pointsAt = (attr: string, path: string): boolean => attr === path || attr.startsWith(`${path}.`);
