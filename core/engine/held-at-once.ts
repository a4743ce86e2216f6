/**
 * How many requests a target certainly held at once, from what the runner saw of them. A limit on
 * concurrent work (§8) is exceeded only by requests the target was working on together; requests
 * sent together are not that. A target that answers each in a few milliseconds, or a runner too busy
 * to send them close together, never has more than one or two at once, and answering none with 429
 * is then what the spec asks. So "no 429" is a failure only when the answers' times prove more than
 * the limit were held together.
 *
 * The target held a request somewhere inside [sent, answered] as the runner measured them. Its own
 * part is shorter by the network's delay on each side and by however late the runner's event loop
 * was to send it or to read the answer. `margin` is that bound (the loop's worst delay during the
 * burst plus a round trip), taken off both ends: what is left is a time the target surely held it.
 */

export interface TimedRequest {
  /** performance.now() when the request was handed to the connection. */
  sent: number;
  /** performance.now() when the answer was read. */
  answered: number;
}

/** The most requests whose surely-held times overlap at one instant. */
export function heldAtOnce(requests: readonly TimedRequest[], margin: number): number {
  const edges: [at: number, change: 1 | -1][] = [];
  for (const { sent, answered } of requests) {
    const from = sent + margin;
    const to = answered - margin;
    if (to > from) edges.push([from, 1], [to, -1]);
  }
  // An end and a start at the same instant do not overlap: ends first.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, change] of edges) {
    now += change;
    most = Math.max(most, now);
  }
  return most;
}
