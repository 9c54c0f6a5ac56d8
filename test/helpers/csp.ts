/**
 * Puts a Content-Security-Policy on the test page (a `<meta>` at the top of `<head>`, in force for
 * everything loaded after it) and collects its violations, for the browser tests that prove what
 * the library does under a strict policy.
 */

/** One `securitypolicyviolation` event, the fields the tests read. */
export interface CspViolation {
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

/** Applies `policy` to this page and returns the list its violations are pushed to. */
export function enforceCsp(policy: string): CspViolation[] {
  const violations: CspViolation[] = [];
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = policy;
  document.head.prepend(meta);
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push({
      directive: event.effectiveDirective,
      blocked: event.blockedURI,
      source: event.sourceFile,
      sample: event.sample,
    });
  });
  return violations;
}
