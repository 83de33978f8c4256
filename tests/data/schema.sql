-- migrations: 0001_initial,0002_vector_stats,0003_reason_codes,0004_note_language,0005_note_flags,0006_secure_delete,0007_quantized_vectors,0008_sharded_vectors,0009_note_chunk_count,0010_reflag_notes,0011_chunk_marks,0012_vector_changes,0013_fast_vectors,0014_links,0015_headings
-- index chunk_lines_key on chunk_lines
CREATE INDEX chunk_lines_key on chunk_lines(key);
-- index chunks_fast_pending on chunks
CREATE INDEX chunks_fast_pending on chunks(id) where fast_embedded = 0;
-- index chunks_hash on chunks
CREATE INDEX chunks_hash on chunks(content_hash);
-- index chunks_note on chunks
CREATE INDEX chunks_note on chunks(note_id, ordinal);
-- index chunks_pending on chunks
CREATE INDEX chunks_pending on chunks(id) where embedded = 0;
-- index links_pending on links
CREATE INDEX links_pending on links(note_id) where resolved = 0;
-- index links_target on links
CREATE INDEX links_target on links(target_id);
-- index note_tags_tag on note_tags
CREATE INDEX note_tags_tag on note_tags(tag collate nocase);
-- index notes_folder on notes
CREATE INDEX notes_folder on notes(folder);
-- index sqlite_autoindex__migrations_1 on _migrations
;
-- index sqlite_autoindex_chunks_vec_info_1 on chunks_vec_info
;
-- index sqlite_autoindex_chunks_vec_metadatachunks00_1 on chunks_vec_metadatachunks00
;
-- index sqlite_autoindex_chunks_vec_metadatachunks01_1 on chunks_vec_metadatachunks01
;
-- index sqlite_autoindex_chunks_vec_metadatatext01_1 on chunks_vec_metadatatext01
;
-- index sqlite_autoindex_chunks_vec_vector_chunks00_1 on chunks_vec_vector_chunks00
;
-- index sqlite_autoindex_index_meta_1 on index_meta
;
-- index sqlite_autoindex_notes_1 on notes
;
-- index sqlite_autoindex_vector_stats_1 on vector_stats
;
-- table _migrations on _migrations
CREATE TABLE _migrations(name text primary key, applied_at real not null);
-- table chunk_lines on chunk_lines
CREATE TABLE chunk_lines(chunk_id integer not null, key integer not null, chars integer not null,
                                           primary key(chunk_id, key)) without rowid;
-- table chunk_vectors on chunk_vectors
CREATE TABLE chunk_vectors(chunk_id integer primary key, vector blob not null);
-- table chunks on chunks
CREATE TABLE chunks(
            id integer primary key,
            note_id integer not null references notes(id) on delete cascade,
            ordinal integer not null,
            heading_path text not null,         -- JSON list
            prefix text not null,
            lead text not null,                 -- repeated context (table header) not in the source range
            body text not null,                 -- exactly source[char_start:char_end]
            char_start integer not null, char_end integer not null,
            line_start integer not null, line_end integer not null,
            token_count integer not null,
            content_hash text not null,
            truncated integer not null default 0,
            embedded integer not null default 0, boilerplate real not null default 0, hub real not null default 0, fast_embedded integer not null default 0);
-- table chunks_fts on chunks_fts
CREATE VIRTUAL TABLE chunks_fts using fts5(prefix, lead, body, content='chunks',
           content_rowid='id', tokenize='unicode61 remove_diacritics 2');
-- table chunks_fts_config on chunks_fts_config
CREATE TABLE 'chunks_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
-- table chunks_fts_data on chunks_fts_data
CREATE TABLE 'chunks_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
-- table chunks_fts_docsize on chunks_fts_docsize
CREATE TABLE 'chunks_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
-- table chunks_fts_idx on chunks_fts_idx
CREATE TABLE 'chunks_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
-- table chunks_vec on chunks_vec
CREATE VIRTUAL TABLE chunks_vec using vec0(chunk_id integer primary key, shard integer partition key,
               embedding int8[384] distance_metric=l2, note_id integer, folder text);
-- table chunks_vec_chunks on chunks_vec_chunks
CREATE TABLE "chunks_vec_chunks"(chunk_id INTEGER PRIMARY KEY AUTOINCREMENT,size INTEGER NOT NULL,sequence_id integer,partition00,validity BLOB NOT NULL, rowids BLOB NOT NULL);
-- table chunks_vec_info on chunks_vec_info
CREATE TABLE "chunks_vec_info" (key text primary key, value any);
-- table chunks_vec_metadatachunks00 on chunks_vec_metadatachunks00
CREATE TABLE "chunks_vec_metadatachunks00"(rowid PRIMARY KEY, data BLOB NOT NULL);
-- table chunks_vec_metadatachunks01 on chunks_vec_metadatachunks01
CREATE TABLE "chunks_vec_metadatachunks01"(rowid PRIMARY KEY, data BLOB NOT NULL);
-- table chunks_vec_metadatatext01 on chunks_vec_metadatatext01
CREATE TABLE "chunks_vec_metadatatext01"(rowid PRIMARY KEY, data TEXT);
-- table chunks_vec_rowids on chunks_vec_rowids
CREATE TABLE "chunks_vec_rowids"(rowid INTEGER PRIMARY KEY AUTOINCREMENT,id,chunk_id INTEGER,chunk_offset INTEGER);
-- table chunks_vec_vector_chunks00 on chunks_vec_vector_chunks00
CREATE TABLE "chunks_vec_vector_chunks00"(rowid PRIMARY KEY,vectors BLOB NOT NULL);
-- table dirty_lines on dirty_lines
CREATE TABLE dirty_lines(key integer primary key);
-- table embed_cache on embed_cache
CREATE TABLE embed_cache(model_id text not null, content_hash text not null, vector blob not null,
                                    primary key(model_id, content_hash)) without rowid;
