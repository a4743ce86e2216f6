// The first step of `npm test`: builds dist/ (build.mjs) and type-checks everything, tests included
// (tsconfig.json, no output), at once. Each tsc is one thread for most of its time: on two cores the two
// side by side take the time of the longer, not of both. Exits with the first non-zero code; each
// compiler's output is printed whole, one after the other, never interleaved.
import { build, tsc } from './build.mjs';

const results = await Promise.all([
  build({ collect: true }),
  tsc(['-p', 'tsconfig.json', '--noEmit'], { collect: true }),
]);
for (const { args, code, output } of results) {
  if (output) process.stdout.write(output);
  if (code !== 0) console.error(`tsc ${args.join(' ')} exited ${code}`);
}
process.exit(results.find((r) => r.code !== 0)?.code ?? 0);
