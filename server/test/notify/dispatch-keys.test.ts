// A dispatch's idempotency key is never used again for another dispatch, even when ids come round again (a
// database restored from a backup numbers dispatches from an old id): providers drop a repeated key for a day.
// The same holds for the confirmation link derived from the dispatch.
import { dispatchIdempotencyKey } from '../../src/notify/deliveries';
import { confirmationToken } from '../../src/modules/external-communication/confirmation-links';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('dispatch idempotency keys', () => {
  test('a dispatch that reuses an old id gets another key; the key of one dispatch never changes', async () => {
    const tenant = await insertTenant(ctx.services);
    const row = {
      tenant_id: tenant,
      source: 'cec' as const,
      message_id: 1,
      recipient_id: 1,
      channel: 'sms' as const,
      sent_to: '+46700000001',
      next_attempt_at: new Date(),
    };
    const first = await ctx.services.db
      .insertInto('dispatches')
      .values(row)
      .returning(['id', 'key_nonce'])
      .executeTakeFirstOrThrow();
    const again = await ctx.services.db
      .selectFrom('dispatches')
      .select(['id', 'key_nonce'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(dispatchIdempotencyKey('eu-north-1', again)).toBe(dispatchIdempotencyKey('eu-north-1', first));
    expect(dispatchIdempotencyKey('eu-north-1', first)).toMatch(
      new RegExp(`^eu-north-1\\.dispatch-${first.id}\\.[0-9a-f]{12}$`),
    );

    // The id comes round again (as after restoring a backup taken before this dispatch was made).
    await ctx.services.db.deleteFrom('dispatches').where('id', '=', first.id).execute();
    const reused = await ctx.services.db
      .insertInto('dispatches')
      .values({ ...row, id: first.id } as typeof row)
      .returning(['id', 'key_nonce'])
      .executeTakeFirstOrThrow();
    expect(reused.id).toBe(first.id);
    expect(dispatchIdempotencyKey('eu-north-1', reused)).not.toBe(dispatchIdempotencyKey('eu-north-1', first));
    // Nor does an old confirmation link confirm the new dispatch.
    expect(confirmationToken(ctx.services.secretKey, reused)).not.toBe(
      confirmationToken(ctx.services.secretKey, first),
    );
    expect(confirmationToken(ctx.services.secretKey, again)).toBe(confirmationToken(ctx.services.secretKey, first));
  });
});
