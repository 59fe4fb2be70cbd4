#include "ferry_scan.h"

void ferry_csv_classify_blocks(
    const uint8_t *bytes, long blocks, uint8_t delimiter, uint8_t quote, uint64_t *delimiters,
    uint64_t *lineFeeds, uint64_t *special) {
#if defined(__SSE2__)
    for (long block = 0; block < blocks; block++) {
        uint64_t delimiterBits = 0, lineFeedBits = 0, specialBits = 0;
        for (int part = 0; part < 4; part++) {
            const ferry_csv_masks16 masks = ferry_csv_classify16(bytes + 64 * block + 16 * part, delimiter, quote);
            const int shift = 16 * part;
            delimiterBits |= (uint64_t)masks.delimiters << shift;
            lineFeedBits |= (uint64_t)masks.lineFeeds << shift;
            specialBits |= (uint64_t)masks.special << shift;
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
