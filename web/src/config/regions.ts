import type { components } from '../../../generated/core-api';

export type RegionCode = components['schemas']['Region'];

export const REGION_CODES: readonly RegionCode[] = ['eu-north-1', 'se-sto', 'sa-east-1'];

/** Translation key of each region's label in the region step. */
export const REGION_LABEL_KEYS = {
  'eu-north-1': 'region.europe',
  'se-sto': 'region.sweden',
  'sa-east-1': 'region.brazil',
} as const satisfies Record<RegionCode, string>;

/** Brazil is not probed for the academy (spec section 9). */
export function isProbedFor(region: RegionCode, clientType: string | null): boolean {
  return !(region === 'sa-east-1' && clientType?.toLowerCase() === 'academy');
}

export function isRegionCode(value: unknown): value is RegionCode {
  return typeof value === 'string' && (REGION_CODES as readonly string[]).includes(value);
}
