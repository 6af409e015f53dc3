-- Gouji store, schema version 7, PostgreSQL: as ../0007_ratings.sql.

ALTER TABLE game_results ADD COLUMN seq INTEGER;
ALTER TABLE game_results ADD COLUMN lineup TEXT;

UPDATE game_results SET seq = ordered.n
FROM (
    SELECT game_id, row_number() OVER (PARTITION BY guild_id ORDER BY applied_at, game_id) AS n
    FROM game_results
) AS ordered
WHERE ordered.game_id = game_results.game_id;
CREATE UNIQUE INDEX game_results_in_order ON game_results (guild_id, seq);

UPDATE game_results AS gr SET lineup = (
    SELECT jsonb_agg(CASE
        WHEN u.value IS NOT NULL THEN jsonb_build_object(
            'seat', p.seat - 1, 'user', u.value -> 'user_id', 'place', p.place,
            'left', COALESCE((u.value ->> 'leaves')::int, 0) > 0)
        ELSE jsonb_build_object('seat', p.seat - 1, 'ai', COALESCE(s.ai_kind, 'hint'), 'place', p.place)
    END)::text
    FROM games AS g
    CROSS JOIN LATERAL jsonb_array_elements(g.result::jsonb -> 'places') WITH ORDINALITY AS p (place, seat)
    JOIN series AS sr ON sr.id = g.series_id
    LEFT JOIN LATERAL jsonb_array_elements(gr.updates::jsonb) AS u (value)
        ON u.value -> 'place' = p.place AND p.place <> 'null'::jsonb
    LEFT JOIN seats AS s ON s.table_id = sr.table_id AND s.seat = p.seat - 1 AND s.user_id IS NULL
    WHERE g.id = gr.game_id
)
WHERE gr.game_id IN (
    SELECT id FROM games
    WHERE result IS NOT NULL AND jsonb_typeof(result::jsonb -> 'places') = 'array'
        AND jsonb_array_length(result::jsonb -> 'places') = 6
);

CREATE TABLE ratings (
    guild_id    BIGINT  NOT NULL,
    player      TEXT    NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL CHECK (games >= 1),
    PRIMARY KEY (guild_id, player)
);
CREATE INDEX ratings_in_order ON ratings (guild_id, ordinal);

CREATE TABLE series_ratings (
    series_id   BIGINT  PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
    guild_id    BIGINT  NOT NULL,
    changes     TEXT    NOT NULL
);
CREATE INDEX series_ratings_by_guild ON series_ratings (guild_id);

CREATE TABLE rating_state (
    guild_id    BIGINT  PRIMARY KEY,
    model       TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    games       INTEGER NOT NULL
);
