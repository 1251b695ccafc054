"""SQLite's schema migrations, applied in list order and recorded in the file by name (`store/schema.py`).
Never edit or rename one that has shipped (docs/architecture.md, "Migrations")."""

from __future__ import annotations

import sqlite3

from ...faults import fault_point
from ..schema import Migration, apply, check_current, listed, recorded
from ..scripts import segmented


def _run(db: sqlite3.Connection, script: str) -> None:
    """Run a script statement by statement, inside the caller's transaction (`executescript` would commit
    first). Statements end with ``;`` at the end of a line; a trigger body ends with ``END;``."""
    statement: list[str] = []
    in_trigger = False
    for line in script.splitlines():
        if not line.strip() or line.strip().startswith("--"):
            continue
        statement.append(line)
        stripped = line.split("--")[0].rstrip()
        if stripped.lstrip().upper().startswith("CREATE TRIGGER"):
            in_trigger = True
        if stripped.endswith(";") and (not in_trigger or stripped.strip().upper() == "END;"):
            db.execute("\n".join(statement))
            statement, in_trigger = [], False
    if statement:
        db.execute("\n".join(statement))


def m001_sessions_and_turns(db: sqlite3.Connection) -> None:
    _run(db, """
        CREATE TABLE sessions (
            user_id             TEXT NOT NULL,
            session_id          TEXT NOT NULL,
            status              TEXT NOT NULL DEFAULT 'open',   -- open | ended
            started_at          REAL,                           -- event time of the first turn
            last_turn_at        REAL,                           -- event time of the latest turn
            created_at          REAL NOT NULL,                  -- ingest time
            updated_at          REAL NOT NULL,                  -- ingest time of the latest change
            ended_at            REAL,
            turn_count          INTEGER NOT NULL DEFAULT 0,
            consolidated_turns  INTEGER NOT NULL DEFAULT 0,     -- turns already handed to consolidation
            needs_consolidation INTEGER NOT NULL DEFAULT 0,
            journal_file        TEXT,                           -- relative to the journal folder
            journal_offset      INTEGER NOT NULL DEFAULT 0,     -- bytes of the journal already in the database
            PRIMARY KEY (user_id, session_id)
        );

        CREATE TABLE turns (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: readers keep watermarks on it
            uid         TEXT NOT NULL UNIQUE,          -- journal record id: replay is idempotent on it
            user_id     TEXT NOT NULL,
            session_id  TEXT NOT NULL,
            seq         INTEGER NOT NULL,              -- order within the session
            role        TEXT NOT NULL,
            speaker     TEXT,
            content     TEXT NOT NULL,
            ts          REAL NOT NULL,                 -- when the turn happened (UTC epoch seconds)
            ingested_at REAL NOT NULL,
            turn_id     TEXT,                          -- the caller's own id
            FOREIGN KEY (user_id, session_id) REFERENCES sessions (user_id, session_id) ON DELETE CASCADE
        );
        CREATE INDEX turns_by_session ON turns (user_id, session_id, seq);
        CREATE INDEX turns_by_time ON turns (user_id, ts);
        CREATE INDEX turns_by_caller_id ON turns (user_id, turn_id);

        CREATE VIRTUAL TABLE turns_fts USING fts5 (
            content, speaker,
            content = 'turns', content_rowid = 'id',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, content, speaker) VALUES (new.id, new.content, coalesce(new.speaker, ''));
        END;
        CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content, speaker)
            VALUES ('delete', old.id, old.content, coalesce(old.speaker, ''));
        END;
        CREATE TRIGGER turns_fts_update AFTER UPDATE OF content, speaker ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content, speaker)
            VALUES ('delete', old.id, old.content, coalesce(old.speaker, ''));
            INSERT INTO turns_fts (rowid, content, speaker) VALUES (new.id, new.content, coalesce(new.speaker, ''));
        END;
        """)


