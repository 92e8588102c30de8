// The User shape of the contract from a users row (also the base of GroupMember).
import type { components } from '../../../generated/core-api';
import { userImageUrls } from './image-urls';

export type User = components['schemas']['User'];

export interface UserRow {
  id: number;
  name: string;
  title: string | null;
  email: string;
  phone_primary: string | null;
  phone_secondary: string | null;
  image_url: string | null;
  last_access_at: Date | null;
  unavailable_until: Date | null;
  created_at: Date;
}

export const userColumns = [
  'id',
  'name',
  'title',
  'email',
  'phone_primary',
  'phone_secondary',
  'image_url',
  'last_access_at',
  'unavailable_until',
  'created_at',
] as const;

export function toUser(row: UserRow, publicBaseUrl: string): User {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    imageUrls: userImageUrls(row.image_url, publicBaseUrl),
    email: row.email,
    phoneNumbers: { primary: row.phone_primary, secondary: row.phone_secondary },
    // A user who has never signed in has no last access; the account's creation is the last known activity.
    lastAccessAt: (row.last_access_at ?? row.created_at).toISOString(),
    unavailableUntil: row.unavailable_until ? row.unavailable_until.toISOString() : null,
  };
}
