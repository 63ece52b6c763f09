/* Baseline for BENCHMARKS.md: a plain C level-synchronous bitset BFS over the whole Flip R x C
 * space (R*C <= 32), backward from the two uniform boards. Prints the histogram and the time.
 * Build: gcc -O2 -o flip_levels flip_levels.c   Run: ./flip_levels 5 5 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "flip_masks.h"

int main(int argc, char **argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 5, cols = argc > 2 ? atoi(argv[2]) : 5, n = rows * cols;
    if (n < 6 || n > 32) { fprintf(stderr, "6 to 32 cells\n"); return 2; }
    uint32_t masks[32];
    flip_masks(rows, cols, masks);
    size_t words = ((size_t)1 << n) / 64;
    uint64_t *seen = calloc(words, 8), *cur = calloc(words, 8), *next = calloc(words, 8);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t full = ((uint64_t)1 << n) - 1, reached = 2;
    seen[0] |= 1; cur[0] |= 1;
    seen[full >> 6] |= 1ull << (full & 63); cur[full >> 6] |= 1ull << (full & 63);
    printf("depth 0: 2\n");
    for (int depth = 1;; depth++) {
        uint64_t count = 0;
        for (size_t w = 0; w < words; w++) {
            uint64_t x = cur[w];
            while (x) {
                uint32_t s = (uint32_t)(w * 64 + __builtin_ctzll(x));
                x &= x - 1;
                for (int m = 0; m < n; m++) {
                    uint32_t t = s ^ masks[m];
                    uint64_t bit = 1ull << (t & 63);
                    if (!(seen[t >> 6] & bit)) { seen[t >> 6] |= bit; next[t >> 6] |= bit; count++; }
                }
            }
        }
        if (!count) break;
        printf("depth %d: %llu\n", depth, (unsigned long long)count);
        reached += count;
        uint64_t *tmp = cur; cur = next; next = tmp;
        for (size_t w = 0; w < words; w++) next[w] = 0;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("reachable %llu in %.3f s (%.1f M states/s)\n", (unsigned long long)reached, secs, reached / secs / 1e6);
    return 0;
}
