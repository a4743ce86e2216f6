/** Time as the reference server writes it: §2.1 formats, UTC. */

/** §2.1 datetime: `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** §2.1 date: `YYYY-MM-DD`. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The day after an ISO date, as an ISO date. */
export function nextDay(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return formatDate(d);
}

/**
 * Lets the event loop serve other clients before going on: a request with a large body is handled
 * in steps, so that one client's 1 MB request does not hold up everybody else's small ones.
 */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
