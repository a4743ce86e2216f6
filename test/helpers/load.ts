/**
 * How busy the machine is, for the messages of tests that gave up waiting: a timeout on a loaded
 * machine (CI beside other jobs, `npm run test:load`) is load until shown otherwise, and says so.
 */
import { availableParallelism, loadavg } from 'node:os';

/** e.g. "load average 9.12 7.40 3.02 on 2 CPUs: the machine is busy, which alone can explain a timeout". */
export function machineLoad(): string {
  const [one, five, fifteen] = loadavg();
  const cpus = availableParallelism();
  const busy = one > cpus;
  return `load average ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)} on ${cpus} CPU${cpus === 1 ? '' : 's'}${
    busy
      ? ': the machine is busy (more runnable processes than CPUs), which alone can explain a timeout'
      : ': the machine is not busy, so a timeout is worth looking into'
  }`;
}
