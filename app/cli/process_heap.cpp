#include "process_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace strata::cli {

namespace {

// Address space reserved for the main heap. Only what is used is ever backed by memory.
constexpr std::size_t kReserve = std::size_t{512} << 20;
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

}  // namespace

void prepareProcessHeap() {
#if defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
    // Worker threads share the main heap instead of opening arenas of their own (which would
    // grow in small steps, each faulting in fresh pages).
    mallopt(M_ARENA_MAX, 1);
    // Buffers up to glibc's largest threshold (32 MiB) come from the heap too, not from an
    // mmap of their own each; the heap is never handed back while the short-lived process runs.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, static_cast<int>(kReserve * 2));
    // Grow the heap once by the reserve: the next allocation extends it by that much more
    // than it needs, and the rest is only touched as malloc hands it out.
    mallopt(M_TOP_PAD, static_cast<int>(kReserve));
    void* first = std::malloc(std::size_t{1} << 20);  // more than the heap has free yet
    mallopt(M_TOP_PAD, 128 << 10);  // glibc's default, for growth beyond the reserve
    if (first == nullptr) {
        return;
    }
    const auto begin = (reinterpret_cast<std::uintptr_t>(first) + kHugePage) & ~(kHugePage - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(::sbrk(0)) & ~(kHugePage - 1);
    std::free(first);
    if (end > begin) {
        // Advice only: where the kernel has no huge pages to give, nothing changes.
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#endif
}

}  // namespace strata::cli
