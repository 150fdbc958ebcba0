-- pgbench script of bench/postgres.sh: one transaction = what geoserve writes for one anonymous
-- misconduct report with a location (POST /v1/reports with bench/reports.lua's body), at a random
-- point of the demo campus's box as bench/postgres_intake.sql draws it. It runs against a
-- database geoserve migrated and filled with the demo campus itself (`geoserve serve
-- --demo-data data/` once), so the tables, indexes, constraints and triggers written are exactly
-- geoserve's; a table or column that is missing or different fails the statement and pgbench.
--
-- Per report, as geoserve's group commit writes it (PostgresStore+Intake.swift storeBatch):
--   reports       1 row: a UUID version 7 id (time-ordered, as TimeOrderedID), kind misconduct,
--                 status pending, version 1, no reporter, idempotency scope "anonymous" and no
--                 key, the occurred day, submitted_at = updated_at (ISO 8601 text, milliseconds,
--                 UTC), lon/lat, group_key '' and the payload geoserve stores for that body
--                 (about 280 bytes). Indexes written: the primary key and reports_by_status (the
--                 reporter and idempotency indexes are partial and skip anonymous, keyless rows).
--   report_areas  1 row per published area layer the point is in, layer version 1 (the demo
--                 campus as imported): zones always (the six zones tile the box), halls when the
--                 point is in one of the 42 halls (about 12 % of the box); testing-sites is a
--                 points layer and places nothing. The placement is done here, client-side, as
--                 geoserve does it in memory: the \set block below (bench/make_intake_full.py
--                 writes it from data/); bench/postgres.sh compares it with geoserve's own
--                 placement of the same points before it measures.
--   audit         1 row: actor anonymous, at = submitted_at, action submit, to_status pending,
--                 and a hash of the same form ("k1:" and 64 hex digits; SHA-256 over the fields
--                 here, where geoserve computes an HMAC-SHA256 in the service, not on the server).
--   counters      2 cells per area row, upserted (INSERT … ON CONFLICT … DO UPDATE SET
--                 n = n + 1, data_version = the current one, read from meta as geoserve does):
--                 the occurred day and the submitted day (UTC, geoserve's default campus zone),
--                 kind misconduct, status pending, group ''. In the key order, so that two
--                 transactions never wait on each other's cells in a cycle.
--   meta          read, not written: geoserve moves the data version on for verifications, not
--                 for new pending reports.
-- What geoserve does and this leaves out: the audit chain. geoserve links each entry to the one
-- before (it reads the chain's tail under its writer lock, LOCK TABLE audit IN EXCLUSIVE MODE,
-- held to the commit, once per batch of reports); one report per transaction under that lock
-- would make every transaction wait for the commit of the one before (about the one-client
-- figure bench/postgres.sh prints as a note), whatever the concurrency. Here the entry's
-- sequence is the transaction's id plus 10^12 (unique, rising, clear of geoserve's own
-- numbers) and its hash covers the entry alone. So this is PostgreSQL writing the same rows as
-- fast as it can, one report per transaction, with the one ordering cost it cannot avoid: the
-- counter cells are few (6 zones × 2 days carry every report), so concurrent transactions
-- queue on a cell's row lock until the holder's commit, where geoserve sums a batch's cells and
-- writes each once.
--
-- One round trip per transaction, no parsing: BEGIN, the statement and COMMIT go in one pipeline
-- (\startpipeline, pgbench 14 or later) of statements prepared once per connection, so pgbench
-- must run with -M prepared (bench/postgres.sh does); geoserve sends a batch in two pipelined
-- round trips. The rows are written by one statement whose data-modifying parts share the
-- report's id, time and place. A colon inside a literal is written \x3a (E'…'): in prepared mode
-- pgbench would take ":true" or ":MI" for a variable.
\set ulon random(0, 21500)
\set ulat random(0, 14300)
-- placement: begin (written by bench/make_intake_full.py from data/zones.geojson and data/halls.geojson)
\set zone CASE \
  WHEN (:ulon >= 0 AND :ulon <= 7229 AND :ulat >= 0 AND :ulat <= 7186) THEN 1 \
  WHEN (:ulon >= 7230 AND :ulon <= 14459 AND :ulat >= 0 AND :ulat <= 7186) THEN 2 \
  WHEN (:ulon >= 14460 AND :ulon <= 21688 AND :ulat >= 0 AND :ulat <= 7186) THEN 3 \
  WHEN (:ulon >= 0 AND :ulon <= 7229 AND :ulat >= 7187 AND :ulat <= 14373) THEN 4 \
  WHEN (:ulon >= 7230 AND :ulon <= 14459 AND :ulat >= 7187 AND :ulat <= 14373) THEN 5 \
  WHEN (:ulon >= 14460 AND :ulon <= 21688 AND :ulat >= 7187 AND :ulat <= 14373) THEN 6 \
  ELSE 0 END
\set hall CASE \
  WHEN (:ulon >= 769 AND :ulon <= 2543 AND :ulat >= 967 AND :ulat <= 1825) THEN 1 \
  WHEN (:ulon >= 3376 AND :ulon <= 3939 AND :ulat >= 746 AND :ulat <= 1486) THEN 2 \
  WHEN (:ulon >= 7169 AND :ulon <= 7951 AND :ulat >= 525 AND :ulat <= 847) OR (:ulon >= 7169 AND :ulon <= 7520 AND :ulat >= 848 AND :ulat <= 1241) THEN 3 \
  WHEN (:ulon >= 9744 AND :ulon <= 10850 AND :ulat >= 1422 AND :ulat <= 2059) THEN 4 \
  WHEN (:ulon >= 13492 AND :ulon <= 15218 AND :ulat >= 826 AND :ulat <= 1782) THEN 5 \
  WHEN (:ulon >= 16609 AND :ulon <= 17459 AND :ulat >= 490 AND :ulat <= 748) OR (:ulon >= 16609 AND :ulon <= 16991 AND :ulat >= 749 AND :ulat <= 1065) THEN 6 \
  WHEN (:ulon >= 18994 AND :ulon <= 20010 AND :ulat >= 949 AND :ulat <= 1968) THEN 7 \
  WHEN (:ulon >= 1675 AND :ulon <= 2404 AND :ulat >= 3610 AND :ulat <= 4515) THEN 8 \
  WHEN (:ulon >= 4720 AND :ulon <= 5446 AND :ulat >= 3673 AND :ulat <= 3948) OR (:ulon >= 4720 AND :ulon <= 4937 AND :ulat >= 3949 AND :ulat <= 4316) OR (:ulon >= 5229 AND :ulon <= 5446 AND :ulat >= 3949 AND :ulat <= 4316) OR (:ulon >= 4720 AND :ulon <= 5446 AND :ulat >= 4317 AND :ulat <= 4592) THEN 9 \
  WHEN (:ulon >= 6960 AND :ulon <= 8038 AND :ulat >= 3027 AND :ulat <= 3951) THEN 10 \
  WHEN (:ulon >= 10496 AND :ulon <= 11768 AND :ulat >= 3292 AND :ulat <= 4493) THEN 11 \
  WHEN (:ulon >= 13033 AND :ulon <= 14730 AND :ulat >= 2783 AND :ulat <= 3122) OR (:ulon >= 13033 AND :ulon <= 13796 AND :ulat >= 3123 AND :ulat <= 3537) THEN 12 \
  WHEN (:ulon >= 16737 AND :ulon <= 17776 AND :ulat >= 3107 AND :ulat <= 3744) THEN 13 \
  WHEN (:ulon >= 19638 AND :ulon <= 21329 AND :ulat >= 3607 AND :ulat <= 4172) THEN 14 \
  WHEN (:ulon >= 1382 AND :ulon <= 2852 AND :ulat >= 5828 AND :ulat <= 6059) OR (:ulon >= 1382 AND :ulon <= 2043 AND :ulat >= 6059 AND :ulat <= 6341) THEN 15 \
  WHEN (:ulon >= 4210 AND :ulon <= 4796 AND :ulat >= 5259 AND :ulat <= 6269) THEN 16 \
  WHEN (:ulon >= 6865 AND :ulon <= 7176 AND :ulat >= 6172 AND :ulat <= 6648) OR (:ulon >= 7418 AND :ulon <= 7729 AND :ulat >= 6172 AND :ulat <= 6648) THEN 17 \
  WHEN (:ulon >= 10180 AND :ulon <= 10948 AND :ulat >= 5573 AND :ulat <= 6044) OR (:ulon >= 10180 AND :ulon <= 10525 AND :ulat >= 6045 AND :ulat <= 6622) THEN 18 \
  WHEN (:ulon >= 13768 AND :ulon <= 15098 AND :ulat >= 5379 AND :ulat <= 6413) THEN 19 \
  WHEN (:ulon >= 17396 AND :ulon <= 18181 AND :ulat >= 5526 AND :ulat <= 6719) THEN 20 \
  WHEN (:ulon >= 19265 AND :ulon <= 20309 AND :ulat >= 5561 AND :ulat <= 5912) OR (:ulon >= 19265 AND :ulon <= 19734 AND :ulat >= 5913 AND :ulat <= 6341) THEN 21 \
  WHEN (:ulon >= 416 AND :ulon <= 2193 AND :ulat >= 8037 AND :ulat <= 8843) THEN 22 \
  WHEN (:ulon >= 3925 AND :ulon <= 5503 AND :ulat >= 8135 AND :ulat <= 8895) THEN 23 \
  WHEN (:ulon >= 7716 AND :ulon <= 8948 AND :ulat >= 8282 AND :ulat <= 8695) OR (:ulon >= 7716 AND :ulon <= 8270 AND :ulat >= 8696 AND :ulat <= 9200) THEN 24 \
  WHEN (:ulon >= 11598 AND :ulon <= 12114 AND :ulat >= 7439 AND :ulat <= 8092) THEN 25 \
  WHEN (:ulon >= 14337 AND :ulon <= 14945 AND :ulat >= 7377 AND :ulat <= 7933) THEN 26 \
  WHEN (:ulon >= 15741 AND :ulon <= 16847 AND :ulat >= 8090 AND :ulat <= 8661) OR (:ulon >= 15741 AND :ulon <= 16238 AND :ulat >= 8661 AND :ulat <= 9360) THEN 27 \
  WHEN (:ulon >= 19802 AND :ulon <= 20887 AND :ulat >= 8370 AND :ulat <= 9074) THEN 28 \
  WHEN (:ulon >= 838 AND :ulon <= 1834 AND :ulat >= 10508 AND :ulat <= 10924) THEN 29 \
  WHEN (:ulon >= 4092 AND :ulon <= 5838 AND :ulat >= 10536 AND :ulat <= 10717) OR (:ulon >= 4092 AND :ulon <= 4877 AND :ulat >= 10718 AND :ulat <= 10939) THEN 30 \
  WHEN (:ulon >= 7280 AND :ulon <= 9020 AND :ulat >= 10568 AND :ulat <= 11746) THEN 31 \
  WHEN (:ulon >= 9986 AND :ulon <= 11273 AND :ulat >= 9921 AND :ulat <= 11183) THEN 32 \
  WHEN (:ulon >= 12750 AND :ulon <= 14222 AND :ulat >= 10424 AND :ulat <= 10896) OR (:ulon >= 12750 AND :ulon <= 13412 AND :ulat >= 10897 AND :ulat <= 11474) THEN 33 \
  WHEN (:ulon >= 16919 AND :ulon <= 18282 AND :ulat >= 10153 AND :ulat <= 10824) THEN 34 \
  WHEN (:ulon >= 19494 AND :ulon <= 20800 AND :ulat >= 10726 AND :ulat <= 11401) THEN 35 \
  WHEN (:ulon >= 941 AND :ulon <= 1916 AND :ulat >= 12531 AND :ulat <= 12697) OR (:ulon >= 941 AND :ulon <= 1379 AND :ulat >= 12698 AND :ulat <= 12901) THEN 36 \
  WHEN (:ulon >= 3923 AND :ulon <= 5526 AND :ulat >= 13109 AND :ulat <= 13541) THEN 37 \
  WHEN (:ulon >= 6930 AND :ulon <= 8643 AND :ulat >= 12353 AND :ulat <= 13523) THEN 38 \
  WHEN (:ulon >= 10456 AND :ulon <= 11788 AND :ulat >= 13770 AND :ulat <= 13941) OR (:ulon >= 10456 AND :ulon <= 11055 AND :ulat >= 13942 AND :ulat <= 14151) THEN 39 \
  WHEN (:ulon >= 13788 AND :ulon <= 15128 AND :ulat >= 12174 AND :ulat <= 13235) THEN 40 \
  WHEN (:ulon >= 16117 AND :ulon <= 16746 AND :ulat >= 12582 AND :ulat <= 13286) THEN 41 \
  WHEN (:ulon >= 20266 AND :ulon <= 21379 AND :ulat >= 12516 AND :ulat <= 12877) OR (:ulon >= 20266 AND :ulon <= 20766 AND :ulat >= 12877 AND :ulat <= 13318) THEN 42 \
  ELSE 0 END
-- placement: end
\startpipeline
BEGIN;
WITH clock AS (
    SELECT c, lpad(to_hex(floor(extract(epoch FROM c) * 1000)::bigint), 12, '0') AS ms
    FROM (SELECT clock_timestamp() AS c) AS now
), v AS (
    SELECT overlay(gen_random_uuid()::text PLACING substr(ms, 1, 8) || '-' || substr(ms, 9, 4) || '-7' FROM 1 FOR 15) AS id,
           to_char(c AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\x3aMI\x3aSS.MS"Z"') AS t,
           to_char(c AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           round(-87.6020 + (:ulon)::integer / 1000000.0, 6)::double precision AS x,
           round(41.7880 + (:ulat)::integer / 1000000.0, 6)::double precision AS y,
           'Z' || (:zone)::integer AS zone,
           CASE WHEN (:hall)::integer > 0 THEN 'H' || lpad((:hall)::integer::text, 2, '0') END AS hall
    FROM clock
), new_report AS (
    INSERT INTO reports (id, kind, status, version, reporter_id, idempotency_scope, idempotency_key, idempotency_request,
                         occurred_on, submitted_at, updated_at, lon, lat, payload, group_key)
    SELECT id, 'misconduct', 'pending', 1, NULL, 'anonymous', NULL, NULL, '2026-11-02', t, t, x, y,
           format(E'{"kind"\x3a"misconduct","misconduct"\x3a{"anonymous"\x3atrue,"attachments"\x3a[],"incidentDescription"\x3a"stopped without reason","occurredAt"\x3a"2026-11-02T21\x3a30\x3a00Z","officerDescription"\x3a"tall, grey uniform","place"\x3a{"location"\x3a{"accuracyM"\x3a10,"lat"\x3a%s,"lon"\x3a%s}},"witnesses"\x3a[]}}', y, x),
           ''
    FROM v
), new_areas AS (
    INSERT INTO report_areas (report_id, layer, layer_version, area_id)
    SELECT v.id, a.layer, 1, a.area_id
    FROM v CROSS JOIN LATERAL (VALUES ('halls', v.hall), ('zones', v.zone)) AS a (layer, area_id)
    WHERE a.area_id IS NOT NULL
    RETURNING layer, area_id
), new_audit AS (
    INSERT INTO audit (sequence, report_id, actor, at, action, from_status, to_status, reason, hash)
    SELECT 1000000000000 + pg_current_xact_id()::text::bigint, id, 'anonymous', t, 'submit', NULL, 'pending', NULL,
           E'k1\x3a' || encode(sha256(convert_to(concat_ws(chr(31), id, 'anonymous', t, 'submit', '', 'pending', ''), 'UTF8')), 'hex')
    FROM v
)
INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
SELECT a.layer, b.basis, a.area_id, b.day, 'misconduct', 'pending', '', 1, (SELECT value FROM meta WHERE key = 'data_version')
FROM new_areas a CROSS JOIN v CROSS JOIN LATERAL (VALUES ('occurred', '2026-11-02'), ('submitted', v.day)) AS b (basis, day)
ORDER BY 1, 2, 3, 4
ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n, data_version = excluded.data_version;
COMMIT;
\endpipeline
