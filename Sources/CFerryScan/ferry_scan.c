#include "ferry_scan.h"

void ferry_csv_classify_blocks(
    const uint8_t *bytes, long blocks, uint8_t delimiter, uint8_t quote, uint64_t *delimiters,
    uint64_t *lineFeeds, uint64_t *special) {
#if defined(__SSE2__)
    const __m128i delimiterBytes = _mm_set1_epi8((char)delimiter);
    const __m128i quoteBytes = _mm_set1_epi8((char)quote);
    const __m128i lineFeedBytes = _mm_set1_epi8('\n');
    const __m128i backslashes = _mm_set1_epi8('\\');
    const __m128i spaces = _mm_set1_epi8(0x20);
    for (long block = 0; block < blocks; block++) {
        uint64_t delimiterBits = 0, lineFeedBits = 0, specialBits = 0;
        for (int part = 0; part < 4; part++) {
            const __m128i chunk = _mm_loadu_si128((const __m128i *)(const void *)(bytes + 64 * block + 16 * part));
            const __m128i isDelimiter = _mm_cmpeq_epi8(chunk, delimiterBytes);
            const __m128i isLineFeed = _mm_cmpeq_epi8(chunk, lineFeedBytes);
            // Signed, bytes above 0x7F are below 0x20 too.
            __m128i isSpecial = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(chunk, quoteBytes), _mm_cmpeq_epi8(chunk, backslashes)),
                _mm_cmplt_epi8(chunk, spaces));
            isSpecial = _mm_andnot_si128(_mm_or_si128(isDelimiter, isLineFeed), isSpecial);
            const int shift = 16 * part;
            delimiterBits |= (uint64_t)(uint16_t)_mm_movemask_epi8(isDelimiter) << shift;
            lineFeedBits |= (uint64_t)(uint16_t)_mm_movemask_epi8(isLineFeed) << shift;
            specialBits |= (uint64_t)(uint16_t)_mm_movemask_epi8(isSpecial) << shift;
        }
        delimiters[block] = delimiterBits;
        lineFeeds[block] = lineFeedBits;
        special[block] = specialBits;
    }
#else
    for (long block = 0; block < blocks; block++) {
        const ferry_csv_bits bits = ferry_csv_classify64(bytes + 64 * block, delimiter, quote);
        delimiters[block] = bits.delimiters;
        lineFeeds[block] = bits.lineFeeds;
        special[block] = bits.quotes | bits.high | bits.others;
    }
#endif
}
