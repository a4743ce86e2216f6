// Loaded into a CLI child with NODE_OPTIONS=--import=<this file>: writes the child's peak resident
// memory (process.resourceUsage().maxRSS, kilobytes) to $RSS_PROBE_FILE as it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.RSS_PROBE_FILE) writeFileSync(process.env.RSS_PROBE_FILE, String(process.resourceUsage().maxRSS));
});
