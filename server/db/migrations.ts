import type { Db } from './database'

interface Migration {
  readonly id: number
  readonly name: string
  readonly sql: string
}

/**
 * Append-only: a migration that has run is never edited; change the schema with a new one.
 * Ids must increase.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'accounts',
    sql: `
      CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        phone TEXT NOT NULL UNIQUE,
        nickname TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        pay_password_hash TEXT,
        invite_code TEXT NOT NULL UNIQUE,
        inviter_id INTEGER REFERENCES players(id),
        vip_level INTEGER NOT NULL DEFAULT 0,
        balance_micro INTEGER NOT NULL DEFAULT 0 CHECK (balance_micro >= 0),
        trx_balance_micro INTEGER NOT NULL DEFAULT 0 CHECK (trx_balance_micro >= 0),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX players_inviter ON players(inviter_id);

      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        currency TEXT NOT NULL CHECK (currency IN ('USDT', 'TRX')),
        type TEXT NOT NULL,
        amount_micro INTEGER NOT NULL,
        balance_after_micro INTEGER NOT NULL CHECK (balance_after_micro >= 0),
        ref TEXT,
        memo TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL
      );
      CREATE INDEX ledger_player_time ON ledger(player_id, created_at DESC, id DESC);

      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        ended_at INTEGER
      );
      CREATE INDEX sessions_player ON sessions(player_id);

      CREATE TABLE sms_codes (
        phone TEXT NOT NULL,
        purpose TEXT NOT NULL,
        code TEXT NOT NULL,
        sent_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        used_at INTEGER,
        PRIMARY KEY (phone, purpose)
      );

      CREATE TABLE announcements (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        pinned INTEGER NOT NULL DEFAULT 0,
        published_at INTEGER NOT NULL
      );
    `,
  },
  {
    id: 2,
    name: 'bets',
    // Shared by the games (which write bets) and the agent programme (which reads settled turnover).
    sql: `
      CREATE TABLE bets (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        game TEXT NOT NULL,
        round_id TEXT NOT NULL,
        bet_type TEXT NOT NULL,
        stake_micro INTEGER NOT NULL CHECK (stake_micro > 0),
        odds TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'won', 'lost', 'draw')),
        payout_micro INTEGER NOT NULL DEFAULT 0 CHECK (payout_micro >= 0),
        source TEXT NOT NULL DEFAULT 'app' CHECK (source IN ('app', 'transfer')),
        placed_at INTEGER NOT NULL,
        settled_at INTEGER
      );
      CREATE INDEX bets_round ON bets(game, round_id, status);
      CREATE INDEX bets_player_time ON bets(player_id, placed_at DESC, id DESC);
      CREATE INDEX bets_settled ON bets(settled_at) WHERE settled_at IS NOT NULL;
    `,
  },
  {
    id: 300,
    name: 'rebate claims',
    // One claim per player per local day: the UNIQUE constraint is what stops a second payout,
    // even from two processes at once. Each claim lists the turnover days it paid for.
    sql: `
      CREATE TABLE rebate_claims (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        claim_day TEXT NOT NULL,
        rebate_micro INTEGER NOT NULL CHECK (rebate_micro >= 0),
        commission_micro INTEGER NOT NULL CHECK (commission_micro >= 0),
        created_at INTEGER NOT NULL,
        UNIQUE (player_id, claim_day),
        CHECK (rebate_micro + commission_micro > 0)
      );
      CREATE TABLE rebate_claim_days (
        claim_id INTEGER NOT NULL REFERENCES rebate_claims(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        day TEXT NOT NULL,
        turnover_micro INTEGER NOT NULL,
        rate_bp INTEGER NOT NULL,
        rebate_micro INTEGER NOT NULL CHECK (rebate_micro >= 0),
        team_turnover_micro INTEGER NOT NULL,
        commission_micro INTEGER NOT NULL CHECK (commission_micro >= 0),
        PRIMARY KEY (claim_id, day)
      );
      CREATE INDEX rebate_claim_days_player_day ON rebate_claim_days(player_id, day);
      CREATE INDEX bets_player_settled ON bets(player_id, settled_at) WHERE settled_at IS NOT NULL;
    `,
  },
  {
    id: 200,
    name: 'games',
    // The committed chain (its secret seed, terminal hash and every 1000th link, so keys are found
    // without walking a million hashes), one row per drawn round, a per-game cursor written in the
    // same transaction as a round's settlement (so each round is settled exactly once, even across
    // a restart), bet addresses and simulated transfer bets.
    sql: `
      CREATE TABLE game_chain (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seed TEXT NOT NULL,
        length INTEGER NOT NULL,
        checkpoint_every INTEGER NOT NULL,
        terminal TEXT NOT NULL,
        start_height INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE game_chain_checkpoints (idx INTEGER PRIMARY KEY, link TEXT NOT NULL);
      CREATE TABLE game_draws (
        game TEXT NOT NULL,
        round_id TEXT NOT NULL,
        height INTEGER NOT NULL,
        block_hash TEXT NOT NULL,
        numbers TEXT NOT NULL,
        labels TEXT NOT NULL,
        draw_at INTEGER NOT NULL,
        bet_count INTEGER NOT NULL DEFAULT 0,
        stake_micro INTEGER NOT NULL DEFAULT 0,
        payout_micro INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, round_id)
      );
      CREATE INDEX game_draws_time ON game_draws(game, draw_at DESC);
      CREATE TABLE game_cursors (game TEXT PRIMARY KEY, drawn_until INTEGER NOT NULL);
      ALTER TABLE bets ADD COLUMN height INTEGER;
      ALTER TABLE bets ADD COLUMN draw_at INTEGER;
      CREATE INDEX bets_pending_due ON bets(game, draw_at) WHERE status = 'pending';
      CREATE TABLE bet_addresses (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        address TEXT NOT NULL UNIQUE,
        label TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX bet_addresses_player ON bet_addresses(player_id);
      CREATE TABLE game_transfers (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        from_address TEXT NOT NULL,
        to_address TEXT NOT NULL,
        kind TEXT NOT NULL,
        amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
        height INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('bet', 'refunded')),
        reason TEXT,
        bet_id INTEGER REFERENCES bets(id),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX game_transfers_player ON game_transfers(player_id, id DESC);
    `,
  },
  {
    id: 201,
    name: 'games: pending rounds',
    // Which rounds still have pending bets, in a small table of its own: an index over pending bets
    // made every settled bet pay for leaving it. For the same reason the games' index on bets no
    // longer holds the status (a round's bets are found by game and round alone).
    sql: `
      DROP INDEX bets_pending_due;
      DROP INDEX bets_round;
      CREATE INDEX bets_round ON bets(game, round_id);
      CREATE TABLE game_pending_rounds (
        game TEXT NOT NULL,
        round_id TEXT NOT NULL,
        draw_at INTEGER NOT NULL,
        PRIMARY KEY (game, round_id)
      ) WITHOUT ROWID;
      CREATE INDEX game_pending_rounds_due ON game_pending_rounds(game, draw_at);
      INSERT OR IGNORE INTO game_pending_rounds (game, round_id, draw_at)
        SELECT game, round_id, MIN(draw_at) FROM bets
        WHERE status = 'pending' AND draw_at IS NOT NULL GROUP BY game, round_id;
    `,
  },
  {
    id: 301,
    name: 'bets: turnover by draw time',
    // A bet is settled at its round's draw, so a settled bet's settled_at is its draw_at, known
    // from the moment it is placed. Turnover is read by draw_at through an index written once, at
    // placement; settling a round then rewrites its bet rows and touches no index, except that a
    // win enters the winners' index (read for the prize pool's latest winners).
    sql: `
      UPDATE bets SET draw_at = settled_at WHERE draw_at IS NULL AND settled_at IS NOT NULL;
      DROP INDEX bets_player_settled;
      DROP INDEX bets_settled;
      CREATE INDEX bets_player_draw ON bets(player_id, draw_at);
      CREATE INDEX bets_wins ON bets(settled_at) WHERE status = 'won';
    `,
  },
  // Id ranges, so domains can add migrations side by side: wallet 100–199, games 200–299,
  // agent and content 300–399, tester's API 400–499.
  {
    id: 100,
    name: 'wallet',
    sql: `
      CREATE TABLE deposit_addresses (
        player_id INTEGER PRIMARY KEY REFERENCES players(id),
        address TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE deposits (
        id INTEGER PRIMARY KEY,
        order_no TEXT NOT NULL UNIQUE,
        player_id INTEGER NOT NULL REFERENCES players(id),
        address TEXT NOT NULL,
        amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
        status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed')),
        confirmations_required INTEGER NOT NULL,
        due_at INTEGER NOT NULL,
        tx_hash TEXT,
        created_at INTEGER NOT NULL,
        confirmed_at INTEGER
      );
      CREATE INDEX deposits_player_time ON deposits(player_id, created_at DESC, id DESC);
      CREATE INDEX deposits_due ON deposits(due_at) WHERE status = 'pending';

      CREATE TABLE withdrawal_addresses (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        address TEXT NOT NULL,
        label TEXT NOT NULL,
        is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
        created_at INTEGER NOT NULL,
        UNIQUE (player_id, address)
      );
      CREATE UNIQUE INDEX withdrawal_addresses_default ON withdrawal_addresses(player_id) WHERE is_default = 1;

      CREATE TABLE withdrawals (
        id INTEGER PRIMARY KEY,
        order_no TEXT NOT NULL UNIQUE,
        player_id INTEGER NOT NULL REFERENCES players(id),
        address TEXT NOT NULL,
        label TEXT NOT NULL,
        amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
        fee_micro INTEGER NOT NULL CHECK (fee_micro >= 0),
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        review_due_at INTEGER,
        reason TEXT,
        tx_hash TEXT,
        created_at INTEGER NOT NULL,
        reviewed_at INTEGER
      );
      CREATE INDEX withdrawals_player_time ON withdrawals(player_id, created_at DESC, id DESC);
      CREATE INDEX withdrawals_due ON withdrawals(review_due_at) WHERE status = 'pending';

      -- Wrong payment passwords in a row, and the lock they lead to; kept here so a restart keeps it.
      CREATE TABLE pay_password_guard (
        player_id INTEGER PRIMARY KEY REFERENCES players(id),
        failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
        locked_until INTEGER
      );

      CREATE INDEX ledger_player_type_time ON ledger(player_id, type, created_at DESC, id DESC);
      CREATE INDEX ledger_ref ON ledger(ref) WHERE ref IS NOT NULL;
    `,
  },
  {
    id: 101,
    name: 'idempotency keys',
    // Scoped per player (0 for calls without a session); the answer is kept to replay it.
    sql: `
      CREATE TABLE idempotency_keys (
        player_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
        status_code INTEGER,
        response TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (player_id, key)
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    `,
  },
  {
    id: 102,
    name: 'idempotency keys in insertion order',
    // Clients' keys are random (UUIDs): in a table ordered by key, each new row, stored answer and
    // all, lands on a page of its own, and every commit rewrites that many pages. Rows in insertion
    // order fill one page after another; only the small (player, key) index entries land at random.
    sql: `
      CREATE TABLE idempotency_keys_v2 (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
        status_code INTEGER,
        response TEXT,
        created_at INTEGER NOT NULL
      );
      INSERT INTO idempotency_keys_v2 (player_id, key, fingerprint, state, status_code, response, created_at)
        SELECT player_id, key, fingerprint, state, status_code, response, created_at
        FROM idempotency_keys ORDER BY created_at;
      DROP TABLE idempotency_keys;
      ALTER TABLE idempotency_keys_v2 RENAME TO idempotency_keys;
      CREATE UNIQUE INDEX idempotency_keys_player_key ON idempotency_keys(player_id, key);
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    `,
  },
  {
    id: 103,
    name: 'idempotency keys swept in insertion order',
    // Rows are in insertion order, so the expired ones come first and the sweep finds them from
    // the start of the table: the index on created_at only cost every stored key a page write.
    sql: `DROP INDEX idempotency_keys_created;`,
  },
  {
    id: 400,
    name: 'time indexes in ascending order',
    // SQLite walks an index backwards as cheaply as forwards, so "newest first" needs no descending
    // index. In one, every new row sorts to the front of its player's range instead of its end, and
    // the page splits there rewrite the neighbouring pages too: a ledger posting cost its two time
    // indexes about three page writes per commit each, instead of under two.
    sql: `
      DROP INDEX ledger_player_time;
      CREATE INDEX ledger_player_time ON ledger(player_id, created_at, id);
      DROP INDEX ledger_player_type_time;
      CREATE INDEX ledger_player_type_time ON ledger(player_id, type, created_at, id);
      DROP INDEX bets_player_time;
      CREATE INDEX bets_player_time ON bets(player_id, placed_at, id);
      DROP INDEX deposits_player_time;
      CREATE INDEX deposits_player_time ON deposits(player_id, created_at, id);
      DROP INDEX withdrawals_player_time;
      CREATE INDEX withdrawals_player_time ON withdrawals(player_id, created_at, id);
      DROP INDEX game_draws_time;
      CREATE INDEX game_draws_time ON game_draws(game, draw_at);
      DROP INDEX game_transfers_player;
      CREATE INDEX game_transfers_player ON game_transfers(player_id, id);
    `,
  },
  {
    id: 401,
    name: 'ledger: no index on ref',
    // No query looks ledger rows up by their reference, and every posting paid for the index: the
    // rows of one bet share its reference, so a raised stake inserted into the middle of it.
    sql: `DROP INDEX ledger_ref;`,
  },
  {
    id: 2000,
    name: 'player protection',
    // Limits keep the one in force and a raise or removal waiting out its cooling-off; exclusions
    // only ever end later; reality-check reminders are acknowledged per session.
    sql: `
      CREATE TABLE protection_limits (
        player_id INTEGER NOT NULL REFERENCES players(id),
        kind TEXT NOT NULL CHECK (kind IN ('deposit', 'loss')),
        period TEXT NOT NULL CHECK (period IN ('day', 'week', 'month')),
        limit_micro INTEGER CHECK (limit_micro >= 0),
        pending_micro INTEGER CHECK (pending_micro >= 0),
        pending_at INTEGER,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (player_id, kind, period)
      ) WITHOUT ROWID;
      CREATE TABLE protection_exclusions (
        player_id INTEGER PRIMARY KEY REFERENCES players(id),
        kind TEXT NOT NULL CHECK (kind IN ('timeout', 'self_exclusion')),
        period TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        ends_at INTEGER NOT NULL
      );
      CREATE TABLE protection_reality_checks (
        player_id INTEGER PRIMARY KEY REFERENCES players(id),
        interval_minutes INTEGER NOT NULL CHECK (interval_minutes IN (0, 15, 30, 60))
      );
      CREATE TABLE protection_reality_acks (
        token_hash TEXT PRIMARY KEY,
        acknowledged_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    id: 1700,
    name: 'one guard for every password check',
    // The payment password and the login password checked behind a session share one counted lock,
    // kept per player and per secret.
    sql: `
      CREATE TABLE password_guard (
        player_id INTEGER NOT NULL REFERENCES players(id),
        kind TEXT NOT NULL CHECK (kind IN ('pay', 'login')),
        failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
        locked_until INTEGER,
        PRIMARY KEY (player_id, kind)
      ) WITHOUT ROWID;
      INSERT INTO password_guard (player_id, kind, failures, locked_until)
        SELECT player_id, 'pay', failures, locked_until FROM pay_password_guard;
      DROP TABLE pay_password_guard;
    `,
  },
  {
    id: 1800,
    name: 'world clock kept; idempotency keys name their endpoint',
    // The world clock's mode and shift survive a restart (one row); a key "in progress" at start-up
    // is resolved by what its endpoint wrote (see server/http/idempotency.ts).
    sql: `
      CREATE TABLE emu_world_clock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        mode TEXT NOT NULL CHECK (mode IN ('real', 'frozen', 'offset')),
        offset_ms INTEGER NOT NULL,
        frozen_at INTEGER NOT NULL,
        seen_at INTEGER NOT NULL
      );
      ALTER TABLE idempotency_keys ADD COLUMN endpoint TEXT;
    `,
  },
  {
    id: 1910,
    name: 'transfer bets are not top-ups',
    // A transfer bet's incoming money was written as a top-up; it has its own fund-flow type.
    sql: `
      UPDATE ledger SET type = 'transfer_bet' WHERE type = 'topup' AND ref LIKE 'transfer:%';
    `,
  },
]

export function migrate(db: Db): number {
  db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  )
  const applied = new Set(
    db
      .prepare('SELECT id FROM schema_migrations')
      .pluck()
      .all()
      .map((v) => Number(v)),
  )
  let count = 0
  for (const m of [...MIGRATIONS].sort((a, b) => a.id - b.id)) {
    if (applied.has(m.id)) continue
    db.transaction(() => {
      db.exec(m.sql)
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(
        m.id,
        m.name,
        Date.now(),
      )
    }).immediate()
    count++
  }
  return count
}

/** Tables that hold data (everything but the migration log). */
function dataTables(db: Db): string[] {
  const rows = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'`,
    )
    .pluck()
    .all()
  return rows.map(String)
}

/**
 * Empties every data table and runs `write` (the seed's writes), all in one BEGIN IMMEDIATE
 * transaction, so a reset is all or nothing. Foreign keys are checked at the commit, so the
 * tables may be emptied in any order.
 */
export function replaceAllData(db: Db, write: () => void): void {
  db.transaction(() => {
    db.pragma('defer_foreign_keys = ON')
    for (const table of dataTables(db)) db.prepare(`DELETE FROM "${table}"`).run()
    write()
  }).immediate()
}