def m002_vectors(db: sqlite3.Connection) -> None:
    _run(db, """
        CREATE TABLE vectors (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a change watermark for readers
            kind        TEXT NOT NULL,                      -- turn (later: fact, episode, judgment)
            item_id     INTEGER NOT NULL,
            user_id     TEXT NOT NULL,
            session_id  TEXT,
            ts          REAL,
            model       TEXT NOT NULL,
            vec         BLOB NOT NULL,                      -- float32, L2-normalised
            UNIQUE (kind, item_id, model)
        );
        CREATE INDEX vectors_by_user ON vectors (user_id, model, id);
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO store_meta (key, value) VALUES ('vector_deletions', 0);
        CREATE TRIGGER vectors_deleted AFTER DELETE ON vectors BEGIN
            UPDATE store_meta SET value = value + 1 WHERE key = 'vector_deletions';
        END;
        CREATE TRIGGER turns_vectors_delete AFTER DELETE ON turns BEGIN
            DELETE FROM vectors WHERE kind = 'turn' AND item_id = old.id;
        END;

        -- names the store knows (speakers now), for entity detection in queries
        CREATE TABLE speakers (
            user_id TEXT NOT NULL,
            name    TEXT NOT NULL COLLATE NOCASE,
            turns   INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, name)
        );
        INSERT INTO speakers (user_id, name, turns)
            SELECT user_id, speaker, count(*) FROM turns WHERE speaker IS NOT NULL AND speaker != ''
            GROUP BY user_id, speaker COLLATE NOCASE;
        CREATE TRIGGER speakers_insert AFTER INSERT ON turns WHEN coalesce(new.speaker, '') != '' BEGIN
            INSERT INTO speakers (user_id, name, turns) VALUES (new.user_id, new.speaker, 1)
            ON CONFLICT (user_id, name) DO UPDATE SET turns = turns + 1;
        END;
        CREATE TRIGGER speakers_delete AFTER DELETE ON turns WHEN coalesce(old.speaker, '') != '' BEGIN
            UPDATE speakers SET turns = turns - 1 WHERE user_id = old.user_id AND name = old.speaker;
            DELETE FROM speakers WHERE user_id = old.user_id AND name = old.speaker AND turns <= 0;
        END;
        """)


# a derived memory's text in memory_fts, by table: (kind code, kind, text expression over `new`, columns that change it)
_MEMORY_TEXTS = {
    "facts": (1, "fact", "new.text", "text"),
    "episodes": (2, "episode", "new.summary", "summary"),
    "workstreams": (3, "workstream", "new.name || char(10) || new.keyphrases", "name, keyphrases"),
    "judgments": (4, "judgment", "new.trigger || char(10) || new.judgment || char(10) || new.reasoning",
                  "trigger, judgment, reasoning"),
}
# what an update trigger did besides the index before m015, kept as it was
_UPDATE_EXTRA = {
    "facts": "DELETE FROM vectors WHERE kind = 'fact' AND item_id = new.id;",
    "judgments": "DELETE FROM vectors WHERE kind = 'judgment' AND item_id = new.id;",
}


def _update_extra(table: str, indent: str) -> str:
    """`_UPDATE_EXTRA`'s statement of `table` on a line of its own at `indent` (nothing for a table without one)."""
    return f"\n{indent}{_UPDATE_EXTRA[table]}" if table in _UPDATE_EXTRA else ""


def _memory_fts_triggers(table: str) -> str:
    """The triggers keeping `memory_fts` (and `vectors`) in step with a derived memory's table, as m003 and m004
    made them (m005's judgments have their own, wrapped otherwise; m015 makes the insert and update ones again)."""
    code, kind, body, columns = _MEMORY_TEXTS[table]
    return f"""
        CREATE TRIGGER {table}_fts_insert AFTER INSERT ON {table} BEGIN
            INSERT INTO memory_fts (rowid, text, kind, item_id, user_id)
            VALUES (new.id * 8 + {code}, {body}, '{kind}', new.id, new.user_id);
        END;
        CREATE TRIGGER {table}_fts_delete AFTER DELETE ON {table} BEGIN
            DELETE FROM memory_fts WHERE rowid = old.id * 8 + {code};
            DELETE FROM vectors WHERE kind = '{kind}' AND item_id = old.id;
        END;
        CREATE TRIGGER {table}_fts_update AFTER UPDATE OF {columns} ON {table} BEGIN
            UPDATE memory_fts SET text = {body} WHERE rowid = new.id * 8 + {code};{_update_extra(table, 12 * " ")}
        END;
        """


