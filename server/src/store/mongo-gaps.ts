/**
 * Known gaps of mongo-java-server, the MongoDB wire server CI runs (scripts/mongo-wire). Tests
 * skip exactly the assertions these would fail, saying why; against a real MongoDB nothing is
 * skipped. Detection: buildInfo from every real mongod carries gitVersion, the stub's does not.
 */
import { MongoClient } from 'mongodb';

export type ServerGap = 'regex-matches-only-strings' | 'not-over-arrays' | 'exists-through-empty-arrays';

export const WIRE_SERVER_GAPS: Record<ServerGap, string> = {
  'regex-matches-only-strings':
    'mongo-java-server applies $regex to numbers and to empty arrays turned into strings; MongoDB matches strings (and string elements) only',
  'not-over-arrays': 'mongo-java-server applies $not to each array element; MongoDB negates the whole condition (no element may match)',
  'exists-through-empty-arrays': 'mongo-java-server finds no match for {"a.b": {$exists: false}} when a is an empty array; MongoDB does',
};

export async function serverGaps(uri: string): Promise<Partial<Record<ServerGap, string>>> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return info.gitVersion ? {} : WIRE_SERVER_GAPS;
  } finally {
    await client.close();
  }
}

/** Drops a test database: the wire server keeps every database in its heap until it stops. */
export async function dropDatabase(uri: string, dbName: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}
