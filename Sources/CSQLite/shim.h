#include <sqlite3.h>

/// Turns off SQLite's memory statistics, process-wide, before its first use. Kept on (the
/// default), every allocation SQLite makes takes a global mutex to count it; Debian's build has
/// no lookaside allocator, so a report's intake makes hundreds. `sqlite3_config` is variadic,
/// which Swift cannot call. Returns SQLITE_MISUSE once SQLite has been initialised.
static inline int geoserve_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
