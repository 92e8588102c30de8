import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..', '..');
export const WEB = join(ROOT, 'web');
export const TEST_OUTPUT = join(ROOT, 'test-output');
