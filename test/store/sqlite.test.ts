import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { storeContract } from './contract';

storeContract(t, async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'store-')), 'r.db')));
