// @vitest-environment node
/**
 * The server entry: its validator is the protocol's (one home, shared with the emulator), the
 * codes it gives the texts of §7, and its promise to run where there is no Node.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as protocol from '../../../src/core/protocol/session';
import * as server from '../../../src/server';

describe('@service/react/server entry', () => {
  it("2.7, 4.2: validateSessionRequest is the protocol layer's own function, not a copy", () => {
    expect(server.validateSessionRequest).toBe(protocol.validateSessionRequest);
    expect(server.validateSessionRequest({ deploymentId: 1, externalId: ' Ann ' })).toEqual({
      ok: true,
      value: { deploymentId: 1, externalId: 'ann' },
    });
  });

  it('7: sessionErrorCode names the generate-session texts, as the service words them and with more around them', () => {
    expect(server.sessionErrorCode(protocol.USER_ATTRIBUTES_NOT_FOUND)).toBe('user_attributes_not_found');
    expect(server.sessionErrorCode(`${protocol.USER_ATTRIBUTES_NOT_FOUND}: shoe_size`)).toBe(
      'user_attributes_not_found',
    );
    expect(server.sessionErrorCode(protocol.groupsNotFoundMessage(['a', 'b']))).toBe('groups_not_found');
    expect(server.sessionErrorCode('Groups with names astronauts not found')).toBe('groups_not_found');
    expect(server.sessionErrorCode(protocol.attributeTypeChangeMessage('region', 'string', 'number'))).toBe(
      'cannot_change_type',
    );
    expect(server.sessionErrorCode('Groups not found')).toBeUndefined();
    expect(server.sessionErrorCode('Invalid API key')).toBeUndefined();
  });

  it('imports no Node module, so it loads in edge runtimes and workers', () => {
    const folder = fileURLToPath(new URL('../../../src/server/', import.meta.url));
    const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
    expect(files).toContain('index.ts');
    for (const name of files) {
      // Code only: the TSDoc examples may well show `process.env.SERVICE_URL`.
      const source = readFileSync(`${folder}${name}`, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      expect([name, source.match(/from ['"](node:[^'"]+|fs|http|https|net|stream|buffer|crypto)['"]/)?.[1]]).toEqual([
        name,
        undefined,
      ]);
      expect([name, /\bBuffer\b|\bprocess\.env\b|require\(/.test(source)]).toEqual([name, false]);
    }
  });
});
