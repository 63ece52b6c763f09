/* Baseline for BENCHMARKS.md: a plain C FIFO BFS over the whole Flip R x C space (R*C <= 32),
 * backward from the two uniform boards, with a byte of distance per state.
 * Build: gcc -O2 -o flip_fifo flip_fifo.c   Run: ./flip_fifo 5 5 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flip_masks.h"

int main(int argc, char **argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 5, cols = argc > 2 ? atoi(argv[2]) : 5, n = rows * cols;
    if (n < 1 || n > 32) { fprintf(stderr, "1 to 32 cells\n"); return 2; }
    uint32_t masks[32];
    flip_masks(rows, cols, masks);
    size_t size = (size_t)1 << n;
    uint8_t *dist = malloc(size);
    uint32_t *queue = malloc(size * 4);
    memset(dist, 0xff, size);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t head = 0, tail = 0;
    uint32_t full = (uint32_t)(size - 1);
    dist[0] = 0; queue[tail++] = 0;
    dist[full] = 0; queue[tail++] = full;
    while (head < tail) {
        uint32_t s = queue[head++];
        for (int m = 0; m < n; m++) {
            uint32_t t = s ^ masks[m];
            if (dist[t] == 0xff) { dist[t] = dist[s] + 1; queue[tail++] = t; }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("reachable %zu in %.3f s (%.1f M states/s)\n", tail, secs, tail / secs / 1e6);
    return 0;
}
