/**
 * The deterministic e-commerce data set, built in DuckDB with SQL at every start: 5,000 customers,
 * 200 products and 120,000 orders placed from 2024-01-01 to 2025-12-31 (UTC), growing over time.
 * Every value comes from a fixed integer hash of the row number ({@link DATASET_SQL}), never from a
 * random source, so every start and every release produce the same rows and the same totals.
 *
 * Tables live in the schema `raw`; queries only ever see the views of `model.ts`.
 *
 * @module
 */

/** Number of customers. */
export const CUSTOMER_COUNT = 5_000;
/** Number of products. */
export const PRODUCT_COUNT = 200;
/** Number of orders. */
export const ORDER_COUNT = 120_000;
/** First day of orders (UTC). */
export const FIRST_ORDER_DAY = '2024-01-01';
/** Last day of orders (UTC). */
export const LAST_ORDER_DAY = '2025-12-31';
/** Order statuses, the values of `orders.status`. */
export const ORDER_STATUSES = Object.freeze(['completed', 'processing', 'shipped', 'cancelled', 'returned'] as const);

/**
 * Statements that build the data set. `u(i, seed)` is a uniform number in [0, 1): an integer hash
 * (multiply, xor-shift, multiply) of the row number and a per-column seed, so columns are
 * independent and nothing depends on DuckDB's own hash function or version.
 */
