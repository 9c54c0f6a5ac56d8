// The closing line of `npm test`: how many tests ran, in the plain form CI tools read
// ("N passed, N failed"), from the JSON report vitest wrote during the run.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync('node_modules/.cache/vitest-results.json', 'utf8'));
const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
console.log(`${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (report.numFailedTests > 0 || report.numTotalTests === 0) process.exit(1);
