import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CANNOT_CHANGE_TYPE,
  EMBED_TENANT_NAME_PATTERN,
  MAX_EXTERNAL_USERS,
  SESSION_ID_PATTERN,
  USER_ATTRIBUTES_NOT_FOUND,
  attributeTypeChangeMessage,
  groupsNotFoundMessage,
  isSessionId,
  isSessionResponse,
  normalizeExternalId,
  validateSessionRequest,
  type SessionRequest,
} from '../../../src/core/protocol/session';

const base = { deploymentId: 42, externalId: 'user-1' };
const creator = { ...base, creatorMode: true, embedTenantName: 'acme-co' };

function problemsOf(input: unknown): string[] {
  const result = validateSessionRequest(input);
  if (result.ok) throw new Error(`expected problems, got a valid request: ${JSON.stringify(result.value)}`);
  return result.problems;
}

function valueOf(input: unknown): SessionRequest {
  const result = validateSessionRequest(input);
  if (!result.ok) throw new Error(`expected a valid request, got: ${result.problems.join(' | ')}`);
  return result.value;
}

const TENANT_MESSAGE =
  "embedTenantName: 5 to 36 characters, lowercase letters, digits and '-', starting with a letter and ending with a letter or digit";

describe('validateSessionRequest', () => {
  it('2.7 a request with deploymentId and externalId is valid', () => {
    expect(valueOf(base)).toEqual(base);
  });

  it('2.7 the request must be an object', () => {
    for (const input of [null, 'x', 42, [base]])
      expect(problemsOf(input)[0]).toMatch(/^session request: must be an object/);
  });

  describe('deploymentId', () => {
    it('2.7 deploymentId: required', () => {
      expect(problemsOf({ externalId: 'u' })).toEqual([
        'deploymentId: is required; give the id of the deployment the session grants access to',
      ]);
    });

    it.each([['42'], [0], [-3], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [null]])(
      '2.7 deploymentId: a positive integer, not %s',
      (deploymentId) => {
        const problems = problemsOf({ ...base, deploymentId });
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(/^deploymentId: must be a (number|positive whole number)/);
      },
    );
  });

  describe('externalId and internalId', () => {
    it('2.7 externalId and internalId: give exactly one (both given)', () => {
      expect(problemsOf({ deploymentId: 1, externalId: 'a', internalId: 'b' })).toContain(
        'externalId and internalId: give exactly one',
      );
    });

    it('2.7 externalId and internalId: give exactly one (neither given)', () => {
      expect(problemsOf({ deploymentId: 1 })).toEqual(['externalId and internalId: give exactly one']);
    });

    it('2.7 externalId: lowercased and trimmed in the value', () => {
      expect(valueOf({ deploymentId: 1, externalId: '  Ann@Example.COM \n' }).externalId).toBe('ann@example.com');
    });

    it('2.7 externalId: normalisation is trim + lowercase and idempotent (property)', () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
          (id) => {
            const value = valueOf({ deploymentId: 1, externalId: id });
            expect(value.externalId).toBe(id.trim().toLowerCase());
            expect(normalizeExternalId(value.externalId as string)).toBe(value.externalId);
          },
        ),
      );
    });

    it('2.7 externalId: empty or only spaces is rejected', () => {
      expect(problemsOf({ deploymentId: 1, externalId: '   ' })).toEqual([
        'externalId: must not be empty or only spaces',
      ]);
    });

    it('2.7 externalId: must be a string', () => {
      expect(problemsOf({ deploymentId: 1, externalId: 7 })[0]).toMatch(/^externalId: must be a string/);
    });

    it('2.7 internalId: a non-empty string, kept as given', () => {
      expect(valueOf({ deploymentId: 1, internalId: 'Admin@Example.com' }).internalId).toBe('Admin@Example.com');
      expect(problemsOf({ deploymentId: 1, internalId: ' ' })[0]).toMatch(/^internalId: must be a non-empty string/);
    });
  });

  describe('fields tied to externalId', () => {
    it('2.7 email: allowed with externalId', () => {
      expect(valueOf({ ...base, email: 'ann@example.com' }).email).toBe('ann@example.com');
    });

    it('2.7 email: only with externalId', () => {
      expect(problemsOf({ deploymentId: 1, internalId: 'admin', email: 'a@b.c' })).toEqual([
        'email: only allowed with externalId; remove it (an internal user already has an email)',
      ]);
    });

    it.each([
      ['userProfile', { displayName: 'Ann' }],
      ['userAttributes', [{ name: 'region', value: 'eu' }]],
      ['groups', []],
      ['userAttributeDefinitions', [{ name: 'region', type: 'string' }]],
      ['groupDefinitions', [{ name: 'sales' }]],
      ['securityContext', { tenant: 'acme' }],
    ])('2.7 / 4.2 rule 8 %s: not allowed with internalId', (field, value) => {
      const problems = problemsOf({
        deploymentId: 1,
        internalId: 'admin',
        creatorMode: true,
        embedTenantName: 'acme-co',
        [field]: value,
      });
      expect(problems).toEqual([
        `${field}: not allowed with internalId (the internal user's own permissions apply); remove it or use externalId`,
      ]);
    });
  });

  describe('userProfile', () => {
    it.each([['https://cdn.example.com/a.png'], ['http://localhost:8080/avatar.svg'], ['HTTPS://EXAMPLE.COM/x']])(
      '2.7 userProfile.picture: %s is a valid absolute http(s) URL',
      (picture) => {
        expect(valueOf({ ...base, userProfile: { displayName: 'Ann', picture } }).userProfile?.picture).toBe(picture);
      },
    );

    it.each([
      ['/avatar.png'],
      ['cdn.example.com/a.png'],
      ['ftp://example.com/a.png'],
      ['javascript:alert(1)'],
      ['data:image/png;base64,AAAA'],
      ['https://'],
      ['not a url'],
      [''],
    ])('2.7 userProfile.picture: %j is rejected', (picture) => {
      expect(problemsOf({ ...base, userProfile: { picture } })).toEqual([
        'userProfile.picture: must be an absolute http:// or https:// URL, for example https://cdn.example.com/avatar.png',
      ]);
    });

    it('2.7 userProfile: an object with string displayName; both fields optional (4.2 rule 7)', () => {
      expect(valueOf({ ...base, userProfile: {} }).userProfile).toEqual({});
      expect(problemsOf({ ...base, userProfile: { displayName: 5 } })).toEqual([
        'userProfile.displayName: must be a string',
      ]);
      expect(problemsOf({ ...base, userProfile: 'Ann' })).toEqual([
        'userProfile: must be an object { displayName?, picture? }',
      ]);
      expect(problemsOf({ ...base, userProfile: [] })).toEqual([
        'userProfile: must be an object { displayName?, picture? }',
      ]);
    });
  });

  describe('embedTenantName', () => {
    const at36 = `a${'b'.repeat(34)}c`;
    it.each([['acme1'], ['acme-co'], ['a1-2-3'], [at36]])('2.7 embedTenantName: %s is accepted', (embedTenantName) => {
      expect(valueOf({ ...base, embedTenantName }).embedTenantName).toBe(embedTenantName);
    });

    it.each([
      ['acme', 'only 4 characters'],
      [`${at36}d`, '37 characters'],
      ['Acme-co', 'uppercase'],
      ['1acme', 'starts with a digit'],
      ['-acme', 'starts with -'],
      ['acme-', 'ends with -'],
      ['ac_me', 'underscore'],
      ['acmé-co', 'non-ASCII letter'],
      [42, 'not a string'],
    ])(
      '2.7 embedTenantName: 5 to 36 characters, lowercase letters, digits and - (rejects %j: %s)',
      (embedTenantName, _reason) => {
        expect(problemsOf({ ...base, embedTenantName })).toEqual([TENANT_MESSAGE]);
      },
    );

    it('behaviour 4 EMBED_TENANT_NAME_PATTERN is the documented expression, stateless', () => {
      expect(EMBED_TENANT_NAME_PATTERN.source).toBe('^[a-z][a-z0-9-]{3,34}[a-z0-9]$');
      expect(EMBED_TENANT_NAME_PATTERN.global).toBe(false);
    });
  });

  describe('definitions', () => {
    it('4.2 rule 3 definitions are accepted with creatorMode: true and an embedTenantName', () => {
      const request = {
        ...creator,
        groupDefinitions: [{ name: 'sales', description: 'Sales team' }],
        userAttributeDefinitions: [
          { name: 'region', type: 'string', displayName: 'Region', defaultValue: 'eu', description: 'Sales region' },
          { name: 'quota', type: 'number' },
          { name: 'tags', type: 'string_array' },
          { name: 'ids', type: 'number_array' },
        ],
      };
      expect(valueOf(request)).toEqual(request);
    });

    it.each([['groupDefinitions'], ['userAttributeDefinitions']])(
      '4.2 rule 3 %s: requires creatorMode: true',
      (field) => {
        const definitions = field === 'groupDefinitions' ? [{ name: 'g' }] : [{ name: 'a', type: 'string' }];
        for (const creatorMode of [undefined, false]) {
          expect(problemsOf({ ...base, embedTenantName: 'acme-co', creatorMode, [field]: definitions })).toEqual([
            `${field}: needs creatorMode: true; definitions only apply to creator-mode sessions`,
          ]);
        }
      },
    );

    it.each([['groupDefinitions'], ['userAttributeDefinitions']])(
      '4.2 rule 3 %s: requires an embedTenantName',
      (field) => {
        const definitions = field === 'groupDefinitions' ? [{ name: 'g' }] : [{ name: 'a', type: 'string' }];
        expect(problemsOf({ ...base, creatorMode: true, [field]: definitions })).toEqual([
          `${field}: needs an embedTenantName; definitions are scoped to an embed tenant`,
        ]);
      },
    );

    it('4.2 rule 3 duplicate names inside groupDefinitions are rejected', () => {
      expect(
        problemsOf({ ...creator, groupDefinitions: [{ name: 'sales' }, { name: 'ops' }, { name: 'sales' }] }),
      ).toEqual([
        'groupDefinitions[2].name: "sales" is given more than once (first at groupDefinitions[0]); give each group definition once',
      ]);
    });

    it('4.2 rule 3 duplicate names inside userAttributeDefinitions are rejected', () => {
      expect(
        problemsOf({
          ...creator,
          userAttributeDefinitions: [
            { name: 'region', type: 'string' },
            { name: 'region', type: 'string' },
          ],
        }),
      ).toEqual([
        'userAttributeDefinitions[1].name: "region" is given more than once (first at userAttributeDefinitions[0]); give each attribute definition once',
      ]);
    });

    it('2.7 userAttributeDefinitions[].type: one of string, number, string_array, number_array', () => {
      expect(
        problemsOf({ ...creator, userAttributeDefinitions: [{ name: 'flag', type: 'boolean' }, { name: 'x' }] }),
      ).toEqual([
        'userAttributeDefinitions[0].type: must be one of string, number, string_array, number_array',
        'userAttributeDefinitions[1].type: is required',
      ]);
    });

    it('2.7 definitions: name required and non-empty, optional fields strings', () => {
      expect(
        problemsOf({
          ...creator,
          groupDefinitions: [{ description: 'x' }, { name: '' }, { name: 'ok', description: 3 }, 'sales'],
        }),
      ).toEqual([
        'groupDefinitions[0].name: is required',
        'groupDefinitions[1].name: must be a non-empty string, the group name',
        'groupDefinitions[2].description: must be a string',
        'groupDefinitions[3]: must be an object { name, description? }',
      ]);
    });
  });

  describe('userAttributes', () => {
    it.each([
      ['a string', 'eu'],
      ['a number', 3.5],
      ['a boolean (behaviour 4)', true],
      ['an array of strings', ['a', 'b']],
      ['an array of numbers', [1, 2]],
      ['an empty array', []],
      ['null, which clears the value (4.2 rule 5)', null],
    ])('2.7 userAttributes[].value: %s is accepted', (_label, value) => {
      expect(valueOf({ ...base, userAttributes: [{ name: 'a', value }] }).userAttributes).toEqual([
        { name: 'a', value },
      ]);
    });

    it.each([
      ['an object', { x: 1 }],
      ['a mixed array', ['a', 1]],
      ['a nested array', [['a']]],
      ['an array with null', ['a', null]],
    ])('2.7 userAttributes[].value: %s is rejected', (_label, value) => {
      expect(problemsOf({ ...base, userAttributes: [{ name: 'a', value }] })).toEqual([
        'userAttributes[0].value: must be a string, a number, a boolean, an array of strings, an array of numbers, or null (null clears the value)',
      ]);
    });

    it('2.7 userAttributes[].value: numbers must be finite', () => {
      expect(problemsOf({ ...base, userAttributes: [{ name: 'a', value: Number.POSITIVE_INFINITY }] })).toEqual([
        'userAttributes[0].value: must be a finite number',
      ]);
    });

    it('2.7 userAttributes[]: name and value are required', () => {
      expect(problemsOf({ ...base, userAttributes: [{ value: 'x' }, { name: 'b' }] })).toEqual([
        'userAttributes[0].name: is required',
        'userAttributes[1].value: is required',
      ]);
    });

    it('4.2 rule 5 / 7 duplicate name in userAttributes is rejected (the 400)', () => {
      expect(
        problemsOf({
          ...base,
          userAttributes: [
            { name: 'region', value: 'eu' },
            { name: 'plan', value: 'pro' },
            { name: 'region', value: 'us' },
          ],
        }),
      ).toEqual([
        'userAttributes[2].name: "region" is given more than once (first at userAttributes[0]); give each attribute once',
      ]);
    });

    it('4.2 rule 5 value type must match a definition given in the same request', () => {
      const problems = problemsOf({
        ...creator,
        userAttributeDefinitions: [
          { name: 'region', type: 'string' },
          { name: 'quota', type: 'number' },
          { name: 'tags', type: 'string_array' },
          { name: 'ids', type: 'number_array' },
        ],
        userAttributes: [
          { name: 'region', value: 5 },
          { name: 'quota', value: '5' },
          { name: 'tags', value: [1] },
          { name: 'ids', value: ['1'] },
        ],
      });
      expect(problems).toEqual([
        'userAttributes[0].value: must be a string (or null) because userAttributeDefinitions[0] defines "region" as string',
        'userAttributes[1].value: must be a number (or null) because userAttributeDefinitions[1] defines "quota" as number',
        'userAttributes[2].value: must be an array of strings (or null) because userAttributeDefinitions[2] defines "tags" as string_array',
        'userAttributes[3].value: must be an array of numbers (or null) because userAttributeDefinitions[3] defines "ids" as number_array',
      ]);
    });

    it('4.2 rule 5 matching values, null, and attributes defined elsewhere are accepted', () => {
      const request = {
        ...creator,
        userAttributeDefinitions: [
          { name: 'region', type: 'string' },
          { name: 'ids', type: 'number_array' },
        ],
        userAttributes: [
          { name: 'region', value: 'eu' },
          { name: 'ids', value: null },
          { name: 'existing', value: true },
        ],
      };
      expect(valueOf(request)).toEqual(request);
    });

    it('4.2 rule 5 a boolean value does not match a string definition', () => {
      expect(
        problemsOf({
          ...creator,
          userAttributeDefinitions: [{ name: 'region', type: 'string' }],
          userAttributes: [{ name: 'region', value: true }],
        }),
      ).toHaveLength(1);
    });
  });

  describe('groups, securityContext', () => {
    it('4.2 rule 6 groups: [] is accepted (it clears memberships)', () => {
      expect(valueOf({ ...base, groups: [] }).groups).toEqual([]);
    });

    it('2.7 groups: an array of non-empty group names', () => {
      expect(problemsOf({ ...base, groups: 'sales' })).toEqual(['groups: must be an array of group names']);
      expect(problemsOf({ ...base, groups: ['sales', '', 3] })).toEqual([
        'groups[1]: must be a non-empty string, the name of a group',
        'groups[2]: must be a non-empty string, the name of a group',
      ]);
    });

    it('2.7 securityContext: an object', () => {
      expect(valueOf({ ...base, securityContext: { tenantId: 7 } }).securityContext).toEqual({ tenantId: 7 });
      for (const securityContext of [[], 'x', null])
        expect(problemsOf({ ...base, securityContext })).toEqual([
          'securityContext: must be an object, passed to data queries as the security context',
        ]);
    });
  });

  describe('settings, embedTheme and the 4.2 rule 10 fields', () => {
    it.each([['showDashboardChat'], ['allowAi'], ['showWorkbookChat'], ['showAiWidgets'], ['showWorkbookShare']])(
      '2.7 / behaviour 4 settings.%s: tri-state (omitted, true, false)',
      (key) => {
        expect(valueOf({ ...base, settings: {} }).settings).toEqual({});
        expect(valueOf({ ...base, settings: { [key]: true } }).settings).toEqual({ [key]: true });
        expect(valueOf({ ...base, settings: { [key]: false } }).settings).toEqual({ [key]: false });
        for (const bad of ['false', null, 0])
          expect(problemsOf({ ...base, settings: { [key]: bad } })).toEqual([
            `settings.${key}: must be true or false, or left out to inherit the account setting`,
          ]);
      },
    );

    it('behaviour 4 settings.locale: a BCP 47 tag', () => {
      for (const locale of ['en-US', 'de', 'es-AR', 'pt-BR'])
        expect(valueOf({ ...base, settings: { locale } }).settings?.locale).toBe(locale);
      for (const locale of ['en_US', '', 'english language'])
        expect(problemsOf({ ...base, settings: { locale } })).toEqual([
          'settings.locale: must be a BCP 47 language tag such as en-US or de',
        ]);
    });

    it('behaviour 4 settings.timezone: a non-empty string', () => {
      expect(valueOf({ ...base, settings: { timezone: 'Europe/Berlin' } }).settings?.timezone).toBe('Europe/Berlin');
      expect(problemsOf({ ...base, settings: { timezone: '' } })).toEqual([
        'settings.timezone: must be an IANA time zone name such as Europe/Berlin',
      ]);
    });

    it('2.7 settings: an object', () => {
      expect(problemsOf({ ...base, settings: true })[0]).toMatch(/^settings: must be an object/);
    });

    it('behaviour 4 embedTheme: an object with the documented fields; others pass through', () => {
      const embedTheme = {
        font: 'Inter, sans-serif',
        primaryColor: '#4E79A7',
        borderRadius: '8px',
        analyticsChat: { backgroundColor: '#fff', chatInput: { backgroundColor: '#eee', borderColor: '#ccc' } },
        future: { x: 1 },
      };
      expect(valueOf({ ...base, embedTheme }).embedTheme).toEqual(embedTheme);
      expect(problemsOf({ ...base, embedTheme: 'dark' })[0]).toMatch(/^embedTheme: must be an object/);
      expect(problemsOf({ ...base, embedTheme: { primaryColor: 1 } })).toEqual([
        'embedTheme.primaryColor: must be a string',
      ]);
      expect(problemsOf({ ...base, embedTheme: { analyticsChat: { chatInput: { borderColor: false } } } })).toEqual([
        'embedTheme.analyticsChat.chatInput.borderColor: must be a string',
      ]);
    });

    it('4.2 rule 10 tenantGroups, tenantGroupDefinitions and embedTenantProfile are accepted', () => {
      const request = {
        ...creator,
        tenantGroups: ['north'],
        tenantGroupDefinitions: [{ name: 'north' }],
        embedTenantProfile: { displayName: 'Acme Co' },
      };
      expect(valueOf(request)).toEqual(request);
      expect(problemsOf({ ...base, tenantGroups: 'north', embedTenantProfile: { displayName: 1 } })).toEqual([
        'tenantGroups: must be an array',
        'embedTenantProfile.displayName: must be a string',
      ]);
    });
  });

  describe('other fields', () => {
    it('9 (0.2.0) ephemeralTtlSeconds: removed from this request, rejected', () => {
      expect(problemsOf({ ...base, ephemeralTtlSeconds: 3600 })).toEqual([
        'ephemeralTtlSeconds: no longer accepted by the embed session request (removed in 0.2.0); remove it. It remains a chat sessionSettings field.',
      ]);
    });

    it('9 fields added within v1 pass through unchanged', () => {
      expect(valueOf({ ...base, someNewFlag: { on: true } })).toEqual({ ...base, someNewFlag: { on: true } });
    });

    it('2.7 a field that differs from a known one only by case is reported', () => {
      expect(problemsOf({ deploymentId: 1, externalId: 'a', userattributes: [] })).toEqual([
        'userattributes: unknown field; did you mean userAttributes?',
      ]);
    });

    it('2.7 creatorMode: a boolean', () => {
      expect(problemsOf({ ...base, creatorMode: 'yes' })).toEqual(['creatorMode: must be true or false']);
    });

    it('2.7 every problem is reported at once, each starting with its field path', () => {
      const problems = problemsOf({
        deploymentId: '1',
        internalId: 'admin',
        externalId: 'x',
        embedTenantName: 'X',
        userProfile: { picture: 'ftp://x' },
        userAttributes: [{ name: 'a', value: {} }],
        settings: { allowAi: 'no' },
      });
      expect(problems.length).toBeGreaterThanOrEqual(7);
      for (const problem of problems) expect(problem).toMatch(/^[A-Za-z][\w.[\]]*( and internalId)?: \S/);
    });
  });
});

