#include <zlib.h>

/* deflateInit2 is a macro over deflateInit2_ that Swift cannot import; this passes the version
 * and stream size the same way the macro does. Returns Z_OK or a zlib error code. */
static inline int czlib_deflate_init2(z_streamp stream, int level, int window_bits, int mem_level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, mem_level, strategy);
}
