// Stored images are URL templates with `{size}` (small, medium, large), e.g.
// `https://cdn.example.com/users/42/{size}.jpg`; a URL without the placeholder serves every size.
import type { components } from '../../../generated/core-api';

export type ImageUrls = components['schemas']['ImageUrls'];

const sizes = ['small', 'medium', 'large'] as const;

export function imageUrlsOf(template: string): ImageUrls {
  const [small, medium, large] = sizes.map((size) => template.replaceAll('{size}', size));
  return { small, medium, large };
}

/** User.imageUrls is required: users without a picture get the region's neutral default avatar. */
export function userImageUrls(template: string | null, publicBaseUrl: string): ImageUrls {
  return imageUrlsOf(template ?? `${publicBaseUrl}/assets/avatars/default-{size}.png`);
}
