/* LD_PRELOAD shim counting heap allocations (malloc, calloc, realloc, posix_memalign,
 * aligned_alloc) so fusion-bench can show the estimator's hot loop allocates nothing.
 * Build: cc -O2 -shared -fPIC scripts/alloc_count.c -o /tmp/alloc_count.so */
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

unsigned long fusion_allocation_count = 0;

void *malloc(size_t size) { __atomic_add_fetch(&fusion_allocation_count, 1, __ATOMIC_RELAXED); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { __atomic_add_fetch(&fusion_allocation_count, 1, __ATOMIC_RELAXED); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { __atomic_add_fetch(&fusion_allocation_count, 1, __ATOMIC_RELAXED); return __libc_realloc(p, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    __atomic_add_fetch(&fusion_allocation_count, 1, __ATOMIC_RELAXED);
    void *p = __libc_memalign(alignment, size);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
void *aligned_alloc(size_t alignment, size_t size) { __atomic_add_fetch(&fusion_allocation_count, 1, __ATOMIC_RELAXED); return __libc_memalign(alignment, size); }