-- table headings on headings
CREATE TABLE headings(
            note_id integer not null references notes(id) on delete cascade,
            key text not null,
            primary key(note_id, key)) without rowid;
-- table index_meta on index_meta
CREATE TABLE index_meta(key text primary key, value text not null);
-- table links on links
CREATE TABLE links(
            note_id integer not null references notes(id) on delete cascade,  -- the note the link is in
            ordinal integer not null,
            kind text not null,                 -- wikilink | embed | markdown
            target text not null,               -- as written, without #heading and |alias ('' = this note)
            heading text not null default '',   -- after '#' ('^id': a block)
            alias text not null default '',
            char_start integer not null, char_end integer not null,
            target_id integer references notes(id) on delete set null,
            heading_found integer,              -- 1/0 when a heading is named and the note resolved, else null
            resolved integer not null default 0,  -- 0: written since the last resolve
            primary key(note_id, ordinal)) without rowid;
-- table note_tags on note_tags
CREATE TABLE note_tags(note_id integer not null references notes(id) on delete cascade,
                                  tag text not null, primary key(note_id, tag)) without rowid;
-- table notes on notes
CREATE TABLE notes(
            id integer primary key,
            path text unique not null,          -- vault-relative, '/'-separated
            folder text not null,
            mtime_ns integer not null default 0,
            size integer not null default 0,
            content_hash text not null default '',
            title text not null default '',
            aliases text not null default '[]', -- JSON list
            tags text not null default '[]',    -- JSON list
            links text not null default '[]',   -- JSON list of wikilink targets
            frontmatter text not null default '{}',
            status text not null,               -- indexed | excluded | failed
            reason text not null default '',
            indexed_at real, reason_code text not null default '', language text not null default '', flags text not null default '[]', chunk_count integer not null default -1);
-- table sqlite_sequence on sqlite_sequence
CREATE TABLE sqlite_sequence(name,seq);
-- table vector_changes on vector_changes
CREATE TABLE vector_changes(seq integer primary key autoincrement, chunk_id integer not null);
-- table vector_stats on vector_stats
CREATE TABLE vector_stats(model_id text primary key, n integer not null, mean blob not null,
                                            computed_at real not null);
-- trigger chunk_vectors_log_d on chunk_vectors
CREATE TRIGGER chunk_vectors_log_d after delete on chunk_vectors when (select 1 from index_meta where key = 'ann_file') is not null begin insert into vector_changes(chunk_id) values (old.chunk_id); end;
-- trigger chunk_vectors_log_i on chunk_vectors
CREATE TRIGGER chunk_vectors_log_i after insert on chunk_vectors when (select 1 from index_meta where key = 'ann_file') is not null begin insert into vector_changes(chunk_id) values (new.chunk_id); end;
-- trigger chunk_vectors_log_u on chunk_vectors
CREATE TRIGGER chunk_vectors_log_u after update on chunk_vectors when (select 1 from index_meta where key = 'ann_file') is not null begin insert into vector_changes(chunk_id) values (new.chunk_id); end;
-- trigger chunks_ad on chunks
CREATE TRIGGER chunks_ad after delete on chunks begin
             insert into chunks_fts(chunks_fts, rowid, prefix, lead, body)
               values ('delete', old.id, old.prefix, old.lead, old.body);
           end;
-- trigger chunks_ai on chunks
CREATE TRIGGER chunks_ai after insert on chunks begin
             insert into chunks_fts(rowid, prefix, lead, body) values (new.id, new.prefix, new.lead, new.body);
           end;
-- trigger chunks_au on chunks
CREATE TRIGGER chunks_au after update of prefix, lead, body on chunks begin
             insert into chunks_fts(chunks_fts, rowid, prefix, lead, body)
               values ('delete', old.id, old.prefix, old.lead, old.body);
             insert into chunks_fts(rowid, prefix, lead, body) values (new.id, new.prefix, new.lead, new.body);
           end;
-- trigger chunks_lines_ad on chunks
CREATE TRIGGER chunks_lines_ad after delete on chunks begin
                    insert or ignore into dirty_lines(key) select key from chunk_lines where chunk_id = old.id;
                    delete from chunk_lines where chunk_id = old.id;
                  end;
-- trigger chunks_vec_ad on chunks
CREATE TRIGGER chunks_vec_ad after delete on chunks begin delete from chunks_vec where chunk_id = old.id; delete from chunk_vectors where chunk_id = old.id; end;