describe('session texts and limits', () => {
  it('7 / 4.2 rule 1 error texts', () => {
    expect(USER_ATTRIBUTES_NOT_FOUND).toBe('User attributes not found');
    expect(groupsNotFoundMessage(['sales'])).toBe('Groups with names sales not found');
    expect(groupsNotFoundMessage(['sales', 'ops'])).toBe('Groups with names sales, ops not found');
  });

  it('7 / 4.2 rule 4 the type-change message contains "cannot change type"', () => {
    expect(CANNOT_CHANGE_TYPE).toBe('cannot change type');
    const message = attributeTypeChangeMessage('plan', 'string', 'number');
    expect(message).toContain(CANNOT_CHANGE_TYPE);
    expect(message).toContain('"plan"');
  });

  it('behaviour 4 sessionId: 32 hex characters', () => {
    expect(SESSION_ID_PATTERN.test('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isSessionId('0123456789abcdef0123456789abcde')).toBe(false);
    expect(isSessionId('0123456789abcdef0123456789abcdeg')).toBe(false);
    expect(isSessionId(123)).toBe(false);
    expect(isSessionResponse({ sessionId: 'ffffffffffffffffffffffffffffffff' })).toBe(true);
    expect(isSessionResponse({ sessionId: 'nope' })).toBe(false);
  });

  it('8 external users per account: 10,000', () => {
    expect(MAX_EXTERNAL_USERS).toBe(10_000);
  });
});
