// Work over independent documents on a couple of threads: reading a corpus, planning and
// writing a new one. Results go to per-index slots, so the outcome is in index order whichever
// thread did what.
#pragma once

#include <cstddef>
#include <functional>

namespace strata::ozdf {

// Documents are read and written on this many threads (the caller's included).
inline constexpr unsigned kDocumentThreads = 2;

// Runs work(i) for every i in [0, count) on up to `threads` threads, the caller's included
// (fewer when there is little work or no thread to be had). Once an item throws, no new item
// starts; when all have stopped, the exception of the lowest index that threw is rethrown.
// `callerDone(done)` runs on the caller's thread after each item it ran, with the number of
// items finished so far (for progress reports, which must not come from other threads).
void forEachIndex(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& callerDone = {});

}  // namespace strata::ozdf
