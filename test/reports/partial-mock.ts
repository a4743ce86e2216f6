/**
 * A supplier's partial mock, the usual first target of the suite: about a hundred lines implementing
 * account migration (§4.1 validate, stage, process) and the §4.3 status endpoint, answering 501 to
 * every other request. The token is checked first (§5.2), as a real gateway would. Its validation is
 * a supplier's first cut (only the keys and the supplier are checked), so it fails rules too: what
 * the console of such a run prints is what test/reports/console-one-screen.test.ts holds.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Listening, listen } from '../helpers/listen.js';

export const MOCK_TOKEN = 'mock-token';
export const MOCK_SUPPLIER = 'ACME';
export const MOCK_TEAM = 'Migrations';

interface Staged {
  payload: Record<string, unknown>;
  serviceAccountNumber?: string;
}

const invalid = (attr: string, detail: string) => ({
  detail: 'The account failed validation.',
  code: 'account_failed_validation',
  errors: [{ detail, code: 'invalid', attr }],
});

export async function startPartialMock(): Promise<Listening> {
  const accounts = new Map<string, Staged>();
  let created = 0;

  const reply = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const read = (req: IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      // Decoded once whole: a multi-byte character may be split across chunks.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          resolve(undefined);
        }
      });
    });
  const keyed = (body: unknown): { supplier: string; ext: string } | { attr: string } => {
    const b = (body ?? {}) as Record<string, unknown>;
    const supplier = b.import_supplier ?? b.import_supplier_code;
    if (typeof supplier !== 'string' || supplier === '') return { attr: 'import_supplier' };
    if (typeof b.external_account_number !== 'string' || b.external_account_number === '')
      return { attr: 'external_account_number' };
    return { supplier, ext: b.external_account_number };
  };

  return listen(async (req, res) => {
    if (req.headers.authorization !== `Token ${MOCK_TOKEN}`) return reply(res, 401, { detail: 'Unauthorized' });
    const path = (req.url ?? '').split('?')[0];
    const body = req.method === 'POST' ? await read(req) : undefined;
    const key = keyed(body);

    if (req.method === 'POST' && path === '/v1/data-import/validate-account/') {
      if ('attr' in key) return reply(res, 400, invalid(key.attr, 'This field is required.'));
      return reply(res, 200, body);
    }
    if (req.method === 'POST' && path === '/v1/data-import/account-import-process/create-or-update/') {
      if ('attr' in key) return reply(res, 400, invalid(key.attr, 'This field is required.'));
      if (key.supplier !== MOCK_SUPPLIER) return reply(res, 400, invalid('import_supplier', 'Unknown supplier.'));
      const id = `${key.supplier}/${key.ext}`;
      const existing = accounts.get(id);
      if (existing?.serviceAccountNumber) return reply(res, 400, invalid('external_account_number', 'Imported.'));
      accounts.set(id, { payload: body as Record<string, unknown> });
      return reply(res, existing ? 200 : 201, { import_supplier: key.supplier, external_account_number: key.ext });
    }
    if (req.method === 'POST' && path === '/v1/data-import/account-import-process/process/') {
      if ('attr' in key) return reply(res, 400, invalid(key.attr, 'This field is required.'));
      const b = body as Record<string, unknown>;
      if (b.operations_team_name !== MOCK_TEAM)
        return reply(res, 400, invalid('operations_team_name', 'No such team.'));
      const staged = accounts.get(`${key.supplier}/${key.ext}`);
      if (!staged) return reply(res, 400, invalid('external_account_number', 'Nothing staged.'));
      if (staged.serviceAccountNumber)
        return reply(res, 400, {
          detail: 'Already imported.',
          external_account_number: key.ext,
          service_account_number: staged.serviceAccountNumber,
        });
      if (b.dry_run === true)
        return reply(res, 400, { detail: 'The account would import successfully; rolled back (dry run).' });
      staged.serviceAccountNumber = `A-${String(++created).padStart(8, '0')}`;
      return reply(res, 201, { service_account_number: staged.serviceAccountNumber });
    }
    const status = /^\/v1\/data-import\/account-transfer-status\/([^/]+)\/([^/]+)\/$/.exec(path);
    if (req.method === 'GET' && status) {
      const staged = accounts.get(`${decodeURIComponent(status[1])}/${decodeURIComponent(status[2])}`);
      if (!staged) return reply(res, 404, { detail: 'Not found.' });
      return reply(res, 200, {
        status: staged.serviceAccountNumber ? 'COMPLETED' : 'UNKNOWN',
        service_account_number: staged.serviceAccountNumber ?? '',
      });
    }
    return reply(res, 501, { detail: 'Not implemented in this mock.' });
  });
}
