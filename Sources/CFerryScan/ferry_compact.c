// JSON whitespace compaction for `JSONText.Compactor`: the merge copies a
// spaced JSON Lines line (as Python's json.dumps writes) to its output
// through it, on the thread that writes the output. What this buys,
// measured with callgrind (`Scripts/count-instructions.sh`, a merge of two
// spaced files of 200,000 products with 20,000 conflicts, whose output
// copies 35 MB of spaced lines): the compaction took 385M instructions a
// byte at a time by a table of byte classes (11 a byte), and takes 120M
// here (3.4 a byte); the whole merge went from 2,373M to 2,109M.
#include "ferry_compact.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The bytes of `input[0..<count]` a byte at a time, from `*state`.
static long compact_bytes(const uint8_t *input, long count, uint8_t *output, unsigned *state) {
    unsigned inString = *state & FERRY_COMPACT_IN_STRING;
    unsigned escaped = *state & FERRY_COMPACT_ESCAPED;
    long kept = 0;
    for (long read = 0; read < count; read++) {
        const uint8_t byte = input[read];
        if (escaped) {
            escaped = 0;
        } else if (inString) {
            if (byte == '"') inString = 0;
            else if (byte == '\\') escaped = FERRY_COMPACT_ESCAPED;
        } else if (byte == ' ' || byte == '\t' || byte == '\r') {
            continue;
        } else if (byte == '"') {
            inString = FERRY_COMPACT_IN_STRING;
        }
        output[kept++] = byte;
    }
    *state = inString | escaped;
    return kept;
}

#if defined(__SSE2__)
/// A bit per byte of the 16 at `bytes` equal to `byte`.
static inline unsigned equal16(__m128i chunk, char byte) {
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(byte)));
}

/// Copies `length` bytes from `from` to `to`, 16 at a time: 16 bytes at
/// least, up to 16 past `from + length` read and past `to + length` written.
/// (Runs are short: one store, with no test before it, is most of them.)
static inline void copy16s(uint8_t *to, const uint8_t *from, long length) {
    long done = 0;
    do {
        _mm_storeu_si128((__m128i *)(void *)(to + done), _mm_loadu_si128((const __m128i *)(const void *)(from + done)));
        done += 16;
    } while (done < length);
}
#endif

long ferry_json_compact(const uint8_t *input, long count, uint8_t *output, unsigned *state) {
    long read = 0;
    long kept = 0;
#if defined(__SSE2__)
    // A block's runs are copied 16 bytes at a time, reading up to 16 bytes
    // past the block and writing as far past where its kept bytes end
    // (which is never past where it ends): 16 readable bytes after it.
    while (read + 80 <= count) {
        const uint8_t *block = input + read;
        uint64_t quotes = 0, backslashes = 0, spaces = 0;
        for (int part = 0; part < 4; part++) {
            const __m128i chunk = _mm_loadu_si128((const __m128i *)(const void *)(block + 16 * part));
            const int shift = 16 * part;
            quotes |= (uint64_t)equal16(chunk, '"') << shift;
            backslashes |= (uint64_t)equal16(chunk, '\\') << shift;
            spaces |= (uint64_t)(equal16(chunk, ' ') | equal16(chunk, '\t') | equal16(chunk, '\r')) << shift;
        }
        if (backslashes != 0 || (*state & FERRY_COMPACT_ESCAPED) != 0) {
            kept += compact_bytes(block, 64, output + kept, state);
            read += 64;
            continue;
        }
        // Bit i set: byte i is inside a string (its opening quote
        // included), by the quotes up to it and the state before.
        uint64_t inside = quotes;
        inside ^= inside << 1;
        inside ^= inside << 2;
        inside ^= inside << 4;
        inside ^= inside << 8;
        inside ^= inside << 16;
        inside ^= inside << 32;
        if (*state & FERRY_COMPACT_IN_STRING) inside = ~inside;
        *state = (unsigned)(inside >> 63) & FERRY_COMPACT_IN_STRING;
        uint64_t dropped = spaces & ~inside;
        long from = 0;
        while (dropped != 0) {
            const long next = (long)__builtin_ctzll(dropped);
            copy16s(output + kept, block + from, next - from);
            kept += next - from;
            from = next + 1;
            dropped &= dropped - 1;
        }
        copy16s(output + kept, block + from, 64 - from);
        kept += 64 - from;
        read += 64;
    }
#endif
    return kept + compact_bytes(input + read, count - read, output + kept, state);
}
