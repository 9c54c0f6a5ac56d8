/**
 * Every unit test unmounts what it rendered, as Testing Library does by itself when test globals
 * are on (they are off here). A tree left mounted keeps React's scheduler busy after the test; once
 * the file's jsdom is gone, that work throws "window is not defined" into some other test's run.
 */
import { afterEach } from 'vitest';

afterEach(async () => {
  if (typeof document === 'undefined') return;
  const { cleanup } = await import('@testing-library/react');
  cleanup();
});
