import { afterAll, describe, it } from 'vitest';
import { runStoreContract } from './contract.js';
import { dropDatabase, serverGaps } from './mongo-gaps.js';
import { MongoStore } from './mongo.js';

const uri = process.env.MONGODB_URI;

if (uri) {
  // One database per run, so concurrent or repeated runs never see each other's data.
  const dbName = `store_contract_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  // Known gaps of the CI wire server skip (visibly) the assertions they would fail.
  const options = { gaps: await serverGaps(uri) };
  afterAll(() => dropDatabase(uri, dbName));
  runStoreContract(`MongoDB (${uri.replace(/\/\/[^@/]*@/, '//***@')})`, () => MongoStore.connect({ uri, dbName }), options);
} else {
  const why = 'MONGODB_URI is not set: the MongoDB part of the store contract was SKIPPED, not passed. ' +
    'Start the wire server with scripts/mongo-wire/start.sh and export MONGODB_URI to run it.';
  console.warn(`\n[store] ${why}\n`);
  describe('store contract: MongoDB', () => {
    it.skip(why, () => {});
  });
}
