#ifndef FERRY_SCAN_H
#define FERRY_SCAN_H

#include <stdint.h>
// Named here too, so that a build whose module cache predates it sees it.
#include "ferry_compact.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// What 64 bytes of CSV hold, a bit per byte (bit i for byte i): the
/// delimiters, the line feeds, the quotes, the bytes above 0x7F, and the
/// other bytes that cannot be copied as they are into a JSON string: a
/// backslash, a byte below 0x20 (other than the delimiter and LF). Each byte
/// is in one mask at most, the first of those that it fits.
typedef struct {
    uint64_t delimiters;
    uint64_t lineFeeds;
    uint64_t quotes;
    uint64_t high;
    uint64_t others;
} ferry_csv_bits;

#if defined(__SSE2__)
/// The masks of 16 bytes, a bit per byte: the delimiters, the line feeds,
/// the quotes, the bytes that are a backslash, below 0x20 or above 0x7F and
/// not a delimiter or LF (as signed bytes, those above 0x7F are below 0x20
/// too), those above 0x7F, and the escaped ones and quotes together. Each
/// caller uses some; the compiler drops the others.
typedef struct {
    unsigned delimiters, lineFeeds, quotes, escaped, high, special;
} ferry_csv_masks16;

/// Both classifiers below are made of it (in a loop, the compiler makes the
/// vectors of `delimiter` and `quote` once).
static inline ferry_csv_masks16 ferry_csv_classify16(const uint8_t *bytes, uint8_t delimiter, uint8_t quote) {
    const __m128i chunk = _mm_loadu_si128((const __m128i *)(const void *)bytes);
    const __m128i isDelimiter = _mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)delimiter));
    const __m128i isLineFeed = _mm_cmpeq_epi8(chunk, _mm_set1_epi8('\n'));
    const __m128i isQuote = _mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)quote));
    const __m128i isEscaped = _mm_andnot_si128(
        _mm_or_si128(isDelimiter, isLineFeed),
        _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8('\\')), _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x20))));
    ferry_csv_masks16 masks = {
        (unsigned)_mm_movemask_epi8(isDelimiter), (unsigned)_mm_movemask_epi8(isLineFeed),
        (unsigned)_mm_movemask_epi8(isQuote), (unsigned)_mm_movemask_epi8(isEscaped),
        (unsigned)_mm_movemask_epi8(chunk), (unsigned)_mm_movemask_epi8(_mm_or_si128(isEscaped, isQuote))};
    return masks;
}
#endif

/// Classifies the 64 bytes at `bytes` (all of them must be readable). Swift
/// has no way to turn a vector comparison into a bit mask (SSE2's
/// `pmovmskb`), so the classifiers are C; this one is inlined into its
/// Swift callers. Other targets get the same result a byte at a time.
static inline ferry_csv_bits ferry_csv_classify64(const uint8_t *bytes, uint8_t delimiter, uint8_t quote) {
    ferry_csv_bits bits = {0, 0, 0, 0, 0};
#if defined(__SSE2__)
    for (int part = 0; part < 4; part++) {
        const ferry_csv_masks16 masks = ferry_csv_classify16(bytes + 16 * part, delimiter, quote);
        const int shift = 16 * part;
        bits.delimiters |= (uint64_t)masks.delimiters << shift;
        bits.lineFeeds |= (uint64_t)masks.lineFeeds << shift;
        bits.quotes |= (uint64_t)masks.quotes << shift;
        bits.high |= (uint64_t)masks.high << shift;
        bits.others |= (uint64_t)(masks.escaped & ~masks.quotes & ~masks.high) << shift;
    }
#else
    for (int index = 0; index < 64; index++) {
        const uint8_t byte = bytes[index];
        const uint64_t bit = (uint64_t)1 << index;
        if (byte == delimiter) {
            bits.delimiters |= bit;
        } else if (byte == '\n') {
            bits.lineFeeds |= bit;
        } else if (byte == quote) {
            bits.quotes |= bit;
        } else if (byte > 0x7F) {
            bits.high |= bit;
        } else if (byte == '\\' || byte < 0x20) {
            bits.others |= bit;
        }
    }
#endif
    return bits;
}

/// Classifies `blocks` blocks of 64 bytes at `bytes` (all readable) into a
/// word per block in each array: the delimiters, the line feeds, and the
/// bytes that need a closer look (those of `others`, `high` and `quotes` in
/// `ferry_csv_classify64`), bit i of word k for byte 64 k + i.
/// The line feeds, carriage returns and quotes among the 64 bytes at
/// `bytes`, a bit each (in `lineFeeds`, `delimiters` and `quotes`): all a
/// search for row ends needs, so that its scan of a file pays for no other
/// class of bytes.
static inline ferry_csv_bits ferry_csv_line_bits64(const uint8_t *bytes, uint8_t quote) {
    ferry_csv_bits bits = {0, 0, 0, 0, 0};
#if defined(__SSE2__)
    const __m128i lineFeed = _mm_set1_epi8('\n'), carriageReturn = _mm_set1_epi8('\r');
    const __m128i quoteByte = _mm_set1_epi8((char)quote);
    for (int part = 0; part < 4; part++) {
        const __m128i chunk = _mm_loadu_si128((const __m128i *)(const void *)(bytes + 16 * part));
        const int shift = 16 * part;
        bits.lineFeeds |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, lineFeed)) << shift;
        bits.delimiters |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, carriageReturn)) << shift;
        bits.quotes |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, quoteByte)) << shift;
    }
#else
    for (int index = 0; index < 64; index++) {
        const uint64_t bit = (uint64_t)1 << index;
        if (bytes[index] == '\n') bits.lineFeeds |= bit;
        else if (bytes[index] == '\r') bits.delimiters |= bit;
        else if (bytes[index] == quote) bits.quotes |= bit;
    }
#endif
    return bits;
}

void ferry_csv_classify_blocks(
    const uint8_t *bytes, long blocks, uint8_t delimiter, uint8_t quote, uint64_t *delimiters,
    uint64_t *lineFeeds, uint64_t *special);

#endif
