#ifndef FERRY_COMPACT_H
#define FERRY_COMPACT_H

#include <stdint.h>

/// Where `ferry_json_compact` stopped in a text: inside a string, and just
/// after a backslash there. Zero at the start of a text.
enum {
    FERRY_COMPACT_IN_STRING = 1,
    FERRY_COMPACT_ESCAPED = 2,
};

/// Copies the `count` bytes at `input` to `output`, without the space, tab
/// and CR bytes that lie outside JSON strings; `*state` says where the text
/// before left off (`FERRY_COMPACT_…`) and is left where this one ends.
/// `output` must have room for `count` bytes, and must not overlap `input`.
/// Returns how many bytes were written.
///
/// Blocks of 64 bytes with no backslash are classified 16 bytes at a time
/// (SSE2) and copied by runs between the bytes dropped; a block with a
/// backslash, and the last 80 bytes, go a byte at a time.
long ferry_json_compact(const uint8_t *input, long count, uint8_t *output, unsigned *state);

#endif
