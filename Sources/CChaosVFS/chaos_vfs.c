#include "chaos_vfs.h"
