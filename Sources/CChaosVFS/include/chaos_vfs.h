#ifndef CHAOS_VFS_H
#define CHAOS_VFS_H
#include <sqlite3.h>
#endif
