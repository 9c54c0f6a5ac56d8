// @vitest-environment node
/**
 * Rules of protocol 2.1-2.8, 3, 4.1, 4.2, 8 and behaviour 1-2 that the other
 * emulator tests left without a test that can fail, over real sockets: the tri-state
 * `showDashboardChat`, 4.2 rule 3 at the HTTP boundary, optional chat request fields, the shapes of
 * the resources the management API answers, and the spec's time windows written as numbers.
 */
import { describe, expect, it } from 'vitest';
import { MAX_APP_ENTRY_LENGTH, isWorkbook, validateWorkbook } from '../../../src/core/protocol/workbook';
import { ADMIN_API_KEY, createManualClock } from '../../../src/emulator';
import { CONFIG_ELEMENT_ID, type EmbedPageConfig } from '../../../src/emulator/embed/config';
import { externalUserKey } from '../../../src/emulator/state';
import { ACCOUNT_NAME } from '../../../src/emulator/world';
import { mintSession, useEmulator } from '../../helpers/emulator';
import { chatIdOf } from '../../helpers/streams';
import { chat, finalAnswer, newMessageId, post } from './chat-helpers';
import { postData } from './helpers';

// The emulator's clock, moved by hand: the time windows below are checked without waiting.
const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));

const emulator = useEmulator({ port: 0, chatPace: 'instant', clock });