def m003_facts_and_entities(db: sqlite3.Connection) -> None:
    _run(db, """
        CREATE TABLE facts (
            id           INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id      TEXT NOT NULL,
            session_id   TEXT NOT NULL,                 -- the session it was extracted from
            type         TEXT NOT NULL,                 -- one of facts.types.FACT_TYPES
            text         TEXT NOT NULL,
            route        TEXT NOT NULL,                 -- durable | episodic (demoted into its episode)
            salience     REAL NOT NULL,
            confidence   REAL NOT NULL,
            recurrence   INTEGER NOT NULL DEFAULT 1,    -- times it was stated
            event_ts     REAL,                          -- the time the fact refers to, when it says one
            created_at   REAL NOT NULL,                 -- event time of its newest source turn
            valid_from   REAL NOT NULL,
            valid_to     REAL,                          -- closed when superseded
            supersedes   INTEGER REFERENCES facts (id) ON DELETE SET NULL,
            superseded_by INTEGER REFERENCES facts (id) ON DELETE SET NULL,
            source_ids   TEXT NOT NULL,                 -- JSON list of turn row ids
            origin       TEXT NOT NULL,                 -- hash of text + source turns: idempotent re-runs
            extractor    TEXT NOT NULL,                 -- rules | llm
            updated_at   REAL NOT NULL,
            UNIQUE (user_id, origin)
        );
        CREATE INDEX facts_by_session ON facts (user_id, session_id);
        CREATE INDEX facts_current ON facts (user_id, valid_to, id);

        CREATE TABLE entities (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id     TEXT NOT NULL,
            name        TEXT NOT NULL COLLATE NOCASE,
            profile     TEXT,                           -- synthesised from its facts
            profile_facts TEXT,                         -- the fact ids the profile was made from (JSON)
            updated_at  REAL NOT NULL,
            UNIQUE (user_id, name)
        );
        CREATE TABLE entity_aliases (
            user_id    TEXT NOT NULL,
            alias      TEXT NOT NULL COLLATE NOCASE,
            entity_id  INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (user_id, alias)
        );
        CREATE TABLE fact_entities (
            fact_id    INTEGER NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            entity_id  INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (fact_id, entity_id)
        );
        CREATE INDEX fact_entities_by_entity ON fact_entities (entity_id);
        CREATE TABLE entity_edges (
            a       INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            b       INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            weight  INTEGER NOT NULL DEFAULT 1,             -- facts naming both
            PRIMARY KEY (a, b)
        );

        CREATE TABLE route_counts (                         -- salience router outcomes, for stats
            user_id TEXT NOT NULL,
            route   TEXT NOT NULL,                          -- durable | episodic | dropped | restated | duplicate
            n       INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, route)
        );

        -- BM25 over every derived memory (facts now; episodes and judgments add their own triggers).
        -- rowid = item_id * 8 + kind code (fact 1, episode 2, workstream 3, judgment 4): deletes by rowid stay O(log n)
        CREATE VIRTUAL TABLE memory_fts USING fts5 (
            text, kind UNINDEXED, item_id UNINDEXED, user_id UNINDEXED,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """)
    _run(db, _memory_fts_triggers("facts"))


