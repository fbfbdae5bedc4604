#include <sqlite3.h>

// Swift cannot call variadic C functions; these wrap the few the controller needs.
static inline int chaos_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *out) {
    return sqlite3_db_config(db, op, value, out);
}