/** POSTs a generate-session body (4.2) with the admin key. */
async function generate(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${emulator.url}/api/v1/embed/generate-session`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Mints a session for deployment 1 and returns its id. */
const mint = (body: Record<string, unknown> = {}): Promise<string> =>
  mintSession(emulator, { deploymentId: 1, externalId: 'gap-viewer@partner.test', ...body });

/** Opens an embed page and reads the configuration it was served with. */
async function pageConfig(path: string): Promise<EmbedPageConfig> {
  const response = await fetch(`${emulator.url}${path}`);
  const html = await response.text();
  expect(response.status, html.slice(0, 200)).toBe(200);
  const match = new RegExp(`<script type="application/json" id="${CONFIG_ELEMENT_ID}">(.*?)</script>`, 's').exec(html);
  if (!match) throw new Error(`no config in ${path}`);
  return JSON.parse(match[1]!) as EmbedPageConfig;
}

const dashboardPath = (sessionId: string) => `/embed/dashboard/sales-overview?session=${sessionId}`;

describe('2.7 settings.showDashboardChat is tri-state', () => {
  it('2.7 showDashboardChat: omitted inherits the account-wide toggle, true shows the chat even when it is off account-wide, false hides it', async () => {
    const flags = emulator.context.state.tenantFlags;
    const before = flags.get('showDashboardChat');
    flags.set('showDashboardChat', false);
    try {
      expect((await pageConfig(dashboardPath(await mint()))).showDashboardChat).toBe(false);
      expect(
        (await pageConfig(dashboardPath(await mint({ settings: { showDashboardChat: true } })))).showDashboardChat,
      ).toBe(true);
      expect(
        (await pageConfig(dashboardPath(await mint({ settings: { showDashboardChat: false } })))).showDashboardChat,
      ).toBe(false);
    } finally {
      flags.set('showDashboardChat', before ?? true);
    }
    // Account-wide on (the world's default): omitted shows it, false still hides it.
    expect((await pageConfig(dashboardPath(await mint()))).showDashboardChat).toBe(true);
    expect(
      (await pageConfig(dashboardPath(await mint({ settings: { showDashboardChat: false } })))).showDashboardChat,
    ).toBe(false);
  });

  it('2.7 showDashboardChat: false does not affect the standalone embedded chat surface', async () => {
    const plain = await pageConfig(`/embed/chat?sessionId=${await mint()}`);
    const hidden = await pageConfig(`/embed/chat?sessionId=${await mint({ settings: { showDashboardChat: false } })}`);
    expect(plain.chat).not.toBeNull();
    expect(hidden.surface).toBe('chat');
    expect(hidden.chat).not.toBeNull();
    expect(hidden.chat).toEqual({ url: plain.chat?.url, agentId: plain.chat?.agentId, token: expect.any(String) });
    expect(hidden.chat?.token).not.toBe('');
  });
});

describe('4.2 rule 3 definitions at the HTTP boundary', () => {
  const creator = { deploymentId: 1, externalId: 'def-gap-user', creatorMode: true };

  it.each([
    ['groupDefinitions', [{ name: 'dup-team' }, { name: 'dup-team', description: 'again' }]],
    [
      'userAttributeDefinitions',
      [
        { name: 'dup-attr', type: 'string' },
        { name: 'dup-attr', type: 'string' },
      ],
    ],
  ])('4.2 rule 3: duplicate names within %s are 400 and nothing is upserted', async (field, definitions) => {
    const answer = await generate({ ...creator, embedTenantName: 'dup-tenant', [field]: definitions });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining(field));
    expect(emulator.context.state.embedTenants.has('dup-tenant')).toBe(false);
  });

  it.each([
    ['groupDefinitions', [{ name: 'team' }]],
    ['userAttributeDefinitions', [{ name: 'tier', type: 'string' }]],
  ])('4.2 rule 3: %s without an embedTenantName are 400, even in creator mode', async (field, definitions) => {
    const answer = await generate({ ...creator, [field]: definitions });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining('embedTenantName'));
  });
});

describe('2.8, behaviour 1 optional chat request fields the emulator accepts', () => {
  const alice = { externalId: 'gap-alice@partner.test' };

  it('behaviour 1: sessionSettings may carry timezone and allowChatWorkspaceAuthoring; the answer is whole', async () => {
    const answer = await chat(emulator, {
      input: 'orders by status',
      messageId: newMessageId(),
      sessionSettings: { ...alice, timezone: 'Europe/Berlin', allowChatWorkspaceAuthoring: false },
    });
    expect(answer.status).toBe(200);
    expect(chatIdOf(answer.lines)).toEqual(expect.any(String));
    expect(finalAnswer(answer.lines)).toBeDefined();
    expect(answer.lines.at(-1)?.['id']).toBe('__usage__');
  });

  it('2.8 activeBranchName and isDefaultBranch are accepted; a wrong type is 400', async () => {
    const answer = await chat(emulator, {
      input: 'orders by status',
      messageId: newMessageId(),
      sessionSettings: alice,
      activeBranchName: 'dev-branch',
      isDefaultBranch: false,
    });
    expect(answer.status).toBe(200);
    expect(finalAnswer(answer.lines)).toBeDefined();
    for (const extra of [{ activeBranchName: 7 }, { isDefaultBranch: 'yes' }]) {
      const response = await post(emulator, {
        input: 'hi',
        messageId: newMessageId(),
        sessionSettings: alice,
        ...extra,
      });
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringContaining(Object.keys(extra)[0]!) });
    }
  });
});

/** Problems of a workbook the emulator answered, by the protocol's own validator (2.1 to 2.6). */
function workbookProblems(workbook: unknown): string[] {
  const result = validateWorkbook(workbook);
  return result.ok ? [] : result.problems;
}

describe('2.1, 2.4, 2.5, 2.6 resources the emulator answers', () => {
  async function allWorkbooks(deploymentId: number): Promise<unknown[]> {
    const items: unknown[] = [];
    let after: string | null = null;
    do {
      const query: string = after === null ? 'first=2' : `first=2&after=${encodeURIComponent(after)}`;
      const response = await fetch(`${emulator.url}/api/v1/deployments/${deploymentId}/workbooks?${query}`, {
        headers: { authorization: `Bearer ${ADMIN_API_KEY}` },
      });
      expect(response.status).toBe(200);
      const page = (await response.json()) as {
        items: unknown[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      items.push(...page.items);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after !== null);
    return items;
  }

  it('2.1 / 2.4 / 2.5 / 2.6: every listed workbook has the required fields and types, with its dashboard, snapshots and owner', async () => {
    const workbooks = [...(await allWorkbooks(1)), ...(await allWorkbooks(2))];
    expect(workbooks.length).toBeGreaterThan(2);
    expect(workbooks.some((workbook) => (workbook as { publishedDashboard?: unknown }).publishedDashboard)).toBe(true);
    for (const workbook of workbooks) expect(isWorkbook(workbook), JSON.stringify(workbook).slice(0, 300)).toBe(true);
    expect(workbooks.flatMap(workbookProblems)).toEqual([]);
  });

  it('4.1 / 2.1: the upsert answers a Workbook of the same shape, created and updated', async () => {
    const put = async (body: unknown) => {
      const response = await fetch(`${emulator.url}/api/v1/deployments/1/workbooks/by-slug/shape-check`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as unknown;
    };
    const created = await put({ name: 'Shape check', meta: { a: 1 } });
    const updated = await put({ meta: { b: 2 } });
    expect(workbookProblems(created)).toEqual([]);
    expect(workbookProblems(updated)).toEqual([]);
    expect(updated).toMatchObject({ slug: 'shape-check', name: 'Shape check', meta: { a: 1, b: 2 } });
  });
});

describe('2.8, 8 chat users and threads (API key)', () => {
  const user = (externalId: string) =>
    emulator.context.state.externalUsers.get(externalUserKey(ACCOUNT_NAME, externalId));

  it('2.8 sessionSettings: email, groups and securityContext are attached to the provisioned external user', async () => {
    const answer = await chat(emulator, {
      input: 'orders by status',
      messageId: newMessageId(),
      sessionSettings: {
        externalId: 'gap-pia@partner.test',
        email: 'pia@partner.test',
        groups: ['sales'],
        securityContext: { team: 'blue' },
      },
    });
    expect(answer.status).toBe(200);
    expect(user('gap-pia@partner.test')).toMatchObject({
      email: 'pia@partner.test',
      groups: new Set(['sales']),
      securityContext: { team: 'blue' },
    });
  });

  it('behaviour 1: an unknown sessionSettings.timezone is 400, nothing streamed', async () => {
    const response = await post(emulator, {
      input: 'hi',
      messageId: newMessageId(),
      sessionSettings: { externalId: 'gap-tz', timezone: 'Mars/Olympus' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('timezone') });
  });

  it('2.8 chatId omitted: each request creates a new thread', async () => {
    const body = () => ({
      input: 'orders by status',
      messageId: newMessageId(),
      sessionSettings: { externalId: 'gap-threads' },
    });
    const first = chatIdOf((await chat(emulator, body())).lines);
    const second = chatIdOf((await chat(emulator, body())).lines);
    expect(first).not.toBe(second);
  });
});

describe('8, 4.1 rule 2 DashboardAppSource.entry over HTTP', () => {
  it(`8: a meta.dashboardDraft app entry over ${MAX_APP_ENTRY_LENGTH} characters is 400; at the limit it is kept`, async () => {
    const put = (entry: string) =>
      fetch(`${emulator.url}/api/v1/deployments/1/workbooks/by-slug/entry-limit`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ meta: { dashboardDraft: { kind: 'APP', app: { entry } } } }),
      });
    const over = await put('a'.repeat(MAX_APP_ENTRY_LENGTH + 1));
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error: expect.stringContaining('app.entry') });
    const atLimit = await put('a'.repeat(MAX_APP_ENTRY_LENGTH));
    expect(atLimit.status).toBe(200);
    expect(await atLimit.json()).toMatchObject({
      dashboardDraft: { app: { entry: 'a'.repeat(MAX_APP_ENTRY_LENGTH) } },
    });
  });
});

// The spec's numbers written out, not read from the emulator's constants: a test that reads the
// constant it checks passes whatever the constant says.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('behaviour 2, 3, 8 time windows as the spec states them', () => {
  it('behaviour 2: a session is exchanged within 5 minutes (not after); the exchanged token lasts 24 hours (not more)', async () => {
    const early = await mint();
    const late = await mint();
    clock.advance(5 * MINUTE - 30_000);
    const response = await fetch(`${emulator.url}${dashboardPath(early)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const token = (
      JSON.parse(
        new RegExp(`<script type="application/json" id="${CONFIG_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)![1]!,
      ) as EmbedPageConfig
    ).token;
    clock.advance(MINUTE);
    expect((await fetch(`${emulator.url}${dashboardPath(late)}`)).status).toBe(401);

    const query = { query: { measures: ['orders.count'] } };
    expect((await postData(emulator, '/v1/load', query, { token })).status).toBe(200);
    clock.advance(DAY - 2 * MINUTE);
    expect((await postData(emulator, '/v1/load', query, { token })).status).toBe(200);
    clock.advance(2 * MINUTE);
    expect((await postData(emulator, '/v1/load', query, { token })).status).toBe(403);
  });

  it('3, 8: an external chat user without ephemeralTtlSeconds is removed one week after creation, not before', async () => {
    const ask = (externalId: string) =>
      chat(emulator, { input: 'orders by status', messageId: newMessageId(), sessionSettings: { externalId } });
    const user = (externalId: string) =>
      emulator.context.state.externalUsers.get(externalUserKey(ACCOUNT_NAME, externalId));
    expect((await ask('gap-week')).status).toBe(200);
    expect(user('gap-week')).toBeDefined();
    clock.advance(7 * DAY - MINUTE);
    expect((await ask('gap-week-other')).status).toBe(200);
    expect(user('gap-week')).toBeDefined();
    clock.advance(2 * MINUTE);
    expect((await ask('gap-week-third')).status).toBe(200);
    expect(user('gap-week')).toBeUndefined();
  });
});