def m004_episodes_workstreams_loops(db: sqlite3.Connection) -> None:
    """Episodes, workstreams and open loops (issue 5); their SQL lives in store/sql/threads.py."""
    _run(db, """
        CREATE TABLE workstreams (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,  -- memory_fts rowid = id * 8 + 3
            user_id        TEXT NOT NULL,
            name           TEXT NOT NULL,
            name_source    TEXT NOT NULL DEFAULT 'keyphrases',  -- llm | keyphrases
            named_sessions INTEGER NOT NULL DEFAULT 0,          -- its session count when the LLM named it
            status         TEXT NOT NULL DEFAULT 'hypothesis',  -- hypothesis | confirmed (a second session attached)
            keyphrases     TEXT NOT NULL DEFAULT '[]',          -- JSON list, rolled up from its episodes
            centroid       BLOB,                                -- float32, normalised mean of its episodes' vectors
            centroid_model TEXT,
            sessions       INTEGER NOT NULL DEFAULT 0,
            first_activity REAL,                                -- event time of its first and latest turns
            last_activity  REAL,
            created_at     REAL NOT NULL,
            updated_at     REAL NOT NULL
        );
        CREATE INDEX workstreams_by_user ON workstreams (user_id, status, last_activity);

        CREATE TABLE episodes (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,   -- memory_fts rowid = id * 8 + 2; vectors kind 'episode'
            user_id       TEXT NOT NULL,
            session_id    TEXT NOT NULL,
            summary       TEXT NOT NULL,
            summarizer    TEXT NOT NULL,                       -- llm | extractive
            keyphrases    TEXT NOT NULL DEFAULT '[]',          -- JSON [[phrase, key, score], ...]
            source_ids    TEXT NOT NULL,                       -- JSON list of the turn row ids it rests on
            turns         INTEGER NOT NULL,                    -- turns summarised
            started_at    REAL,
            ended_at      REAL,
            vec           BLOB,                                -- thread vector (workstream matching), see threads.py
            vec_model     TEXT,
            workstream_id INTEGER REFERENCES workstreams (id) ON DELETE SET NULL,
            created_at    REAL NOT NULL,
            updated_at    REAL NOT NULL,
            UNIQUE (user_id, session_id)
        );
        CREATE INDEX episodes_by_workstream ON episodes (workstream_id, ended_at);
        CREATE INDEX episodes_by_time ON episodes (user_id, ended_at);

        CREATE TABLE loops (
            id             INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id        TEXT NOT NULL,
            session_id     TEXT NOT NULL,                      -- the session that opened it
            workstream_id  INTEGER REFERENCES workstreams (id) ON DELETE SET NULL,
            text           TEXT NOT NULL,
            due            TEXT,                               -- the deadline as said ("by Friday"), if any
            status         TEXT NOT NULL DEFAULT 'open',       -- open | closed
            detector       TEXT NOT NULL,                      -- rules | llm
            source_ids     TEXT NOT NULL,                      -- JSON list of the turn row ids that raised it
            origin         TEXT NOT NULL,                      -- hash of session + text: re-runs add nothing
            mentions       INTEGER NOT NULL DEFAULT 1,
            created_at     REAL NOT NULL,                      -- event time of the turn that raised it
            last_mentioned REAL NOT NULL,
            closed_at      REAL,
            closed_session TEXT,
            closed_by      TEXT,                               -- rules | llm | user
            evidence       TEXT,                               -- the words that closed it, quoted
            evidence_ids   TEXT,                               -- JSON list of their turn row ids
            note           TEXT,
            updated_at     REAL NOT NULL,
            UNIQUE (user_id, origin)
        );
        CREATE INDEX loops_by_user ON loops (user_id, status, created_at);
        CREATE INDEX loops_by_session ON loops (user_id, session_id);
        CREATE INDEX loops_by_closing_session ON loops (user_id, closed_session);
        CREATE INDEX loops_by_workstream ON loops (workstream_id);
        """)
    # An episode's recall vector is replaced by threads.py (not here): re-embedding on every summary update would
    # bump the vector deletion generation every few turns.
    _run(db, _memory_fts_triggers("episodes"))
    _run(db, _memory_fts_triggers("workstreams"))


def m005_judgments(db: sqlite3.Connection) -> None:
    """Judgment memory (issue 6): trigger → judgment → reasoning, and the verdicts that rank it."""
    _run(db, """
        CREATE TABLE judgments (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- vectors.item_id; memory_fts rowid = id * 8 + 4
            memory_id   TEXT NOT NULL UNIQUE,               -- the public id, "mem_…"
            user_id     TEXT NOT NULL,
            trigger     TEXT NOT NULL,                      -- the situation it applies to
            judgment    TEXT NOT NULL,                      -- how to act
            reasoning   TEXT NOT NULL,                      -- why
            domain      TEXT,
            metadata    TEXT NOT NULL DEFAULT '{}',         -- JSON object
            dedup_key   TEXT NOT NULL,                      -- hash of trigger + judgment, case and spaces folded
            stored      INTEGER NOT NULL DEFAULT 1,         -- times it was stored: duplicates merge into one row
            created_at  REAL NOT NULL,
            updated_at  REAL NOT NULL,
            UNIQUE (user_id, dedup_key)
        );
        CREATE INDEX judgments_by_domain ON judgments (user_id, domain);

        CREATE TABLE judgment_verdicts (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            judgment_id INTEGER NOT NULL REFERENCES judgments (id) ON DELETE CASCADE,
            adopted     INTEGER NOT NULL,                   -- 1 adopted, 0 rejected
            correction  TEXT,                               -- what the user said instead
            ts          REAL NOT NULL
        );
        CREATE INDEX judgment_verdicts_by_judgment ON judgment_verdicts (judgment_id, ts);

        CREATE TRIGGER judgments_fts_insert AFTER INSERT ON judgments BEGIN
            INSERT INTO memory_fts (rowid, text, kind, item_id, user_id)
            VALUES (new.id * 8 + 4, new.trigger || char(10) || new.judgment || char(10) || new.reasoning,
                    'judgment', new.id, new.user_id);
        END;
        CREATE TRIGGER judgments_fts_delete AFTER DELETE ON judgments BEGIN
            DELETE FROM memory_fts WHERE rowid = old.id * 8 + 4;
            DELETE FROM vectors WHERE kind = 'judgment' AND item_id = old.id;
        END;
        CREATE TRIGGER judgments_fts_update AFTER UPDATE OF trigger, judgment, reasoning ON judgments BEGIN
            UPDATE memory_fts SET text = new.trigger || char(10) || new.judgment || char(10) || new.reasoning
            WHERE rowid = new.id * 8 + 4;
            DELETE FROM vectors WHERE kind = 'judgment' AND item_id = new.id;
        END;
        """)


