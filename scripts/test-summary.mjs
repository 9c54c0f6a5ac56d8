// The closing line of `npm test`: how many tests ran, in the plain form CI tools read
// ("N passed, N failed"), from the JSON report vitest wrote during the run.
// The example apps (`npm run test:examples`) write a report of their own, counted in when present.
import { existsSync, readFileSync } from 'node:fs';

const reports = ['node_modules/.cache/vitest-results.json', 'node_modules/.cache/vitest-examples-results.json']
  .filter((path, index) => index === 0 || existsSync(path))
  .map((path) => JSON.parse(readFileSync(path, 'utf8')));
const sum = (field) => reports.reduce((total, report) => total + (report[field] ?? 0), 0);
const skipped = sum('numPendingTests') + sum('numTodoTests');
console.log(`${sum('numPassedTests')} passed, ${sum('numFailedTests')} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (sum('numFailedTests') > 0 || reports[0].numTotalTests === 0) process.exit(1);
