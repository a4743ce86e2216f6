/** Faults of §4.2 historical statements. */
import { reply } from '../reply.js';
import { validationError } from '../validation.js';
import { body, fault, rewrite } from './helpers.js';
import type { FaultDefinition } from './types.js';

export const statementFaults: FaultDefinition[] = [
  fault(
    {
      id: 'statements.answer-202',
      spec: '§4.2 historical statements (201, also 200)',
      subtle: false,
      description: 'Historical statements answer 202.',
    },
    rewrite('createHistoricalStatements', (r) => (r.status === 201 ? { ...r, status: 202 } : r)),
  ),
  fault(
    {
      id: 'statements.path-required',
      spec: '§2.6 (statement_path optional)',
      subtle: true,
      description: 'A historical statement without statement_path is refused.',
    },
    {
      around: {
        createHistoricalStatements: (req, _env, next) => {
          const statements = body<{ statements?: { statement_path?: string }[] }>(req.body).statements ?? [];
          const i = Array.isArray(statements) ? statements.findIndex((s) => s && s.statement_path === undefined) : -1;
          return i >= 0
            ? validationError([
                { attr: `statements.${i}.statement_path`, code: 'required', detail: 'This field is required.' },
              ])
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'statements.dates-unvalidated',
      spec: '§2.6, §2.1',
      subtle: false,
      description: 'Dates of historical statements are not validated.',
    },
    { ignoreIssue: (e) => /^statements\.\d+\.\w*date$/.test(e.attr) && e.code === 'invalid_date' },
  ),
  fault(
    {
      id: 'statements.no-echo',
      spec: '§4.2 historical statements (body is the validated data)',
      subtle: false,
      description: 'Historical statements answer with an empty object instead of the validated data.',
    },
    rewrite('createHistoricalStatements', (r) => (r.status === 201 ? reply(201, {}) : r)),
  ),
  fault(
    {
      id: 'statements.echo-alters-amount',
      // The edge relation sends gross_amount at numbers past cents too (blind spot 4).
      placement: { by: ['statements.create.echo-fidelity'], beside: ['relations.echo.', 'relations.edge.'] },
      spec: '§4.2 historical statements (body is the validated data)',
      subtle: true,
      description: 'The validated data gives every statement a gross_amount rounded to a whole number.',
    },
    rewrite('createHistoricalStatements', (r) => {
      const b = body<{ statements?: Record<string, unknown>[] }>(r.body);
      if (r.status >= 300 || !Array.isArray(b.statements)) return r;
      const statements = b.statements.map((st) =>
        typeof st.gross_amount === 'number' ? { ...st, gross_amount: Math.round(st.gross_amount) } : st,
      );
      return { ...r, body: { ...b, statements } };
    }),
  ),
];