def m006_tokens(db: sqlite3.Connection) -> None:
    """REST API bearer tokens (issue 7): only a SHA-256 of each token is kept (store/sqlite/tokens.py)."""
    _run(db, """
        CREATE TABLE api_tokens (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id     TEXT NOT NULL,                  -- every request with this token acts as this user
            token_hash  TEXT NOT NULL UNIQUE,           -- sha256 hex of the token; the token itself is never stored
            label       TEXT,
            created_at  REAL NOT NULL,
            last_used   REAL,
            revoked_at  REAL
        );
        CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
        """)


def m007_turn_deletions(db: sqlite3.Connection) -> None:
    """A counter every turn deletion bumps, so a process caching what it read of turns knows when to drop it."""
    _run(db, """
        INSERT INTO store_meta (key, value) VALUES ('turn_deletions', 0);
        CREATE TRIGGER turns_deleted AFTER DELETE ON turns BEGIN
            UPDATE store_meta SET value = value + 1 WHERE key = 'turn_deletions';
        END;
        """)


def m008_recent_episodes_of_a_workstream(db: sqlite3.Connection) -> None:
    """A workstream's latest episodes by an index, not by sorting all of them (a recall hit lists its newest five)."""
    _run(db, "CREATE INDEX episodes_by_workstream_recent ON episodes (workstream_id, coalesce(ended_at, created_at));")


# what the recall hits of derived memories are read from (facts with their entities, episodes, workstreams, loops)
_DERIVED_TABLES = ("facts", "fact_entities", "entities", "entity_aliases", "episodes", "workstreams", "loops")


def m009_derived_changes(db: sqlite3.Connection) -> None:
    """A counter every change to a derived memory bumps, so a process caching their recall hits knows when to drop
    them (turn deletions have their own counter: m007)."""
    triggers = "".join(
        f"""
        CREATE TRIGGER {table}_{event.lower()}_counted AFTER {event} ON {table} BEGIN
            UPDATE store_meta SET value = value + 1 WHERE key = 'derived_changes';
        END;"""
        for table in _DERIVED_TABLES for event in ("INSERT", "UPDATE", "DELETE"))
    _run(db, "INSERT INTO store_meta (key, value) VALUES ('derived_changes', 0);" + triggers)


def m010_episode_terms(db: sqlite3.Connection) -> None:
    """The distinctive words of each episode (content-word stems of what people stated, with their weight): the
    user's own vocabulary, whose document frequencies say which words are distinctive, and an inverted index from a
    word to the episodes (and so the workstreams) that use it. Goes with its episode."""
    _run(db, """
        CREATE TABLE episode_terms (
            episode_id INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
            user_id    TEXT NOT NULL,
            term       TEXT NOT NULL,
            tf         REAL NOT NULL,
            PRIMARY KEY (episode_id, term)
        ) WITHOUT ROWID;
        CREATE INDEX episode_terms_by_term ON episode_terms (user_id, term);
        """)


