/**
 * Setup of every browser test file. Testing Library's `waitFor` and `find*` give up after one
 * second by default: too short for an iframe on another origin to load and answer on a busy
 * 2-core machine, where a test would then fail on the wait, not on what it checks.
 */
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 10_000 });
