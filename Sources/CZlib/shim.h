#ifndef FERRY_CZLIB_SHIM_H
#define FERRY_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 and inflateInit2 are macros, which Swift cannot call; these
// wrappers pass the version and stream size the macros would.

static inline int ferry_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

static inline int ferry_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