def m012_consolidation_leases_and_name_sources(db: sqlite3.Connection) -> None:
    """Issue 18. A session's consolidation lease (which process consolidates it, until when), so two processes never
    consolidate one session at once. And which facts taught each entity name (`alias_sources`), so forgetting a
    session takes the names only it taught; existing names are credited to every fact of their entity."""
    _run(db, """
        ALTER TABLE sessions ADD COLUMN lease_owner TEXT;       -- host:pid:nonce of the consolidating process
        ALTER TABLE sessions ADD COLUMN lease_until REAL;       -- the claim lapses then unless renewed
        CREATE TABLE alias_sources (
            user_id  TEXT NOT NULL,
            alias    TEXT NOT NULL COLLATE NOCASE,
            fact_id  INTEGER NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
            PRIMARY KEY (user_id, alias, fact_id)
        ) WITHOUT ROWID;
        CREATE INDEX alias_sources_by_fact ON alias_sources (fact_id);
        INSERT OR IGNORE INTO alias_sources (user_id, alias, fact_id)
            SELECT a.user_id, a.alias, fe.fact_id FROM entity_aliases a JOIN fact_entities fe ON fe.entity_id = a.entity_id;
        """)


def m013_turn_source_and_tags(db: sqlite3.Connection) -> None:
    """Where a turn came from (`source`: "telegram", "cli", …) and its `tags` (a JSON list), both optional; a tag
    index (`turn_tags`, filled by trigger, emptied with its turn) for recall's tag filter (issue 19)."""
    _run(db, """
        ALTER TABLE turns ADD COLUMN source TEXT;
        ALTER TABLE turns ADD COLUMN tags TEXT;
        CREATE INDEX turns_by_source ON turns (user_id, source) WHERE source IS NOT NULL;
        CREATE TABLE turn_tags (
            user_id TEXT NOT NULL,
            tag     TEXT NOT NULL,
            turn_id INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
            PRIMARY KEY (user_id, tag, turn_id)
        ) WITHOUT ROWID;
        CREATE INDEX turn_tags_by_turn ON turn_tags (turn_id);
        CREATE TRIGGER turns_tags_insert AFTER INSERT ON turns WHEN new.tags IS NOT NULL BEGIN
            INSERT OR IGNORE INTO turn_tags (user_id, tag, turn_id)
            SELECT new.user_id, value, new.id FROM json_each(new.tags);
        END;
        """)


def m014_pinned_facts(db: sqlite3.Connection) -> None:
    """A fact the user pinned (`episodic fact pin`): listed first in the briefing, whatever its age."""
    _run(db, """
        ALTER TABLE facts ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX facts_pinned ON facts (user_id, pinned) WHERE pinned = 1;
    """)


def m015_unsegmented_scripts(db: sqlite3.Connection) -> None:
    """Chinese, Japanese, Korean, Thai, … in the turns' index (issue 17): `turns.segmented` holds
    `store.scripts.segmented` of a turn's text, a third column of `turns_fts`. FTS5 cannot add a column:
    the index is made again from the turns."""
    _run(db, """
        ALTER TABLE turns ADD COLUMN segmented TEXT;  -- store/scripts.py; NULL without Chinese/Japanese/Korean/Thai
        DROP TRIGGER turns_fts_insert;
        DROP TRIGGER turns_fts_delete;
        DROP TRIGGER turns_fts_update;
        DROP TABLE turns_fts;
    """)
    rows = db.execute("SELECT id, content FROM turns").fetchall()
    db.executemany("UPDATE turns SET segmented = ? WHERE id = ?",
                   [(seg, i) for i, content in rows if (seg := segmented(content)) is not None])
    _run(db, """
        CREATE VIRTUAL TABLE turns_fts USING fts5 (
            content, speaker, segmented,
            content = 'turns', content_rowid = 'id',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, content, speaker, segmented)
            VALUES (new.id, new.content, coalesce(new.speaker, ''), coalesce(new.segmented, ''));
        END;
        CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content, speaker, segmented)
            VALUES ('delete', old.id, old.content, coalesce(old.speaker, ''), coalesce(old.segmented, ''));
        END;
        CREATE TRIGGER turns_fts_update AFTER UPDATE OF content, speaker, segmented ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content, speaker, segmented)
            VALUES ('delete', old.id, old.content, coalesce(old.speaker, ''), coalesce(old.segmented, ''));
            INSERT INTO turns_fts (rowid, content, speaker, segmented)
            VALUES (new.id, new.content, coalesce(new.speaker, ''), coalesce(new.segmented, ''));
        END;
        INSERT INTO turns_fts (turns_fts) VALUES ('rebuild');
    """)
    _memory_fts_segmented(db)


