// How strata-cli sets up the C heap before any command runs.
#pragma once

namespace strata::cli {

// Loading a corpus or a collection allocates tens of megabytes in small pieces; on the
// project's virtual machines the page faults of that fresh memory cost more than reading and
// parsing the files (an OZDF corpus of 51 MB: 27,000 faults, half the process's CPU time).
// One heap for every thread, reserved up front and backed by transparent huge pages where the
// kernel allows them (the `madvise` mode), takes about 1,400. Call once, first thing in main().
void prepareProcessHeap();

}  // namespace strata::cli
