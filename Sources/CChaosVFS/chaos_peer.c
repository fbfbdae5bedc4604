/*
** CChaosVFS: another process of the app writing a shared store (the peer
** worker of Seams/Peer). A connection of its own, on the plain "unix" VFS: no fault of
** this process applies to it, and its locks are SQLite's own POSIX locks, which every
** copy of SQLite in another process (the app's: the system's, sqlite-nio's) respects.
*/
#include "chaos_internal.h"

#include <sqlite3.h>
#include <stdio.h>

/* The store on a connection of the peer's own, waiting up to 5 s for the app's locks. */
static int open_store(const char *path, sqlite3 **db) {
    int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE, "unix");
    if (rc != SQLITE_OK) {
        sqlite3_close(*db);
        *db = 0;
        return rc;
    }
    sqlite3_busy_timeout(*db, 5000);
    return SQLITE_OK;
}

int chaos_peer_hold_write(const char *path, int dirty, void **handle) {
    sqlite3 *db = 0;
    *handle = 0;
    int rc = open_store(path, &db);
    if (rc != SQLITE_OK) return rc;
    /* A small cache spills what the transaction writes to the files before any commit. */
    if (dirty) sqlite3_exec(db, "PRAGMA cache_size = 1", 0, 0, 0);
    rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
    if (rc == SQLITE_OK && dirty) {
        rc = sqlite3_exec(db,
            "CREATE TABLE chaos_peer_write(x);"
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 128)"
            " INSERT INTO chaos_peer_write SELECT zeroblob(4096) FROM n;", 0, 0, 0);
    }
    if (rc != SQLITE_OK) {
        sqlite3_close(db);
        return rc;
    }
    *handle = db;
    return 0;
}

void chaos_peer_release(void *handle) {
    sqlite3 *db = (sqlite3 *)handle;
    if (!db) return;
    sqlite3_exec(db, "ROLLBACK", 0, 0, 0);
    sqlite3_close(db);
}

int chaos_peer_migrate(const char *path) {
    sqlite3 *db = 0;
    int rc = open_store(path, &db);
    if (rc != SQLITE_OK) return rc;
    sqlite3_stmt *statement = 0;
    int version = 0, grdb = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, 0) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW) {
        version = sqlite3_column_int(statement, 0);
    }
    sqlite3_finalize(statement);
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'", -1, &statement, 0) == SQLITE_OK) {
        grdb = sqlite3_step(statement) == SQLITE_ROW;
    }
    sqlite3_finalize(statement);
    char sql[512];
    snprintf(sql, sizeof sql,
             "BEGIN IMMEDIATE;"
             "CREATE TABLE IF NOT EXISTS chaos_newer_version(id INTEGER PRIMARY KEY, note TEXT);"
             "%s"
             "PRAGMA user_version = %d;"
             "COMMIT;",
             grdb ? "INSERT OR IGNORE INTO grdb_migrations(identifier) VALUES ('chaos-newer-version');" : "", version + 1);
    rc = sqlite3_exec(db, sql, 0, 0, 0);
    if (rc != SQLITE_OK) sqlite3_exec(db, "ROLLBACK", 0, 0, 0);
    sqlite3_close(db);
    return rc;
}
