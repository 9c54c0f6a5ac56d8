/**
 * "Ask about this": a drilldown and the dashboard's filters as a question for the chat.
 */
import { describe, expect, it } from 'vitest';
import { describeFilters, drilldownQuestion } from '../../../src/core/embed-questions';
import { createEmbedEvent } from '../../../src/core/protocol/embed';

const drilldown = (payload: { member: string; value?: unknown; widgetId?: string }) =>
  createEmbedEvent({ surface: 'dashboard', type: 'service:event:drilldown', payload });

describe('describeFilters', () => {
  it('puts each filter in words, in either form of EmbedFilters, skipping empty entries', () => {
    expect(
      describeFilters({
        'orders.status': 'completed',
        'orders.region': ['EU', 'US'],
        'orders.amount': { operator: 'gt', value: 100 },
        'orders.created_at': { operator: 'inDateRange', value: ['2025-01-01', '2025-03-31'] },
        'orders.coupon': { operator: 'set' },
        'orders.city': undefined,
        'orders.channel': null,
      }),
    ).toEqual([
      'orders.status is completed',
      'orders.region is one of EU, US',
      'orders.amount gt 100',
      'orders.created_at inDateRange 2025-01-01, 2025-03-31',
      'orders.coupon set',
    ]);
    expect(describeFilters([{ member: 'orders.status', value: 'completed', operator: 'equals' }])).toEqual([
      'orders.status is completed',
    ]);
    expect(describeFilters(undefined)).toEqual([]);
  });
});

describe('drilldownQuestion', () => {
  it('asks about the measure and the value drilled into, with the filters in force', () => {
    expect(
      drilldownQuestion(drilldown({ member: 'orders.count', value: 'completed', widgetId: '37' }), {
        filters: { 'orders.region': 'EU', 'orders.channel': ['web', 'store'] },
      }),
    ).toBe(
      'Tell me more about orders.count for completed, with these filters: orders.region is EU; orders.channel is one of web, store.',
    );
    expect(drilldownQuestion(drilldown({ member: 'orders.count' }))).toBe('Tell me more about orders.count.');
    expect(drilldownQuestion(drilldown({ member: 'orders.count', value: { month: '2025-01' } }))).toBe(
      'Tell me more about orders.count for {"month":"2025-01"}.',
    );
  });

  it('takes other words through format', () => {
    const question = drilldownQuestion(drilldown({ member: 'orders.count', value: 7, widgetId: 'w' }), {
      filters: { 'orders.region': 'EU' },
      format: ({ member, value, widgetId, filters }) =>
        `Erzähl mir mehr über ${member} = ${String(value)} (${widgetId}) bei ${filters.join(', ')}`,
    });
    expect(question).toBe('Erzähl mir mehr über orders.count = 7 (w) bei orders.region is EU');
  });
});