def m016_turn_owner_in_fts(db: sqlite3.Connection) -> None:
    """Issue 20: `turns_fts` gains `user_id` (the turns' own column, tokenised like the text) as a fourth
    column, and `memory_fts` indexes its `user_id`, so a search of a store shared by many users asks FTS5
    for the user's matches only (docs/retrieval.md, "Many users in one file"). Both indexes are made again."""
    _run(db, """
        DROP TRIGGER turns_fts_insert;
        DROP TRIGGER turns_fts_delete;
        DROP TRIGGER turns_fts_update;
        DROP TABLE turns_fts;
        CREATE VIRTUAL TABLE turns_fts USING fts5 (
            content, speaker, segmented, user_id,
            content = 'turns', content_rowid = 'id',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, content, speaker, segmented, user_id)
            VALUES (new.id, new.content, coalesce(new.speaker, ''), coalesce(new.segmented, ''), new.user_id);
        END;
        CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content, speaker, segmented, user_id)
            VALUES ('delete', old.id, old.content, coalesce(old.speaker, ''), coalesce(old.segmented, ''),
                    old.user_id);
        END;
        CREATE TRIGGER turns_fts_update AFTER UPDATE OF content, speaker, segmented, user_id ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content, speaker, segmented, user_id)
            VALUES ('delete', old.id, old.content, coalesce(old.speaker, ''), coalesce(old.segmented, ''),
                    old.user_id);
            INSERT INTO turns_fts (rowid, content, speaker, segmented, user_id)
            VALUES (new.id, new.content, coalesce(new.speaker, ''), coalesce(new.segmented, ''), new.user_id);
        END;
        INSERT INTO turns_fts (turns_fts) VALUES ('rebuild');
        CREATE TEMP TABLE _memory_fts_rows AS
            SELECT rowid AS r, text, kind, item_id, user_id, segmented FROM memory_fts;
        DROP TABLE memory_fts;
        CREATE VIRTUAL TABLE memory_fts USING fts5 (
            text, kind UNINDEXED, item_id UNINDEXED, user_id, segmented,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO memory_fts (rowid, text, kind, item_id, user_id, segmented)
            SELECT r, text, kind, item_id, user_id, segmented FROM _memory_fts_rows;
        DROP TABLE _memory_fts_rows;
    """)


def _memory_fts_segmented(db: sqlite3.Connection) -> None:
    """m015's part for derived memories: `memory_fts` is made again with a `segmented` column, filled by
    the insert and update triggers through `episodic_segmented` (registered on every connection the store
    opens)."""
    _run(db, "CREATE TEMP TABLE _memory_fts_rows AS SELECT rowid AS r, text, kind, item_id, user_id FROM memory_fts;")
    for table in _MEMORY_TEXTS:
        _run(db, f"DROP TRIGGER {table}_fts_insert;\nDROP TRIGGER {table}_fts_update;")
    _run(db, """
        DROP TABLE memory_fts;
        CREATE VIRTUAL TABLE memory_fts USING fts5 (
            text, kind UNINDEXED, item_id UNINDEXED, user_id UNINDEXED, segmented,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO memory_fts (rowid, text, kind, item_id, user_id, segmented)
            SELECT r, text, kind, item_id, user_id, episodic_segmented(text) FROM _memory_fts_rows;
        DROP TABLE _memory_fts_rows;
    """)
    for table, (code, kind, body, columns) in _MEMORY_TEXTS.items():
        _run(db, f"""
            CREATE TRIGGER {table}_fts_insert AFTER INSERT ON {table} BEGIN
                INSERT INTO memory_fts (rowid, text, kind, item_id, user_id, segmented)
                VALUES (new.id * 8 + {code}, {body}, '{kind}', new.id, new.user_id, episodic_segmented({body}));
            END;
            CREATE TRIGGER {table}_fts_update AFTER UPDATE OF {columns} ON {table} BEGIN
                UPDATE memory_fts SET text = {body}, segmented = episodic_segmented({body})
                WHERE rowid = new.id * 8 + {code};{_update_extra(table, 16 * " ")}
            END;
        """)


