// Classifies pseudo-random bytes with CFerryScan's classifiers and prints a
// digest of every mask, with the way they were built. Scripts/check-
// classifiers.sh builds it twice, with SSE2 and with the byte loop other
// targets get, and expects the same digest.
#include <stdio.h>
#include "ferry_scan.h"

int main(void) {
    // Delimiters, quotes, line breaks, escapes, control and high bytes,
    // UTF-8, digits, among any bytes.
    static const char alphabet[] = "ab,;|\t\"'\\\n\r\x01\x1f\x7f\x80\xc3\xa9~ 0123456789";
    static uint8_t bytes[1024 * 64];
    uint64_t state = 7;
    for (size_t index = 0; index < sizeof bytes; index++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        const unsigned draw = (unsigned)(state >> 33);
        bytes[index] = draw % 3 == 0 ? (uint8_t)(draw >> 8) : (uint8_t)alphabet[(draw >> 8) % (sizeof alphabet - 1)];
    }
    static uint64_t delimiters[1024], lineFeeds[1024], special[1024];
    // Each delimiter, each with another quote: the usual one, an
    // apostrophe, a backslash (a byte the classifiers also escape) and a
    // tilde. Quotes are printable ASCII, never above 0x7F.
    const uint8_t pairs[][2] = {{',', '"'}, {';', '\''}, {'\t', '\\'}, {'|', '~'}};
    uint64_t digest = 0;
    for (unsigned pair = 0; pair < 4; pair++) {
        const uint8_t delimiter = pairs[pair][0], quote = pairs[pair][1];
        ferry_csv_classify_blocks(bytes, 1024, delimiter, quote, delimiters, lineFeeds, special);
        for (unsigned block = 0; block < 1024; block++) {
            const ferry_csv_bits bits = ferry_csv_classify64(bytes + 64 * block, delimiter, quote);
            // The blocks' masks are the 64-byte masks, combined.
            if (bits.delimiters != delimiters[block] || bits.lineFeeds != lineFeeds[block]
                || (bits.quotes | bits.high | bits.others) != special[block]) {
                printf("block %u, pair %u: the two classifiers differ\n", block, pair);
                return 1;
            }
            const uint64_t words[5] = {bits.delimiters, bits.lineFeeds, bits.quotes, bits.high, bits.others};
            for (unsigned word = 0; word < 5; word++) digest = (digest ^ words[word]) * 1099511628211u;
        }
    }
#if defined(__SSE2__)
    printf("sse2 %016llx\n", (unsigned long long)digest);
#else
    printf("bytes %016llx\n", (unsigned long long)digest);
#endif
    return 0;
}
