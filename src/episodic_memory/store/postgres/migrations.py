"""PostgreSQL's schema migrations, in step with the SQLite ones (`store/sqlite/migrations.py`): the same
names in the same order, the same tables in PostgreSQL's types (tsvector columns for search, `lower()`
unique indexes for names, counters moved once per statement), recorded by name (`store/schema.py`) and
applied in one transaction under an advisory lock (docs/postgres.md)."""

from __future__ import annotations

import psycopg

from ..schema import Migration, apply, check_current, listed, recorded
from ..scripts import SCRIPT_CHARS, SINGLE_CHARS, segmented

MIGRATION_LOCK = 0x6570_6D01  # pg_advisory_xact_lock key: "ep" "m" 1


def m001_sessions_and_turns(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE EXTENSION IF NOT EXISTS unaccent;
        CREATE TEXT SEARCH DICTIONARY episodic_stem (TEMPLATE = snowball, LANGUAGE = english);
        CREATE TEXT SEARCH CONFIGURATION episodic (COPY = english);
        ALTER TEXT SEARCH CONFIGURATION episodic
            ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
            WITH unaccent, episodic_stem;
        ALTER TEXT SEARCH CONFIGURATION episodic ALTER MAPPING FOR numword, hword_numpart WITH simple;

        CREATE TABLE sessions (
            user_id             text NOT NULL,
            session_id          text NOT NULL,
            status              text NOT NULL DEFAULT 'open',
            started_at          double precision,
            last_turn_at        double precision,
            created_at          double precision NOT NULL,
            updated_at          double precision NOT NULL,
            ended_at            double precision,
            turn_count          integer NOT NULL DEFAULT 0,
            consolidated_turns  integer NOT NULL DEFAULT 0,
            needs_consolidation boolean NOT NULL DEFAULT false,
            journal_file        text,
            journal_offset      bigint NOT NULL DEFAULT 0,
            lexemes             bigint NOT NULL DEFAULT 0,   -- sum of its turns' tsvector lengths (BM25's avgdl)
            PRIMARY KEY (user_id, session_id)
        );
        CREATE INDEX sessions_flagged ON sessions (updated_at) WHERE needs_consolidation;

        CREATE TABLE turns (
            id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            uid         text NOT NULL UNIQUE,
            user_id     text NOT NULL,
            session_id  text NOT NULL,
            seq         integer NOT NULL,
            role        text NOT NULL,
            speaker     text,
            content     text NOT NULL,
            ts          double precision NOT NULL,
            ingested_at double precision NOT NULL,
            turn_id     text,
            tsv         tsvector GENERATED ALWAYS AS (
                            to_tsvector('episodic', content)
                            || setweight(to_tsvector('episodic', coalesce(speaker, '')), 'D')) STORED,
            FOREIGN KEY (user_id, session_id) REFERENCES sessions (user_id, session_id) ON DELETE CASCADE
        );
        CREATE INDEX turns_by_session ON turns (user_id, session_id, seq);
        CREATE INDEX turns_by_time ON turns (user_id, ts);
        CREATE UNIQUE INDEX turns_caller_id ON turns (user_id, session_id, turn_id) WHERE turn_id IS NOT NULL;
        CREATE INDEX turns_fts ON turns USING gin (tsv);
        """)


def m002_vectors(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE EXTENSION IF NOT EXISTS vector;
        CREATE TABLE vectors (
            id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            kind        text NOT NULL,
            item_id     bigint NOT NULL,
            user_id     text NOT NULL,
            session_id  text,
            ts          double precision,
            model       text NOT NULL,
            vec         vector NOT NULL,
            UNIQUE (kind, item_id, model)
        );
        CREATE INDEX vectors_by_user ON vectors (user_id, model, id);
        CREATE TABLE store_meta (key text PRIMARY KEY, value bigint NOT NULL);
        INSERT INTO store_meta (key, value) VALUES ('vector_deletions', 0);

        -- a counter moves once per statement that changed rows (`changed`: the statement's transition table)
        CREATE FUNCTION episodic_count_changes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM changed) THEN
                UPDATE store_meta SET value = value + 1 WHERE key = TG_ARGV[0];
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER vectors_deleted AFTER DELETE ON vectors REFERENCING OLD TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION episodic_count_changes('vector_deletions');

        CREATE FUNCTION episodic_turn_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM vectors WHERE kind = 'turn' AND item_id = OLD.id;
            IF coalesce(OLD.speaker, '') <> '' THEN
                UPDATE speakers SET turns = turns - 1 WHERE user_id = OLD.user_id AND lower(name) = lower(OLD.speaker);
                DELETE FROM speakers WHERE user_id = OLD.user_id AND lower(name) = lower(OLD.speaker) AND turns <= 0;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER turns_deleted_row AFTER DELETE ON turns
            FOR EACH ROW EXECUTE FUNCTION episodic_turn_deleted();

        CREATE TABLE speakers (
            user_id text NOT NULL,
            name    text NOT NULL,
            turns   integer NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX speakers_by_name ON speakers (user_id, lower(name));
        CREATE FUNCTION episodic_turn_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF coalesce(NEW.speaker, '') <> '' THEN
                INSERT INTO speakers (user_id, name, turns) VALUES (NEW.user_id, NEW.speaker, 1)
                ON CONFLICT (user_id, lower(name)) DO UPDATE SET turns = speakers.turns + 1;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER turns_inserted AFTER INSERT ON turns
            FOR EACH ROW EXECUTE FUNCTION episodic_turn_inserted();
        """)


