/**
 * Faults that break a relation the spec states at one place of the model only, where no older rule
 * looks (core/engine/relations.ts). Lookup near-misses: a lookup looser than its key — a
 * case-insensitive collation, a trimmed parameter, a truncated compare — finds the existing account
 * (or accepts the token) for a key spelled nearly the same. Every older rule sends keys exactly as
 * they were made, so only the `relations.lookup-near-miss.*` rules catch these.
 */
import { isValidToken, tokenFromHeader } from '../auth.js';
import { alter, body, fault } from './helpers.js';
import type { FaultDefinition } from './types.js';

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
];