export const DATASET_SQL: readonly string[] = [
  'CREATE SCHEMA raw',
  `CREATE TEMP MACRO mix32(h) AS (xor(h, h >> 16) * 73244475) % 4294967296`,
  `CREATE TEMP MACRO u(i, seed) AS mix32(mix32((i::BIGINT * 2654435761 + seed::BIGINT * 1597334677 + 12345) % 4294967296)) / 4294967296.0`,
  `CREATE TEMP MACRO pick(list, x) AS list[1 + floor(x * len(list))::INTEGER]`,
  `CREATE TABLE raw.customers AS
   WITH base AS (
     -- k walks a permutation of 0..5199 (7919 is prime to 5200), so every name is unique.
     SELECT i, (i * 7919) % 5200 AS k, u(i, 3) AS u3, u(i, 4) AS u4, u(i, 5) AS u5, u(i, 6) AS u6
     FROM range(1, ${CUSTOMER_COUNT + 1}) AS t(i)
   ), named AS (
     SELECT *,
       ['Ada','Ben','Cleo','Dev','Eli','Fatima','Gus','Hana','Ivan','Jade','Kofi','Lena','Mateo','Nia','Omar','Priya','Quinn','Rosa','Sven','Tara','Umar','Vera','Wei','Ximena','Yusuf','Zoe'][1 + (k % 26)::INTEGER] AS first_name,
       'ABCDEFGHJK'[1 + (k // 520)::INTEGER] AS initial,
       ['Garcia','Smith','Müller','Tanaka','Okafor','Rossi','Novak','Silva','Kim','Dubois','Nguyen','Khan','Larsen','Costa','Ivanova','Brown','Haddad','Moreau','Jensen','Patel'][1 + ((k // 26) % 20)::INTEGER] AS last_name,
       CASE WHEN u3 < 0.40 THEN 'NA' WHEN u3 < 0.70 THEN 'EMEA' WHEN u3 < 0.90 THEN 'APAC' ELSE 'LATAM' END AS region
     FROM base
   )
   SELECT
     i::INTEGER AS id,
     first_name || ' ' || initial || '. ' || last_name AS name,
     lower(first_name) || '.' || lower(replace(last_name, 'ü', 'ue')) || i || '@example.com' AS email,
     region,
     CASE region
       WHEN 'NA' THEN pick(['United States', 'United States', 'Canada', 'Mexico'], u4)
       WHEN 'EMEA' THEN pick(['Germany', 'United Kingdom', 'France', 'Spain', 'Italy', 'Netherlands', 'Sweden', 'South Africa'], u4)
       WHEN 'APAC' THEN pick(['Japan', 'Australia', 'India', 'Singapore', 'South Korea', 'Vietnam'], u4)
       ELSE pick(['Brazil', 'Argentina', 'Chile', 'Colombia', 'Peru'], u4)
     END AS country,
     CASE WHEN u5 < 0.60 THEN 'Consumer' WHEN u5 < 0.85 THEN 'Small Business' ELSE 'Enterprise' END AS segment,
     TIMESTAMP '2022-01-01 00:00:00' + to_seconds(floor(u6 * 1460 * 86400)::BIGINT) AS created_at
   FROM named
   ORDER BY id`,
  `CREATE TABLE raw.products AS
   WITH base AS (
     SELECT i, u(i, 21) AS u1, u(i, 22) AS u2, u(i, 23) AS u3,
       ['Electronics', 'Home', 'Garden', 'Sports', 'Toys', 'Books', 'Beauty', 'Grocery'][1 + (i % 8)::INTEGER] AS category
     FROM range(1, ${PRODUCT_COUNT + 1}) AS t(i)
   )
   SELECT
     i::INTEGER AS id,
     pick(['Classic', 'Smart', 'Eco', 'Pro', 'Mini', 'Ultra', 'Deluxe', 'Compact', 'Urban', 'Nordic'], u1) || ' ' ||
     CASE category
       WHEN 'Electronics' THEN pick(['Headphones', 'Speaker', 'Charger', 'Monitor', 'Keyboard'], u2)
       WHEN 'Home' THEN pick(['Lamp', 'Blanket', 'Mug', 'Vase', 'Clock'], u2)
       WHEN 'Garden' THEN pick(['Planter', 'Hose', 'Shears', 'Bench', 'Seeds'], u2)
       WHEN 'Sports' THEN pick(['Yoga Mat', 'Dumbbell', 'Bottle', 'Racket', 'Backpack'], u2)
       WHEN 'Toys' THEN pick(['Puzzle', 'Robot', 'Blocks', 'Kite', 'Plush'], u2)
       WHEN 'Books' THEN pick(['Cookbook', 'Novel', 'Atlas', 'Journal', 'Guide'], u2)
       WHEN 'Beauty' THEN pick(['Serum', 'Brush', 'Soap', 'Lotion', 'Mirror'], u2)
       ELSE pick(['Coffee', 'Tea', 'Olive Oil', 'Honey', 'Granola'], u2)
     END || ' ' || i AS name,
     category,
     round(5 + u3 * u3 * 495, 2)::DECIMAL(10, 2) AS price
   FROM base
   ORDER BY id`,
  `CREATE TABLE raw.orders AS
   WITH base AS (
     SELECT i, u(i, 31) AS u1, u(i, 32) AS u2, u(i, 33) AS u3, u(i, 34) AS u4, u(i, 35) AS u5, u(i, 36) AS u6, u(i, 37) AS u7
     FROM range(1, ${ORDER_COUNT + 1}) AS t(i)
   ), placed AS (
     SELECT *,
       1 + floor(pow(u1, 1.6) * ${CUSTOMER_COUNT})::INTEGER AS customer_id,
       1 + floor(pow(u2, 1.3) * ${PRODUCT_COUNT})::INTEGER AS product_id,
       -- pow(u, 0.7) makes the density grow over time: more orders every month, as a growing shop has.
       TIMESTAMP '${FIRST_ORDER_DAY} 00:00:00' + to_seconds(floor(pow(u3, 0.7) * 731 * 86400)::BIGINT) AS created_at,
       1 + floor(u4 * u4 * 5)::INTEGER AS quantity
     FROM base
   )
   SELECT
     o.i::BIGINT AS id,
     o.customer_id,
     o.product_id,
     (CASE c.region WHEN 'NA' THEN 0 WHEN 'EMEA' THEN 5 WHEN 'APAC' THEN 10 ELSE 15 END + 1 + floor(o.u6 * 5))::INTEGER AS store_id,
     c.region,
     CASE
       WHEN o.created_at >= TIMESTAMP '${LAST_ORDER_DAY} 00:00:00' - INTERVAL 10 DAY
         THEN CASE WHEN o.u5 < 0.45 THEN 'processing' WHEN o.u5 < 0.85 THEN 'shipped' WHEN o.u5 < 0.95 THEN 'completed' ELSE 'cancelled' END
       ELSE CASE WHEN o.u5 < 0.78 THEN 'completed' WHEN o.u5 < 0.83 THEN 'shipped' WHEN o.u5 < 0.85 THEN 'processing' WHEN o.u5 < 0.93 THEN 'cancelled' ELSE 'returned' END
     END AS status,
     o.quantity,
     round(p.price * o.quantity * (1 - pick([0, 0, 0, 0.05, 0.1, 0.2], o.u7)), 2)::DECIMAL(12, 2) AS amount,
     o.created_at
   FROM placed AS o
   JOIN raw.customers AS c ON c.id = o.customer_id
   JOIN raw.products AS p ON p.id = o.product_id
   ORDER BY o.i`,
  'DROP MACRO pick',
  'DROP MACRO u',
  'DROP MACRO mix32',
];