def m003_facts_and_entities(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE TABLE facts (
            id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id       text NOT NULL,
            session_id    text NOT NULL,
            type          text NOT NULL,
            text          text NOT NULL,
            route         text NOT NULL,
            salience      double precision NOT NULL,
            confidence    double precision NOT NULL,
            recurrence    integer NOT NULL DEFAULT 1,
            event_ts      double precision,
            created_at    double precision NOT NULL,
            valid_from    double precision NOT NULL,
            valid_to      double precision,
            supersedes    bigint REFERENCES facts (id) ON DELETE SET NULL,
            superseded_by bigint REFERENCES facts (id) ON DELETE SET NULL,
            source_ids    text NOT NULL,
            origin        text NOT NULL,
            extractor     text NOT NULL,
            updated_at    double precision NOT NULL,
            UNIQUE (user_id, origin)
        );
        CREATE INDEX facts_by_session ON facts (user_id, session_id);
        CREATE INDEX facts_current ON facts (user_id, valid_to, id);

        CREATE TABLE entities (
            id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id       text NOT NULL,
            name          text NOT NULL,
            profile       text,
            profile_facts text,
            updated_at    double precision NOT NULL
        );
        CREATE UNIQUE INDEX entities_by_name ON entities (user_id, lower(name));
        CREATE TABLE entity_aliases (
            user_id   text NOT NULL,
            alias     text NOT NULL,
            entity_id bigint NOT NULL REFERENCES entities (id) ON DELETE CASCADE
        );
        CREATE UNIQUE INDEX entity_aliases_by_alias ON entity_aliases (user_id, lower(alias));
        CREATE INDEX entity_aliases_by_entity ON entity_aliases (entity_id);
        CREATE TABLE fact_entities (
            fact_id   bigint NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            entity_id bigint NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (fact_id, entity_id)
        );
        CREATE INDEX fact_entities_by_entity ON fact_entities (entity_id);
        CREATE TABLE entity_edges (
            a      bigint NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            b      bigint NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            weight integer NOT NULL DEFAULT 1,
            PRIMARY KEY (a, b)
        );
        CREATE INDEX entity_edges_by_b ON entity_edges (b);
        CREATE TABLE route_counts (
            user_id text NOT NULL,
            route   text NOT NULL,
            n       integer NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, route)
        );

        CREATE TABLE memory_fts (
            rowid   bigint PRIMARY KEY,            -- item_id * 8 + kind code (fact 1, episode 2, workstream 3, judgment 4)
            kind    text NOT NULL,
            item_id bigint NOT NULL,
            user_id text NOT NULL,
            text    text NOT NULL,
            tsv     tsvector GENERATED ALWAYS AS (to_tsvector('episodic', text)) STORED
        );
        CREATE INDEX memory_fts_by_user ON memory_fts (user_id, kind);
        CREATE INDEX memory_fts_tsv ON memory_fts USING gin (tsv);

        -- one trigger function for every kind: its code, its text and its vectors' kind come as arguments
        CREATE FUNCTION episodic_memory_fts() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            code integer := TG_ARGV[0]::integer;
            vkind text := TG_ARGV[1];
            body text;
        BEGIN
            IF TG_OP = 'DELETE' THEN
                DELETE FROM memory_fts WHERE rowid = OLD.id * 8 + code;
                DELETE FROM vectors WHERE kind = vkind AND item_id = OLD.id;
                RETURN NULL;
            END IF;
            IF vkind = 'fact' THEN   -- one statement per kind: plpgsql plans a statement against the row's table
                body := NEW.text;
            ELSIF vkind = 'episode' THEN
                body := NEW.summary;
            ELSIF vkind = 'workstream' THEN
                body := NEW.name || chr(10) || NEW.keyphrases;
            ELSE
                body := NEW.trigger || chr(10) || NEW.judgment || chr(10) || NEW.reasoning;
            END IF;
            IF TG_OP = 'INSERT' THEN
                INSERT INTO memory_fts (rowid, kind, item_id, user_id, text)
                VALUES (NEW.id * 8 + code, vkind, NEW.id, NEW.user_id, body);
            ELSE
                UPDATE memory_fts SET text = body WHERE rowid = NEW.id * 8 + code AND text IS DISTINCT FROM body;
                IF FOUND AND vkind IN ('fact', 'judgment') THEN   -- their vectors embed this very text
                    DELETE FROM vectors WHERE kind = vkind AND item_id = NEW.id;
                END IF;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER facts_fts AFTER INSERT OR UPDATE OF text OR DELETE ON facts
            FOR EACH ROW EXECUTE FUNCTION episodic_memory_fts(1, 'fact');
        """)


def m004_episodes_workstreams_loops(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE TABLE workstreams (
            id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id        text NOT NULL,
            name           text NOT NULL,
            name_source    text NOT NULL DEFAULT 'keyphrases',
            named_sessions integer NOT NULL DEFAULT 0,
            status         text NOT NULL DEFAULT 'hypothesis',
            keyphrases     text NOT NULL DEFAULT '[]',
            centroid       bytea,
            centroid_model text,
            sessions       integer NOT NULL DEFAULT 0,
            first_activity double precision,
            last_activity  double precision,
            created_at     double precision NOT NULL,
            updated_at     double precision NOT NULL
        );
        CREATE INDEX workstreams_by_user ON workstreams (user_id, status, last_activity);

        CREATE TABLE episodes (
            id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id       text NOT NULL,
            session_id    text NOT NULL,
            summary       text NOT NULL,
            summarizer    text NOT NULL,
            keyphrases    text NOT NULL DEFAULT '[]',
            source_ids    text NOT NULL,
            turns         integer NOT NULL,
            started_at    double precision,
            ended_at      double precision,
            vec           bytea,
            vec_model     text,
            workstream_id bigint REFERENCES workstreams (id) ON DELETE SET NULL,
            created_at    double precision NOT NULL,
            updated_at    double precision NOT NULL,
            UNIQUE (user_id, session_id)
        );
        CREATE INDEX episodes_by_workstream ON episodes (workstream_id, ended_at);
        CREATE INDEX episodes_by_time ON episodes (user_id, ended_at);

        CREATE TABLE loops (
            id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id        text NOT NULL,
            session_id     text NOT NULL,
            workstream_id  bigint REFERENCES workstreams (id) ON DELETE SET NULL,
            text           text NOT NULL,
            due            text,
            status         text NOT NULL DEFAULT 'open',
            detector       text NOT NULL,
            source_ids     text NOT NULL,
            origin         text NOT NULL,
            mentions       integer NOT NULL DEFAULT 1,
            created_at     double precision NOT NULL,
            last_mentioned double precision NOT NULL,
            closed_at      double precision,
            closed_session text,
            closed_by      text,
            evidence       text,
            evidence_ids   text,
            note           text,
            updated_at     double precision NOT NULL,
            UNIQUE (user_id, origin)
        );
        CREATE INDEX loops_by_user ON loops (user_id, status, created_at);
        CREATE INDEX loops_by_session ON loops (user_id, session_id);
        CREATE INDEX loops_by_closing_session ON loops (user_id, closed_session);
        CREATE INDEX loops_by_workstream ON loops (workstream_id);

        CREATE TRIGGER episodes_fts AFTER INSERT OR UPDATE OF summary OR DELETE ON episodes
            FOR EACH ROW EXECUTE FUNCTION episodic_memory_fts(2, 'episode');
        CREATE TRIGGER workstreams_fts AFTER INSERT OR UPDATE OF name, keyphrases OR DELETE ON workstreams
            FOR EACH ROW EXECUTE FUNCTION episodic_memory_fts(3, 'workstream');
        """)


