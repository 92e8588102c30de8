// PostgreSQL for the server suites (TEST_DATABASE_URL): the run migrates one template database once, and each
// test file gets a database of its own copied from it (`create database … template …`: a file copy inside the
// server, a fraction of what running every migration costs). The names derive from TEST_DATABASE_URL's database,
// so runs on different databases of one server do not meet.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';

/** TEST_DATABASE_URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The database TEST_DATABASE_URL names (the prefix of every database a run creates). */
export function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/** Runs `work` on one connection to `url`, closed afterwards. */
export async function onServer<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates and migrates the run's template database; returns its name. */
export async function createTemplate(url: string): Promise<string> {
  const name = `${databaseOf(url)}_tpl_${process.pid}`;
  await onServer(url, async (client) => {
    await client.query(`drop database if exists ${quoted(name)} with (force)`);
    await client.query(`create database ${quoted(name)}`);
  });
  const templateUrl = withDatabase(url, name);
  await onServer(templateUrl, (client) => client.query('create extension if not exists pg_trgm with schema public'));
  const handle = await openDatabase({ url: templateUrl, poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  return name;
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await onServer(url, (client) => client.query(`drop database if exists ${quoted(name)} with (force)`));
}

/**
 * A new database copied from `template`; returns its URL. PostgreSQL refuses a copy while another session is
 * connected to the template (the run's own set-up closing its pool, say): that is retried for a while.
 */
export async function copyTemplate(url: string, template: string): Promise<{ name: string; url: string }> {
  const name = `${databaseOf(url)}_${randomBytes(6).toString('hex')}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await onServer(url, (client) => client.query(`create database ${quoted(name)} template ${quoted(template)}`));
      return { name, url: withDatabase(url, name) };
    } catch (error) {
      if (!/being accessed by other users/.test(String(error)) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
