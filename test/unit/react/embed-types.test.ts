/**
 * The public types of the embeds: typed callbacks receive the whole typed event, the handle's
 * methods take what the matching props take, and each component takes its own surface's props.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnyEmbedEvent,
  EmbedErrorInfo,
  EmbedFilters,
  EmbedHandle,
  EmbeddedAppProps,
  EmbeddedChatProps,
  EmbeddedDashboardProps,
  ServiceError,
} from '../../../src';

describe('embed types', () => {
  it('callbacks receive typed events', () => {
    expectTypeOf<NonNullable<EmbeddedDashboardProps['onReady']>>()
      .parameter(0)
      .toHaveProperty('payload')
      .toHaveProperty('embedTenant')
      .toEqualTypeOf<string | null>();
    expectTypeOf<NonNullable<EmbeddedDashboardProps['onDownload']>>()
      .parameter(0)
      .toHaveProperty('payload')
      .toHaveProperty('format')
      .toEqualTypeOf<'csv' | 'xlsx' | 'png' | 'pdf'>();
    expectTypeOf<NonNullable<EmbeddedDashboardProps['onEvent']>>().parameter(0).toEqualTypeOf<AnyEmbedEvent>();
    expectTypeOf<NonNullable<EmbeddedDashboardProps['onError']>>().parameter(0).toEqualTypeOf<EmbedErrorInfo>();
    expectTypeOf<ServiceError>().toExtend<EmbedErrorInfo>();
  });

  it('the handle takes what the props take', () => {
    expectTypeOf<EmbedHandle['setFilter']>().parameter(0).toEqualTypeOf<EmbedFilters>();
    expectTypeOf<EmbedHandle['setColorScheme']>()
      .parameter(0)
      .toEqualTypeOf<NonNullable<EmbeddedDashboardProps['colorScheme']>>();
    expectTypeOf<EmbedHandle['setFilter']>()
      .parameter(0)
      .toEqualTypeOf<NonNullable<EmbeddedDashboardProps['filters']>>();
  });

  it('each surface has its own identifying prop', () => {
    expectTypeOf<EmbeddedDashboardProps['publicId']>().toEqualTypeOf<string>();
    expectTypeOf<EmbeddedAppProps['deploymentId']>().toEqualTypeOf<number>();
    expectTypeOf<'timeGrains' extends keyof EmbeddedChatProps ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'publicId' extends keyof EmbeddedChatProps ? true : false>().toEqualTypeOf<false>();
  });
});
