#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro; give Swift a function to call. */
static inline int czlib_inflate_init_gzip(z_stream *stream) {
    /* 15 window bits + 32: accept both zlib and gzip headers, detected automatically. */
    return inflateInit2(stream, 15 + 32);
}

/* deflateInit2 is a macro as well: gzip output (15 window bits + 16 writes a gzip header and trailer). */
static inline int czlib_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