def m005_judgments(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE TABLE judgments (
            id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            memory_id   text NOT NULL UNIQUE,
            user_id     text NOT NULL,
            trigger     text NOT NULL,
            judgment    text NOT NULL,
            reasoning   text NOT NULL,
            domain      text,
            metadata    text NOT NULL DEFAULT '{}',
            dedup_key   text NOT NULL,
            stored      integer NOT NULL DEFAULT 1,
            created_at  double precision NOT NULL,
            updated_at  double precision NOT NULL,
            UNIQUE (user_id, dedup_key)
        );
        CREATE INDEX judgments_by_domain ON judgments (user_id, domain);
        CREATE TABLE judgment_verdicts (
            id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            judgment_id bigint NOT NULL REFERENCES judgments (id) ON DELETE CASCADE,
            adopted     boolean NOT NULL,
            correction  text,
            ts          double precision NOT NULL
        );
        CREATE INDEX judgment_verdicts_by_judgment ON judgment_verdicts (judgment_id, ts);
        CREATE TRIGGER judgments_fts AFTER INSERT OR UPDATE OF trigger, judgment, reasoning OR DELETE ON judgments
            FOR EACH ROW EXECUTE FUNCTION episodic_memory_fts(4, 'judgment');
        """)


def m006_tokens(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE TABLE api_tokens (
            id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            user_id     text NOT NULL,
            token_hash  text NOT NULL UNIQUE,
            label       text,
            created_at  double precision NOT NULL,
            last_used   double precision,
            revoked_at  double precision
        );
        CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
        """)


