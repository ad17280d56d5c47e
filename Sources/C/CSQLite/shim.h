#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: the one setting the store makes. Without
   memory statistics, sqlite3's allocator takes no global mutex on every malloc and free. Only
   takes effect before sqlite3 initializes (the first open); later it is a harmless SQLITE_MISUSE. */
static inline int screentime_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
