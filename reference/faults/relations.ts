/**
 * Faults that break a relation the spec states at one place of the model only, where no older rule
 * looks (core/engine/relations.ts). Lookup near-misses: a lookup looser than its key — a
 * case-insensitive collation, a trimmed parameter, a truncated compare — finds the existing account
 * (or accepts the token) for a key spelled nearly the same. Every older rule sends keys exactly as
 * they were made, so only the `relations.lookup-near-miss.*` rules catch these. Identity: a business
 * told apart by an attribute outside its §2.8 key, which only a business sent again with that
 * attribute changed shows (`relations.identity.*`: every older rule repeats a business whole).
 */
import { isValidToken, tokenFromHeader } from '../auth.js';
import { alter, body, fault } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

/** Two tokens compared over the shorter of their lengths, when both have at least this many characters. */
const TRUNCATED_COMPARE = 16;

export const relationFaults: FaultDefinition[] = [
  fault(
    {
      id: 'relations.status-supplier-case-insensitive',
      placement: { by: ['relations.lookup-near-miss.accountTransferStatus'] },
      spec: '§4.3 (404 when no import process exists for the supplier code and external number)',
      subtle: true,
      description:
        'The status endpoint looks the supplier code up case-insensitively, so a code in other letter case finds the account of the configured supplier.',
    },
    alter('accountTransferStatus', (req, env) => {
      const code = req.params.import_supplier_code;
      if (env.store.suppliers.has(code)) return req;
      const like = [...env.store.suppliers.keys()].find((s) => s.toLowerCase() === code.toLowerCase());
      return like ? { ...req, params: { ...req.params, import_supplier_code: like } } : req;
    }),
  ),
  fault(
    {
      id: 'relations.notes-trimmed-external-number',
      placement: { by: ['relations.lookup-near-miss.createNotes'] },
      spec: '§4.2 notes rule 5 (a wrong external number gives 404)',
      subtle: true,
      description:
        'The notes endpoint trims the external account number before it looks the account up, so a number with a space around it adds notes to the account.',
    },
    alter('createNotes', (req) => {
      const b = body(req.body);
      return typeof b.external_account_number === 'string'
        ? { ...req, body: { ...b, external_account_number: b.external_account_number.trim() } }
        : req;
    }),
  ),
  fault(
    {
      id: 'relations.token-truncated-compare',
      placement: { by: ['relations.lookup-near-miss.token'] },
      spec: '§5.3, §7.2 (401: missing or invalid token)',
      subtle: true,
      description: `Tokens are compared over the shorter of the two lengths (at least ${TRUNCATED_COMPARE} characters), so a prefix or an extension of a valid token is accepted.`,
    },
    {
      authenticate: (_e, header, faithful, env) => {
        if (faithful) return true;
        const sent = tokenFromHeader(header);
        if (sent === null || sent.length < TRUNCATED_COMPARE) return false;
        const now = env.now().getTime();
        for (const token of env.store.tokens.keys()) {
          const n = Math.min(token.length, sent.length);
          if (n >= TRUNCATED_COMPARE && token.slice(0, n) === sent.slice(0, n) && isValidToken(env.store, token, now))
            return true;
        }
        return false;
      },
    },
  ),
  {
    id: 'relations.business-identity-includes-details',
    placement: {
      by: [
        'relations.identity.createBusiness.details',
        'relations.identity.createBusiness.details-0-key',
        'relations.identity.createBusiness.details-0-value',
      ],
    },
    spec: '§2.8 (unique by external identifier and key attributes: name, number, type)',
    subtle: true,
    description:
      'A business is told apart by its details too, so the same business sent again with other details is created a second time.',
    create() {
      // The details each business was created with (the store keeps only the key attributes).
      const details = new Map<number, string>();
      const around: Around = async (req, env, next) => {
        const b = body<{
          import_supplier_code?: string;
          external_business_identifier?: string;
          business?: Record<string, unknown>;
        }>(req.body);
        const sent = JSON.stringify(b.business?.details ?? null);
        const same = env.store.businesses.find(
          (x) =>
            x.supplier === b.import_supplier_code &&
            x.externalIdentifier === b.external_business_identifier &&
            x.name === b.business?.company_name &&
            x.number === b.business?.company_number &&
            x.type === b.business?.business_type,
        );
        // Out of the faithful lookup's sight while this request is handled, when its details differ.
        const hidden = same && details.has(same.id) && details.get(same.id) !== sent ? same : undefined;
        const name = hidden?.name;
        if (hidden) hidden.name = '\u0000hidden';
        let r: Awaited<ReturnType<Around>>;
        try {
          r = await next(req);
        } finally {
          if (hidden) hidden.name = name;
        }
        const id = (r.body as { service_business_id?: unknown } | undefined)?.service_business_id;
        if (r.status === 201 && typeof id === 'number') details.set(id, sent);
        return r;
      };
      return { around: { createBusiness: around } };
    },
  },
];
