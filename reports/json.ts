/** report.json: the report object itself, the documented, stable format (schema/report.schema.json). */
import type { Report } from '../core/report/schema.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
