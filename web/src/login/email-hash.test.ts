import { createHash } from 'node:crypto';
import { hashEmail } from './email-hash';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

test('when given an email, answers the SHA-256 hex of it in 64 lowercase digits', async () => {
  const hash = await hashEmail('anna@demo.test');
  expect(hash).toBe(sha256('anna@demo.test'));
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
});

test('when the email has capitals and surrounding spaces, hashes the trimmed lowercased email', async () => {
  expect(await hashEmail('  Anna.Berg@Demo.TEST ')).toBe(sha256('anna.berg@demo.test'));
});

test('when the email has non-ASCII letters, hashes their UTF-8 lowercase form', async () => {
  expect(await hashEmail('ÅSA@Exempel.SE')).toBe(sha256('åsa@exempel.se'));
});