def m017_turn_postings(db: sqlite3.Connection) -> None:
    """Kept in step with PostgreSQL's m017 (a postings table for its BM25 over turns). Nothing to do here: FTS5 is
    already an inverted index that ranks by BM25."""

def m018_consolidation_backoff(db: sqlite3.Connection) -> None:
    """Issue 41: a session whose consolidation keeps failing is retried with back-off, not at every open: how many
    runs in a row failed, and when it may be tried again (NULL: now). Local to the store: never exported."""
    _run(db, """
        ALTER TABLE sessions ADD COLUMN consolidation_failures INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN retry_at REAL;
    """)


def m019_llm_backoff(db: sqlite3.Connection) -> None:
    """Issue 42: an LLM that cannot be reached (or turns every request away) is not asked again until its back-off
    is over, and the next process knows it (`llm.backoff`). One row per backend description. Local to the store."""
    _run(db, """
        CREATE TABLE llm_backoff (
            backend    TEXT PRIMARY KEY,   -- the backend's description: "openai:llama3@http://localhost:11434/v1"
            retry_at   REAL NOT NULL,      -- no call before this
            failures   INTEGER NOT NULL,   -- failed calls in a row
            kind       TEXT NOT NULL,      -- unreachable | refused
            reason     TEXT NOT NULL,      -- what the last failed call got
            updated_at REAL NOT NULL
        );
    """)


def m020_turn_metadata(db: sqlite3.Connection) -> None:
    """Issue 46: a JSON object a caller keeps with a turn (an agent framework's own item, stored whole so it comes
    back exactly: integrations/openai_agents.py), never searched. Last in the row: reads that do not ask for it
    never touch its pages."""
    _run(db, "ALTER TABLE turns ADD COLUMN metadata TEXT;")


def m021_single_characters(db: sqlite3.Connection) -> None:
    """Issue 43: a run of Han, kana or Hangul holds its single characters too, after its pairs (store/scripts.py):
    `segmented` is made again for the turns and the derived memories that have one (their update triggers put it
    in the index)."""
    rows = db.execute("SELECT id, content FROM turns WHERE segmented IS NOT NULL").fetchall()
    db.executemany("UPDATE turns SET segmented = ? WHERE id = ?", [(segmented(text), i) for i, text in rows])
    _run(db, "UPDATE memory_fts SET segmented = episodic_segmented(text) WHERE segmented IS NOT NULL;")


def m022_token_scopes(db: sqlite3.Connection) -> None:
    """Issue 46: the agent scopes a REST token may read and write (JSON lists of agent names; server/tokens.py)."""
    _run(db, """
        ALTER TABLE api_tokens ADD COLUMN read_agents TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE api_tokens ADD COLUMN write_agents TEXT NOT NULL DEFAULT '[]';
        """)


def m023_fact_chain_indexes(db: sqlite3.Connection) -> None:
    """A fact deleted (`forget`, `fact forget`) sets NULL in the facts that pointed at it through `supersedes` and
    `superseded_by` (their foreign keys): without an index on those columns SQLite read every fact of the file
    twice for each fact deleted (a session of 47 facts forgotten in a store of 40k: 1.4 s of its 4.5). Partial: most
    facts replace none and are replaced by none."""
    _run(db, """
        CREATE INDEX facts_by_supersedes ON facts (supersedes) WHERE supersedes IS NOT NULL;
        CREATE INDEX facts_by_superseded_by ON facts (superseded_by) WHERE superseded_by IS NOT NULL;
    """)

MIGRATIONS: list[Migration] = listed(globals())  # every mNNN function above, by number
SCHEMA_VERSION = len(MIGRATIONS)  # a store this code has opened has applied them all

_TABLE = ("CREATE TABLE IF NOT EXISTS _migrations "
          "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")


def check_version(db: sqlite3.Connection, path: str) -> int:
    """The schema version of a store opened read-only (nothing is migrated): it must have every migration of this
    version and none other."""
    try:
        applied = recorded(db)
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        applied = []
    return check_current(applied, [m.__name__ for m in MIGRATIONS], path)


def migrate(db: sqlite3.Connection, path: str) -> int:
    """Apply, in order, the migrations the file has not recorded; refuse a file with one this version does not know
    (written by a newer version). Returns the schema version."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(_TABLE)
        apply(db, MIGRATIONS, path, "?", lambda: fault_point("migrate.after_step"))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return len(MIGRATIONS)
