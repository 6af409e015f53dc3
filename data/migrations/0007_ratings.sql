-- Gouji store, schema version 7: skill ratings (技术分, data/ratings.py), derived from the game
-- results. game_results gains what a rating needs that was not kept:
--   seq     the order results were recorded in on their server: 1, 2, 3 …
--   lineup  JSON: each seat of the game, [{"seat": 0, "user": ID, "place": 1, "left": false},
--           {"seat": 1, "ai": "hint", "place": 4}, …] — who sat there (a user, else the AI
--           level), the place they took and whether they left (中途强退)
-- The three rating tables hold nothing else: `gouji ratings rebuild` computes them again
-- from game_results, to the same numbers.
--   ratings         each player's rating on the server (player: a user id, or ai:KIND)
--   series_ratings  what each series did to its players' conservative figures (mu -
--                   3 sigma), JSON {player: [change, figure after, games rated]}
--   rating_state    how far each server's ratings go (the last seq rated) and the model
--                   that computed them; another model's ratings are rebuilt

ALTER TABLE game_results ADD COLUMN seq INTEGER;
ALTER TABLE game_results ADD COLUMN lineup TEXT;

-- Results recorded before version 7: in the order of their time, then of their game.
UPDATE game_results SET seq = ordered.n
FROM (
    SELECT game_id, row_number() OVER (PARTITION BY guild_id ORDER BY applied_at, game_id) AS n
    FROM game_results
) AS ordered
WHERE ordered.game_id = game_results.game_id;
CREATE UNIQUE INDEX game_results_in_order ON game_results (guild_id, seq);

-- Their lineups: the users and places from the profile updates and the result (exact); a
-- seat no user had was an AI seat, of the level the seat holds now (else the easy one).
UPDATE game_results SET lineup = (
    SELECT json_group_array(json(CASE
        WHEN u.value IS NOT NULL THEN json_object(
            'seat', p.key, 'user', json_extract(u.value, '$.user_id'), 'place', p.value,
            'left', json(CASE WHEN json_extract(u.value, '$.leaves') > 0 THEN 'true' ELSE 'false' END))
        ELSE json_object('seat', p.key, 'ai', COALESCE(s.ai_kind, 'hint'), 'place', p.value)
    END))
    FROM games AS g
    JOIN json_each(g.result, '$.places') AS p
    JOIN series AS sr ON sr.id = g.series_id
    LEFT JOIN json_each(game_results.updates) AS u
        ON json_extract(u.value, '$.place') = p.value
    LEFT JOIN seats AS s ON s.table_id = sr.table_id AND s.seat = p.key AND s.user_id IS NULL
    WHERE g.id = game_results.game_id
)
WHERE game_id IN (
    SELECT id FROM games
    WHERE json_valid(result) AND json_type(result, '$.places') = 'array'
        AND json_array_length(result, '$.places') = 6
);

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    player      TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    ordinal     REAL    NOT NULL,                       -- mu - 3 sigma, the figure shown
    games       INTEGER NOT NULL CHECK (games >= 1),
    PRIMARY KEY (guild_id, player)
) WITHOUT ROWID;
CREATE INDEX ratings_in_order ON ratings (guild_id, ordinal);

CREATE TABLE series_ratings (
    series_id   INTEGER PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    changes     TEXT    NOT NULL
);
CREATE INDEX series_ratings_by_guild ON series_ratings (guild_id);

CREATE TABLE rating_state (
    guild_id    INTEGER PRIMARY KEY,
    model       TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    games       INTEGER NOT NULL
);
