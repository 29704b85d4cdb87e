-- Cannonade target schema and seed data.
-- One file for every way a target's database is made: the postgres image's first start
-- (targets/_postgres/entrypoint.sh) and native stacks (engine/stacks/native.ts) both run
-- it with `psql -v ON_ERROR_STOP=1 -f seed.sql`. It is idempotent: tables are created when missing
-- and the 10 000 ads are inserted only into an empty table, so running it twice changes nothing.
-- Seeded values are deterministic (no random(), no now()) so every stack serves the same bytes.

SET client_min_messages = warning;

CREATE TABLE IF NOT EXISTS ads (
  id         serial PRIMARY KEY,
  title      text          NOT NULL,
  body       text          NOT NULL,
  price      numeric(12,2) NOT NULL CHECK (price >= 0),
  created_at timestamptz   NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS users (
  id            serial PRIMARY KEY,
  username      text        NOT NULL UNIQUE,
  password_hash text        NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS sessions (
  token      text PRIMARY KEY,
  user_id    integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO ads (title, body, price, created_at)
SELECT
  'Ad #' || i || ': ' || (ARRAY['bicycle', 'sofa', 'laptop', 'guitar', 'camera', 'desk', 'lamp', 'kettle'])[1 + i % 8],
  'Item ' || i || ' in good condition. ' || repeat('Pick-up only, cash or transfer. ', 1 + i % 4),
  ((i * 7919) % 100000) / 100.0,
  timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute'
FROM generate_series(1, 10000) AS s(i)
WHERE NOT EXISTS (SELECT 1 FROM ads);

ANALYZE ads;
