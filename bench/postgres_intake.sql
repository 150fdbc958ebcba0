-- pgbench script of bench/postgres.sh: one transaction = one INSERT of one row shaped like a
-- geoserve report (text id, kind, status, version, day and timestamps as text, lon/lat double
-- precision, a JSON payload of about 300 bytes) at a random point of the demo campus's box, the
-- box bench/reports.lua posts in. The table is intake_reports, created by bench/postgres.sh.
\set ulon random(0, 21500)
\set ulat random(0, 14300)
INSERT INTO intake_reports (id, kind, status, version, occurred_on, submitted_at, updated_at, lon, lat, payload)
SELECT gen_random_uuid()::text, 'misconduct', 'pending', 1, '2026-11-02', v.t, v.t, v.x, v.y,
       format('{"kind":"misconduct","misconduct":{"anonymous":true,"attachments":[],"incidentDescription":"stopped without reason, no explanation given","occurredAt":"2026-11-02T21:30:00Z","officerDescription":"tall, grey uniform","place":{"location":{"accuracyM":10,"lat":%s,"lon":%s}},"witnesses":[]}}', v.y, v.x)
  FROM (SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t,
               round(-87.6020 + :ulon / 1000000.0, 6) AS x,
               round(41.7880 + :ulat / 1000000.0, 6) AS y) AS v;