def m007_turn_deletions(db: psycopg.Connection) -> None:
    db.execute("""
        INSERT INTO store_meta (key, value) VALUES ('turn_deletions', 0);
        CREATE TRIGGER turns_deleted AFTER DELETE ON turns REFERENCING OLD TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION episodic_count_changes('turn_deletions');
        """)


def m008_recent_episodes_of_a_workstream(db: psycopg.Connection) -> None:
    db.execute("CREATE INDEX episodes_by_workstream_recent ON episodes (workstream_id, coalesce(ended_at, created_at))")


_DERIVED_TABLES = ("facts", "fact_entities", "entities", "entity_aliases", "episodes", "workstreams", "loops")


def m009_derived_changes(db: psycopg.Connection) -> None:
    db.execute(
        "INSERT INTO store_meta (key, value) VALUES ('derived_changes', 0);\n"
        + "".join(f"CREATE TRIGGER {t}_{event.lower()}_counted AFTER {event} ON {t} REFERENCING {side} TABLE AS changed "
                  "FOR EACH STATEMENT EXECUTE FUNCTION episodic_count_changes('derived_changes');\n"
                  for t in _DERIVED_TABLES for event, side in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")))
    )


def m010_episode_terms(db: psycopg.Connection) -> None:
    db.execute("""
        CREATE TABLE episode_terms (
            episode_id bigint NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
            user_id    text NOT NULL,
            term       text NOT NULL,
            tf         double precision NOT NULL,
            PRIMARY KEY (episode_id, term)
        );
        CREATE INDEX episode_terms_by_term ON episode_terms (user_id, term);
        """)


def m012_consolidation_leases_and_name_sources(db: psycopg.Connection) -> None:
    """As SQLite's m012: a session's consolidation lease (owner, until when), and which facts taught each entity name
    (`alias_sources`; existing names are credited to every fact of their entity). Case-insensitive as the aliases."""
    db.execute("""
        ALTER TABLE sessions ADD COLUMN lease_owner text;
        ALTER TABLE sessions ADD COLUMN lease_until double precision;
        CREATE TABLE alias_sources (
            user_id  text NOT NULL,
            alias    text NOT NULL,
            fact_id  bigint NOT NULL REFERENCES facts (id) ON DELETE CASCADE
        );
        CREATE UNIQUE INDEX alias_sources_key ON alias_sources (user_id, lower(alias), fact_id);
        CREATE INDEX alias_sources_by_fact ON alias_sources (fact_id);
        INSERT INTO alias_sources (user_id, alias, fact_id)
            SELECT a.user_id, a.alias, fe.fact_id FROM entity_aliases a JOIN fact_entities fe ON fe.entity_id = a.entity_id
            ON CONFLICT DO NOTHING;
        """)


def m013_turn_source_and_tags(db: psycopg.Connection) -> None:
    """As SQLite's m013: a turn's `source` and `tags` (a JSON list in text), and the tag index `turn_tags`, filled by
    trigger and emptied with its turn."""
    db.execute("""
        ALTER TABLE turns ADD COLUMN source text;
        ALTER TABLE turns ADD COLUMN tags text;
        CREATE INDEX turns_by_source ON turns (user_id, source) WHERE source IS NOT NULL;
        CREATE TABLE turn_tags (
            user_id text NOT NULL,
            tag     text NOT NULL,
            turn_id bigint NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
            PRIMARY KEY (user_id, tag, turn_id)
        );
        CREATE INDEX turn_tags_by_turn ON turn_tags (turn_id);
        CREATE FUNCTION episodic_turn_tags() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO turn_tags (user_id, tag, turn_id)
                SELECT NEW.user_id, t, NEW.id FROM json_array_elements_text(NEW.tags::json) AS t
                ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$;
        CREATE TRIGGER turns_tags_insert AFTER INSERT ON turns FOR EACH ROW WHEN (NEW.tags IS NOT NULL)
            EXECUTE FUNCTION episodic_turn_tags();
        """)


def m014_pinned_facts(db: psycopg.Connection) -> None:
    """As SQLite's m014: a fact the user pinned, listed first in the briefing."""
    db.execute("""
        ALTER TABLE facts ADD COLUMN pinned integer NOT NULL DEFAULT 0;
        CREATE INDEX facts_pinned ON facts (user_id, pinned) WHERE pinned = 1;
        """)


def _segmented_function(*, singles: bool) -> str:
    """`CREATE OR REPLACE FUNCTION episodic_segmented`: the SQL twin of store.scripts.segmented — each token holding
    these scripts as its runs' pairs and its digits and Latin letters, in order; with `singles` (m021 on), then
    every character of the Han, kana and Hangul runs longer than one, alone."""
    script = f"[{SCRIPT_CHARS}]"
    body = ("CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(body, NFKC) ELSE body END")
    tail = f"""
                UNION ALL
                SELECT 1, r.n, 0, c.i, substr(r.x[1], c.i, 1)
                FROM regexp_matches({body}, '{script}+', 'g') WITH ORDINALITY AS r(x, n)
                CROSS JOIN LATERAL generate_series(1, length(r.x[1])) AS c(i)
                WHERE length(r.x[1]) > 1 AND substr(r.x[1], c.i, 1) ~ '[{SINGLE_CHARS}]'""" if singles else ""
    return f"""
        CREATE OR REPLACE FUNCTION episodic_segmented(body text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $f$
            SELECT nullif(string_agg(w, ' ' ORDER BY part, n, m, i), '') FROM (
                SELECT 0 AS part, t.n, p.m, g.i,
                       CASE WHEN p.x[1] ~ '^{script}+$' THEN substr(p.x[1], g.i, 2) ELSE lower(p.x[1]) END AS w
                FROM regexp_matches({body}, '[A-Za-z0-9{SCRIPT_CHARS}]*{script}[A-Za-z0-9{SCRIPT_CHARS}]*', 'g')
                         WITH ORDINALITY AS t(tok, n)
                CROSS JOIN LATERAL regexp_matches(t.tok[1], '{script}+|[A-Za-z0-9]+', 'g') WITH ORDINALITY AS p(x, m)
                CROSS JOIN LATERAL generate_series(1, CASE WHEN p.x[1] ~ '^{script}+$' AND length(p.x[1]) > 1
                                                          THEN length(p.x[1]) - 1 ELSE 1 END) AS g(i){tail}) s
        $f$;
        """


def m015_unsegmented_scripts(db: psycopg.Connection) -> None:
    """As SQLite's m015: `turns.segmented` holds `store.scripts.segmented` of the text (character pairs of Chinese,
    Japanese, Korean, Thai, … runs; NULL without them), and the turn's `tsvector` takes it in. A generated column's
    expression cannot be changed in place before PostgreSQL 17, so `tsv` (with its index) is made again, and the
    sessions' BM25 lengths (`lexemes`) are summed again."""
    db.execute("ALTER TABLE turns ADD COLUMN segmented text")
    rows = db.execute("SELECT id, content FROM turns").fetchall()
    with db.cursor() as cur:
        cur.executemany("UPDATE turns SET segmented = %s WHERE id = %s",
                        [(seg, i) for i, content in rows if (seg := segmented(content)) is not None])
    db.execute("""
        ALTER TABLE turns DROP COLUMN tsv;
        ALTER TABLE turns ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
            to_tsvector('episodic', content)
            || setweight(to_tsvector('episodic', coalesce(speaker, '')), 'D')
            || to_tsvector('episodic', coalesce(segmented, ''))) STORED;
        CREATE INDEX turns_fts ON turns USING gin (tsv);
        UPDATE sessions s SET lexemes = coalesce((SELECT sum(length(t.tsv)) FROM turns t
                                                  WHERE t.user_id = s.user_id AND t.session_id = s.session_id), 0);
        """)
    # derived memories: memory_fts's rows are written by the trigger function of m003 from SQL, so the expansion
    # is a SQL function here, the twin of store.scripts.segmented (tests/test_cjk.py holds them to the same output)
    db.execute(_segmented_function(singles=False))
    db.execute("""
        ALTER TABLE memory_fts DROP COLUMN tsv;
        ALTER TABLE memory_fts ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
            to_tsvector('episodic', text) || to_tsvector('episodic', coalesce(episodic_segmented(text), ''))) STORED;
        CREATE INDEX memory_fts_tsv ON memory_fts USING gin (tsv);
        """)


def m016_turn_owner_in_fts(db: psycopg.Connection) -> None:
    """Kept in step with SQLite's m016 (its FTS5 index gained the turns' `user_id`, so a search reads only the
    asking user's matches). Nothing to do here: every search already filters `turns.user_id` through its index."""


def m017_turn_postings(db: psycopg.Connection) -> None:
    """A postings table for BM25 over turns (`turn_terms`: one row per user, stem and turn, with the stem's
    weight in the turn, the turn's length and time), kept by statement-level triggers on `turns`; and the
    speaker's words weighted `C` (0.5, as FTS5's column weight), not `D`, every unweighted word's label
    too. docs/postgres.md, "Full-text search", has the measurements."""
    db.execute("""
        DROP INDEX turns_fts;
        ALTER TABLE turns DROP COLUMN tsv;
        ALTER TABLE turns ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
            to_tsvector('episodic', content)
            || setweight(to_tsvector('episodic', coalesce(speaker, '')), 'C')
            || to_tsvector('episodic', coalesce(segmented, ''))) STORED;
        CREATE INDEX turns_fts ON turns USING gin (tsv);
        CREATE TABLE turn_terms (
            user_id text NOT NULL,
            lexeme  text NOT NULL,
            turn_id bigint NOT NULL,
            tf      real NOT NULL,
            dl      integer NOT NULL,
            ts      double precision NOT NULL,
            PRIMARY KEY (user_id, lexeme, turn_id) INCLUDE (tf, dl, ts)
        );
        -- a stem's weight in a row, from its positions' labels: 1 each, 0.5 in the speaker's name (label C)
        CREATE FUNCTION episodic_term_weight(weights text[]) RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
            $$ SELECT coalesce(sum(CASE WHEN w = 'C' THEN 0.5 ELSE 1 END), 1)::real FROM unnest(weights) w $$;
        CREATE FUNCTION episodic_turn_postings() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' THEN  -- only a migration rewrites a turn's text: its rows whose stems changed
                DELETE FROM turn_terms p
                 USING gone o JOIN added n ON n.id = o.id, unnest(tsvector_to_array(o.tsv)) AS l(lexeme)
                 WHERE (n.tsv IS DISTINCT FROM o.tsv OR n.user_id IS DISTINCT FROM o.user_id OR n.ts <> o.ts)
                   AND p.user_id = o.user_id AND p.lexeme = l.lexeme AND p.turn_id = o.id;
                INSERT INTO turn_terms (user_id, lexeme, turn_id, tf, dl, ts)
                SELECT n.user_id, u.lexeme, n.id, episodic_term_weight(u.weights), length(n.tsv), n.ts
                  FROM added n JOIN gone o ON o.id = n.id, unnest(n.tsv) u
                 WHERE n.tsv IS DISTINCT FROM o.tsv OR n.user_id IS DISTINCT FROM o.user_id OR n.ts <> o.ts;
            ELSIF TG_OP = 'DELETE' THEN
                DELETE FROM turn_terms p USING gone o, unnest(tsvector_to_array(o.tsv)) AS l(lexeme)
                 WHERE p.user_id = o.user_id AND p.lexeme = l.lexeme AND p.turn_id = o.id;
            ELSE
                INSERT INTO turn_terms (user_id, lexeme, turn_id, tf, dl, ts)
                SELECT n.user_id, u.lexeme, n.id, episodic_term_weight(u.weights), length(n.tsv), n.ts
                  FROM added n, unnest(n.tsv) u;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER turns_postings_added AFTER INSERT ON turns REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION episodic_turn_postings();
        CREATE TRIGGER turns_postings_changed AFTER UPDATE ON turns REFERENCING OLD TABLE AS gone NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION episodic_turn_postings();
        CREATE TRIGGER turns_postings_gone AFTER DELETE ON turns REFERENCING OLD TABLE AS gone
            FOR EACH STATEMENT EXECUTE FUNCTION episodic_turn_postings();
        INSERT INTO turn_terms (user_id, lexeme, turn_id, tf, dl, ts)
        SELECT t.user_id, u.lexeme, t.id, episodic_term_weight(u.weights), length(t.tsv), t.ts
          FROM turns t, unnest(t.tsv) u;
        """)


def m018_consolidation_backoff(db: psycopg.Connection) -> None:
    """Issue 41: a session whose consolidation keeps failing is retried with back-off, not at every open: how many
    runs in a row failed, and when it may be tried again (NULL: now). Local to the store: never exported."""
    db.execute("""
        ALTER TABLE sessions ADD COLUMN consolidation_failures integer NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN retry_at double precision;
    """)


def m019_llm_backoff(db: psycopg.Connection) -> None:
    """As SQLite's m019: the LLM back-off, one row per backend description. Local to the store."""
    db.execute("""
        CREATE TABLE llm_backoff (
            backend    text PRIMARY KEY,
            retry_at   double precision NOT NULL,
            failures   integer NOT NULL,
            kind       text NOT NULL,
            reason     text NOT NULL,
            updated_at double precision NOT NULL
        );
    """)


def m020_turn_metadata(db: psycopg.Connection) -> None:
    """As SQLite's m020: a turn's metadata, a JSON object in text (not jsonb, which would reorder its keys: it
    comes back exactly as given), never searched."""
    db.execute("ALTER TABLE turns ADD COLUMN metadata text;")


def m021_single_characters(db: psycopg.Connection) -> None:
    """As SQLite's m021: runs of Han, kana and Hangul hold their single characters too. `segmented` is made again
    (each turn's `tsv` follows, and the postings with it), the SQL twin learns the same, the derived memories'
    `tsv` is computed again, and the sessions' BM25 lengths are summed again."""
    rows = db.execute("SELECT id, content FROM turns WHERE segmented IS NOT NULL").fetchall()
    with db.cursor() as cur:
        cur.executemany("UPDATE turns SET segmented = %s WHERE id = %s", [(segmented(text), i) for i, text in rows])
    db.execute(_segmented_function(singles=True))
    db.execute(f"UPDATE memory_fts SET text = text WHERE text ~ '[{SINGLE_CHARS}]'")
    if rows:
        db.execute("""
            UPDATE sessions s SET lexemes = coalesce((SELECT sum(length(t.tsv)) FROM turns t
                                                      WHERE t.user_id = s.user_id AND t.session_id = s.session_id), 0)
            WHERE EXISTS (SELECT 1 FROM turns t WHERE t.user_id = s.user_id AND t.session_id = s.session_id
                          AND t.segmented IS NOT NULL)""")


def m022_token_scopes(db: psycopg.Connection) -> None:
    """Issue 46: the agent scopes a REST token may read and write (JSON lists of agent names; server/tokens.py)."""
    db.execute("""
        ALTER TABLE api_tokens ADD COLUMN read_agents text NOT NULL DEFAULT '[]';
        ALTER TABLE api_tokens ADD COLUMN write_agents text NOT NULL DEFAULT '[]';
        """)


def m023_fact_chain_indexes(db: psycopg.Connection) -> None:
    """As SQLite's m023: the facts pointing at a deleted fact are found by index, not by reading every fact."""
    db.execute("""
        CREATE INDEX facts_by_supersedes ON facts (supersedes) WHERE supersedes IS NOT NULL;
        CREATE INDEX facts_by_superseded_by ON facts (superseded_by) WHERE superseded_by IS NOT NULL;
        """)


MIGRATIONS: list[Migration] = listed(globals())  # every mNNN function above, by number
SCHEMA_VERSION = len(MIGRATIONS)  # a database this code has opened has applied them all


def check_version(db: psycopg.Connection, where: str) -> int:
    """The schema version of a database opened read-only (nothing is migrated): it must have every migration of this
    version and none other."""
    row = db.execute("SELECT to_regclass('_migrations') IS NOT NULL").fetchone()
    applied = recorded(db) if row and row[0] else []
    return check_current(applied, [m.__name__ for m in MIGRATIONS], where)


def migrate(db: psycopg.Connection, where: str) -> int:
    """Apply, in order, the migrations the database has not recorded, under an advisory lock (one process migrates,
    the others wait and find it done); refuse a database with one this version does not know (written by a newer
    version). Returns the schema version."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS _migrations (version integer PRIMARY KEY, name text NOT NULL, "
                   "applied_at double precision NOT NULL)")
        return apply(db, MIGRATIONS, where, "%s")
