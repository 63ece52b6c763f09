/* The Flip press masks shared by the C baselines: bit r*cols+c is the cell (r, c); a press flips
 * the cell and its orthogonal neighbours (no wrap). Returns the number of cells. */
#include <stdint.h>

static int flip_masks(int rows, int cols, uint32_t masks[32]) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            uint32_t m = 1u << (r * cols + c);
            if (r > 0) m |= 1u << ((r - 1) * cols + c);
            if (r + 1 < rows) m |= 1u << ((r + 1) * cols + c);
            if (c > 0) m |= 1u << (r * cols + c - 1);
            if (c + 1 < cols) m |= 1u << (r * cols + c + 1);
            masks[r * cols + c] = m;
        }
    return rows * cols;
}
