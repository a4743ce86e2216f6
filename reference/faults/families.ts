/**
 * Faults generated from the spec model, one per endpoint, for the rule families every endpoint gets
 * (suites/auth.ts `auth.401.<endpoint>`, suites/errors-bad-input.ts `errors.bad-input.no-5xx.<endpoint>`,
 * suites/relations-lookup.ts `relations.lookup-near-miss.<endpoint>`):
 * an endpoint added to the model gets its faults the day it is added, as it gets its rules, so those
 * rules are shown to fail against a server that breaks them. They carry their family's name
 * (`family`), so they never count as an endpoint's own fault (reach.ts): an endpoint's own rules
 * still need faults written for them.
 */
import { modelKeyFields } from '../../core/engine/relations.js';
import { type EndpointId, endpointSlug, model } from '../../core/spec/index.js';
import { isPlainObject } from '../../core/spec/paths.js';
import { reply } from '../reply.js';
import { fault, foldingCase } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

/** §5.3: every data-import endpoint needs the token; this server forgets it on one of them. */
const openEndpoint = (id: EndpointId): FaultDefinition => {
  const e = model.endpoints[id];
  return fault(
    {
      id: `auth.open.${endpointSlug(id)}`,
      family: 'auth.open',
      spec: '§5.3',
      subtle: false,
      description: `${e.method} ${e.path} answers requests without a valid token (its route left out of the authentication check).`,
    },
    { authenticate: (endpoint, _h, ok) => ok || endpoint === id },
  );
};

/**
 * §7.2: bad input is a 400 on any endpoint; this handler reads its body as an object before it is
 * validated, and a body that is a list, a string or null raises: an unexpected error, 500.
 */
const crashesOnNonObject = (id: EndpointId): FaultDefinition => {
  const e = model.endpoints[id];
  const around: Around = (req, _env, next) =>
    isPlainObject(req.body) ? next(req) : reply(500, { detail: 'Internal server error.' });
  return fault(
    {
      id: `errors.crash-on-non-object.${endpointSlug(id)}`,
      family: 'errors.crash-on-non-object',
      spec: '§7.2',
      subtle: false,
      description: `${e.method} ${e.path} answers a JSON body that is not an object (a list, a string, null) with 500, reading it before validating it.`,
    },
    { around: { [id]: around } },
  );
};

/**
 * §4.2, §4.3, §2.8: a key names one thing; this endpoint looks its keys up under a case-insensitive
 * collation (a database default), so a key in other letter case finds what the key names. The
 * supplier first: the account and the business are looked up under the supplier found. Only where
 * an endpoint looks something up (a read, or `looksUp`): one that stores by key (stage, business)
 * and folds the case of what it holds takes a reading the spec leaves open (core/engine/relations.ts
 * `nearMisses`), judged by whether it holds the key the same everywhere.
 */
const caseInsensitiveLookup = (id: EndpointId): FaultDefinition | undefined => {
  const e = model.endpoints[id];
  const keys = modelKeyFields(e);
  if (!keys.length || (e.method !== 'GET' && !e.looksUp)) return undefined;
  return fault(
    {
      id: `relations.lookup-case-insensitive.${endpointSlug(id)}`,
      family: 'relations.lookup-case-insensitive',
      // Out of every older rule's sight: only the endpoint's near-miss rule may see it.
      placement: { by: [`relations.lookup-near-miss.${endpointSlug(id)}`] },
      spec: '§4.2, §4.3, §2.8 (a key names one account, supplier or business)',
      subtle: true,
      description: `${e.method} ${e.path} looks ${keys.join(', ')} up case-insensitively, so a key in other letter case finds what the key names.`,
    },
    foldingCase(id, keys),
  );
};

const ENDPOINTS = Object.keys(model.endpoints) as EndpointId[];

export const familyFaults: FaultDefinition[] = [
  ...ENDPOINTS.map(openEndpoint),
  ...ENDPOINTS.filter((id) => model.endpoints[id].method === 'POST').map(crashesOnNonObject),
  ...ENDPOINTS.map(caseInsensitiveLookup).filter((f) => f !== undefined),
];
