/**
 * Waits for something a test can observe to become true (the server saw a request, a count moved),
 * instead of sleeping a duration and hoping it happened: a busy machine makes it later, never false.
 * Unbounded on purpose: vitest's test limit (vitest.config.ts) ends a wait for what never comes.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
